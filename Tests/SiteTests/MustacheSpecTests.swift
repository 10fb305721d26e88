import ActivityStreams
import Foundation
import Testing
@testable import Site

/// The template engine against the official Mustache spec's test files (MustacheSpec/, from
/// github.com/mustache/spec): every case of the core modules and of inheritance, run as data.
@Suite struct MustacheSpecTests {
    static let files = ["comments", "delimiters", "interpolation", "inverted", "partials", "sections", "~inheritance"]

    struct Case: Decodable {
        let name: String
        let data: JSONValue
        let template: String
        let expected: String
        let partials: [String: String]?
    }

    @Test(arguments: files)
    func specFile(_ file: String) throws {
        let url = try #require(Bundle.module.url(forResource: file, withExtension: "json", subdirectory: "MustacheSpec"))
        struct Spec: Decodable { let tests: [Case] }
        let cases = try JSONDecoder().decode(Spec.self, from: Data(contentsOf: url)).tests
        #expect(cases.count > 10)
        for test in cases {
            var library = TemplateLibrary()
            library.register(try Template(test.template), named: "__test__")
            for (name, text) in test.partials ?? [:] { library.register(try Template(text), named: name) }
            let output = try library.render(test.data, template: "__test__")
            #expect(output == test.expected, "\(file): \(test.name)")
        }
    }

    @Test func errorsNameTheLine() {
        let cases: [(String, Int, String)] = [
            ("a\nb {{#open}}\nc", 2, "never closed"),
            ("{{#a}}\n\n{{/b}}", 3, "closes {{#a}} of line 1"),
            ("x\n{{/a}}", 2, "closes no section"),
            ("\n\n{{name", 3, "unclosed tag"),
            ("{{=<% %> x=}}", 1, "set-delimiters"),
            ("{{uppercased(name)}}", 1, "transforms"),
            ("{{a..b}}", 1, "bad name"),
            (String(repeating: "{{#a}}\n", count: 5_000), 101, "nested more than 100 deep"),
        ]
        for (text, line, message) in cases {
            #expect {
                _ = try Template(text)
            } throws: { error in
                guard let error = error as? TemplateError else { return false }
                return error.line == line && error.message.contains(message)
            }
        }
    }

    @Test func aPartialThatIncludesItselfStops() throws {
        var library = TemplateLibrary()
        library.register(try Template("x{{> loop}}"), named: "loop")
        #expect(throws: TemplateRenderError.tooDeep("loop")) { try library.render(["a": 1] as [String: any TemplateValue], template: "loop") }
        #expect(throws: TemplateRenderError.unknownTemplate("nope")) { try library.render(["a": 1] as [String: any TemplateValue], template: "nope") }
    }

    /// Escaping is by Unicode scalar: a quote with a combining mark after it is still escaped.
    @Test func escapesByScalar() throws {
        var library = TemplateLibrary()
        library.register(try Template("<img src=\"{{v}}\">"), named: "t")
        let output = try library.render(["v": "x\u{0022}\u{0301} onerror=alert(1) '<&>"] as [String: any TemplateValue], template: "t")
        #expect(output == "<img src=\"x&quot;\u{0301} onerror=alert(1) &#39;&lt;&amp;&gt;\">")
    }
}

/// A spec case's JSON data (the project's own `JSONValue`) read as a template value.
extension JSONValue: TemplateValue {
    public func member(_ name: String) -> (any TemplateValue)? {
        if case .object(let members) = self { return members[name] }
        return nil
    }

    public var section: TemplateSection {
        switch self {
        case .null, .bool(false): .hidden
        case .array(let items): items.isEmpty ? .hidden : .list
        default: .once
        }
    }

    public var text: String {
        switch self {
        case .null: ""
        case .bool(let value): value.text
        // The spec shows 1.0 as "1" and 1.21 as "1.21".
        case .number(let value): value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
        case .string(let value): value
        case .array, .object: ""
        }
    }

    public func forEachItem(_ body: (any TemplateValue) throws -> Void) rethrows {
        if case .array(let items) = self { for item in items { try body(item) } }
    }
}
