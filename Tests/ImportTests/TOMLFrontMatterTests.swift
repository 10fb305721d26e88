import BlogModel
import Foundation
@testable import Site
import Testing
import Yams

/// TOML front matter becomes YAML that means the same (checked by loading it with Yams) and
/// keeps every key on its TOML line (checked with Yams' node marks).
@Suite struct TOMLFrontMatterTests {
    func yaml(_ toml: String) throws -> String {
        try TOMLFrontMatter.yaml(fromTOML: toml, file: "content/posts/x.md", firstLine: 2)
    }

    /// The YAML loaded with Yams' default rules (numbers, booleans), timestamps left as text.
    func load(_ toml: String) throws -> [String: Any] {
        let loaded = try Yams.load(yaml: try yaml(toml), Resolver.default.removing(.timestamp))
        return try #require(Self.plain(loaded) as? [String: Any])
    }

    static func plain(_ value: Any?) -> Any? {
        switch value {
        case let mapping as [AnyHashable: Any]:
            return Dictionary(uniqueKeysWithValues: mapping.map { (String(describing: $0.key.base), plain($0.value) as Any) })
        case let array as [Any]: return array.map { plain($0) as Any }
        default: return value
        }
    }

    /// A stable text form of plain values, to compare structures.
    static func canonical(_ value: Any?) -> String {
        switch value {
        case let mapping as [String: Any]:
            return "{" + mapping.keys.sorted().map { "\($0): \(canonical(mapping[$0]))" }.joined(separator: ", ") + "}"
        case let array as [Any]: return "[" + array.map(canonical).joined(separator: ", ") + "]"
        case let text as String: return "\"\(text)\""
        case let bool as Bool: return bool ? "true" : "false"
        case let number as Int: return "\(number)"
        case let number as Double: return number.isNaN ? "nan" : "\(number)"
        case nil: return "null"
        default: return "\(value!)"
        }
    }

    /// Line of each key in the YAML (1-based), by dotted path.
    func lines(_ toml: String) throws -> [String: Int] {
        var result: [String: Int] = [:]
        func walk(_ node: Node, prefix: String) {
            if case .mapping(let mapping) = node {
                for (key, value) in mapping {
                    let path = prefix.isEmpty ? key.string ?? "?" : prefix + "." + (key.string ?? "?")
                    result[path] = key.mark?.line
                    walk(value, prefix: path)
                }
            } else if case .sequence(let sequence) = node {
                for (index, item) in sequence.enumerated() { walk(item, prefix: "\(prefix)[\(index)]") }
            }
        }
        if let node = try Yams.compose(yaml: try yaml(toml)) { walk(node, prefix: "") }
        return result
    }

    @Test func scalars() throws {
        let toml = #"""
        title = "Tabs\tand \"quotes\" \\ back \u00E9 \U0001F600"
        literal = 'C:\Users\path'
        int = 42
        negative = -17
        plus = +99
        big = 1_000_000
        hex = 0xDEAD_beef
        octal = 0o755
        binary = 0b1101
        float = 3.14
        exponent = 6.02e23
        under = 9_224.5
        infinite = -inf
        notanumber = nan
        yes = true
        no = false
        "quoted key" = "v"
        'literal key' = "w"
        1234 = "numeric key"
        """#
        let fields = try load(toml)
        #expect(Self.canonical(fields) == Self.canonical([
            "title": "Tabs\tand \"quotes\" \\ back é 😀", "literal": "C:\\Users\\path", "int": 42, "negative": -17,
            "plus": 99, "big": 1_000_000, "hex": 0xDEADBEEF, "octal": 0o755, "binary": 13, "float": 3.14,
            "exponent": 6.02e23, "under": 9224.5, "infinite": -Double.infinity, "notanumber": Double.nan, "yes": true,
            "no": false, "quoted key": "v", "literal key": "w", "1234": "numeric key",
        ] as [String: Any]))
    }

    @Test func datesAndTimes() throws {
        let toml = """
        odt = 1979-05-27T07:32:00Z
        offset = 1979-05-27T00:32:00.999999-07:00
        space = 1979-05-27 07:32:00+02:00
        local = 1979-05-27T07:32:00
        day = 1979-05-27
        time = 07:32:00
        """
        let fields = try load(toml)
        #expect(fields["odt"] as? String == "1979-05-27T07:32:00Z")
        #expect(fields["offset"] as? String == "1979-05-27T00:32:00.999999-07:00")
        #expect(fields["space"] as? String == "1979-05-27 07:32:00+02:00")
        #expect(fields["local"] as? String == "1979-05-27T07:32:00")
        #expect(fields["day"] as? String == "1979-05-27")
        #expect(fields["time"] as? String == "07:32:00")
        // With Yams' timestamp rule, the offset date-times are dates, as in TOML.
        let typed = try #require(try Yams.load(yaml: try yaml(toml)) as? [AnyHashable: Any])
        #expect(typed["odt"] as? Date == Date(timeIntervalSince1970: 296_638_320))
    }

    @Test func multiLineStrings() throws {
        let toml = #"""
        summary = """
        Roses are red
          Violets are "blue"\
          , and so on."""
        raw = '''
        C:\no\escapes
        ''it''s'''
        after = 1
        """#
        let fields = try load(toml)
        #expect(fields["summary"] as? String == "Roses are red\n  Violets are \"blue\", and so on.")
        #expect(fields["raw"] as? String == "C:\\no\\escapes\n''it''s")
        // The value takes the lines it took; the next key is still on its own line.
        #expect(try lines(toml)["after"] == 8)
    }

    @Test func arraysAndInlineTables() throws {
        let toml = """
        tags = ["swift", 'rust', "c++"]
        nested = [[1, 2], ["a"], []]
        multi = [
          "one",   # a comment
          "two",
        ]
        point = { x = 1, y = 2, label = "origin", deep = { z = true } }
        empty = {}
        """
        let fields = try load(toml)
        #expect(Self.canonical(fields) == Self.canonical([
            "tags": ["swift", "rust", "c++"], "nested": [[1, 2], ["a"], [] as [Any]], "multi": ["one", "two"],
            "point": ["x": 1, "y": 2, "label": "origin", "deep": ["z": true]], "empty": [String: Any](),
        ] as [String: Any]))
    }

    @Test func tablesDottedKeysAndArraysOfTables() throws {
        let toml = """
        title = "Post"
        site.name = "Blog"
        site.url = "https://blog.example"

        [taxonomies]
        tags = ["a", "b"]
        categories = ["c"]

        [extra.social]
        twitter = "@me"

        [extra]
        toc = false

        [[cover.images]]
        src = "a.png"
        [[cover.images]]
        src = "b.png"
        [cover.images.meta]
        width = 640
        """
        let fields = try load(toml)
        #expect(Self.canonical(fields) == Self.canonical([
            "title": "Post", "site": ["name": "Blog", "url": "https://blog.example"],
            "taxonomies": ["tags": ["a", "b"], "categories": ["c"]],
            "extra": ["social": ["twitter": "@me"], "toc": false],
            "cover": ["images": [["src": "a.png"], ["src": "b.png", "meta": ["width": 640]]]],
        ] as [String: Any]))
        let lines = try lines(toml)
        #expect(lines["title"] == 1 && lines["site"] == 2 && lines["site.name"] == 2 && lines["site.url"] == 3)
        #expect(lines["taxonomies"] == 5 && lines["taxonomies.tags"] == 6 && lines["taxonomies.categories"] == 7)
        #expect(lines["extra"] == 9 && lines["extra.social"] == 9 && lines["extra.social.twitter"] == 10)
        #expect(lines["extra.toc"] == 13)
        #expect(lines["cover"] == 15 && lines["cover.images[0].src"] == 16 && lines["cover.images[1].src"] == 18)
        #expect(lines["cover.images[1].meta.width"] == 20)
    }

    @Test func everyKeyKeepsItsLine() throws {
        let toml = """
        # Hugo front matter
        title = "Goroutines: A Field Guide"   # trailing comment
        date = 2020-05-04T09:00:00+02:00

        draft = false
        tags = [
          "go",
          "concurrency",
        ]
        summary = \"\"\"
        Two
        lines\"\"\"
        [params]
          mermaid = true
        """
        let lines = try lines(toml)
        #expect(lines == ["title": 2, "date": 3, "draft": 5, "tags": 6, "summary": 10, "params": 13, "params.mermaid": 14])
    }

    /// What the site build does with it: YAMLFields reads the converted front matter, and its
    /// errors name the TOML line in the file.
    @Test func worksWithTheContentPipeline() throws {
        let toml = "title = \"Hello\"\ndate = 2024-01-02\ntags = [\"a\", \"b\"]\n[taxonomies]\ndraft = \"maybe\"\n"
        let yaml = try TOMLFrontMatter.yaml(fromTOML: toml, file: "content/posts/x.md", firstLine: 2)
        let fields = try YAMLFields(yaml: yaml, file: "content/posts/x.md", lineOffset: 1)
        #expect(try fields.string("title") == "Hello")
        #expect(try fields.strings("tags") == ["a", "b"])
        #expect(try fields.date("date", timeZone: TimeZone(identifier: "UTC")!) != nil)
        #expect(fields.line(of: "tags") == 4)
        let nested = try #require(try fields.nested("taxonomies"))
        #expect(throws: SiteError.source(file: "content/posts/x.md", line: 6, message: "'draft' must be true or false")) {
            try nested.bool("draft")
        }
    }

    @Test func malformedTOMLNamesTheLine() throws {
        let cases: [(String, Int, String)] = [
            ("title = \"x\"\ndate =\n", 2, "expected a value after '='"),
            ("title = \"x\"\ndraft = \"unterminated\ntags = []\n", 2, "cannot span lines"),
            ("a = 1\nb = 2\na = 3\n", 3, "duplicate key 'a' (first set on line 1)"),
            ("[t]\nx = 1\n[t]\n", 3, "table 't' is defined twice"),
            ("s = \"bad \\q escape\"\n", 1, "'\\q' is not a valid escape"),
            ("x = 1 2\n", 1, "unexpected '2' after a value"),
            ("tags = [\"a\",\n\"b\"\n", 1, "the array opened on line 1 is not closed"),
            ("title \"x\"\n", 1, "expected '=' after the key 'title'"),
            ("= 1\n", 1, "expected a key"),
            ("x = yes\n", 1, "'yes' is not a valid value"),
            ("s = '''\nnever closed\n", 1, "is not closed"),
            ("a.b = 1\n[a]\n", 2, "table 'a' is defined twice"),
            ("p = {x = 1}\n[p.q]\n", 2, "inline table"),
        ]
        for (toml, line, message) in cases {
            do {
                _ = try TOMLFrontMatter.yaml(fromTOML: toml, file: "content/posts/x.md", firstLine: 2)
                Issue.record("no error for \(toml)")
            } catch let SiteError.source(file, errorLine, errorMessage) {
                #expect(file == "content/posts/x.md")
                #expect(errorLine == line + 1, "\(toml): line \(errorLine ?? 0)")
                #expect(errorMessage.hasPrefix("invalid TOML: ") && errorMessage.contains(message), "\(errorMessage)")
            }
        }
    }

    @Test func emptyFrontMatter() throws {
        #expect(try yaml("").trimmingCharacters(in: .whitespacesAndNewlines).isEmpty)
        #expect(try yaml("# only a comment\n").trimmingCharacters(in: .whitespacesAndNewlines).isEmpty)
    }

    @Test func keysThatYAMLWouldMisread() throws {
        let fields = try load("true = 1\nnull = 2\n\"a: b\" = 3\n\"#x\" = 4\n")
        #expect(Self.canonical(fields) == Self.canonical(["true": 1, "null": 2, "a: b": 3, "#x": 4] as [String: Any]))
        let strings = try load("a = \"yes\"\nb = \"- item\"\nc = \"x: y # z\"\nd = \"\\u0007bell\"\n")
        #expect(Self.canonical(strings) == Self.canonical(["a": "yes", "b": "- item", "c": "x: y # z", "d": "\u{7}bell"] as [String: Any]))
    }
}
