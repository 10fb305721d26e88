import Foundation
import HTMLMarkup
import Testing

/// Our microformats2 parser (`Microformats`, written for Webmention: no Swift mf2 library exists
/// in the package mirror) against mf2py, the reference Python parser, on the microformats test
/// suite's h-entry and h-card cases, some of mf2py's own test pages and pages Lectern built
/// (`Microformats/`). What is compared is what Webmention reads: item types, property names,
/// values as text (whitespace runs collapsed), `e-` values' text, `u-photo`'s alt, nested items
/// and children.
@Suite struct MicroformatsDifferentialTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Microformats")

    /// Cases where our reading differs on purpose, with the reason.
    static let knownDifferences: [String: String] = [:]

    static func referenceItems(_ files: [URL]) throws -> [String: Any] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", folder.appendingPathComponent("mf2py_parse.py").path] + files.map(\.path)
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw CocoaError(.featureUnsupported) }
        return try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
    }

    /// Both sides reduced to what is compared.
    static func normal(_ value: Any) -> Any {
        if let text = value as? String {
            return text.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
        }
        if let list = value as? [Any] { return list.map(normal) }
        guard let object = value as? [String: Any] else { return "\(value)" }
        if let types = object["type"] as? [String] {
            var item: [String: Any] = ["type": types.sorted()]
            let properties = object["properties"] as? [String: Any] ?? [:]
            item["properties"] = properties.mapValues(normal)
            if let children = object["children"] as? [Any], !children.isEmpty { item["children"] = normal(children) }
            if let value = object["value"] { item["value"] = normal(value) }
            return item
        }
        if object["html"] != nil { return ["text": normal(object["value"] ?? "")] }
        var rest: [String: Any] = [:]
        for key in ["value", "alt"] { if let part = object[key] { rest[key] = normal(part) } }
        return rest
    }

    static func json(_ item: Microformats.Item) -> [String: Any] {
        var object: [String: Any] = ["type": item.types, "properties": item.properties.mapValues { $0.map(json) }]
        if !item.children.isEmpty { object["children"] = item.children.map(json) }
        if let value = item.value { object["value"] = value }
        return object
    }

    static func json(_ value: Microformats.Value) -> Any {
        switch value {
        case .text(let text): text
        case .image(let url, let alt): ["value": url, "alt": alt]
        case .html(let html, let text): ["html": html, "value": text]
        case .item(let item): json(item)
        }
    }

    static func same(_ a: Any, _ b: Any) -> Bool {
        let data = { (value: Any) in try? JSONSerialization.data(withJSONObject: ["v": value], options: [.sortedKeys]) }
        return data(a) == data(b)
    }

    @Test func agreesWithMf2pyOnTheSuitesCases() throws {
        let files = try FileManager.default.contentsOfDirectory(at: Self.folder, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "html" }.sorted { $0.lastPathComponent < $1.lastPathComponent }
        #expect(files.count >= 20)
        let reference = try Self.referenceItems(files)
        var agreed = 0
        for file in files {
            let name = file.lastPathComponent
            let html = try String(contentsOf: file, encoding: .utf8)
            let ours = Self.normal(Microformats.parse(html, base: "http://example.com/").map(Self.json))
            let theirs = Self.normal(reference[name] ?? [])
            if let reason = Self.knownDifferences[name] {
                #expect(!Self.same(ours, theirs), "\(name) now agrees: drop it from knownDifferences (\(reason))")
                continue
            }
            #expect(Self.same(ours, theirs), "\(name)\nours:   \(ours)\nmf2py:  \(theirs)")
            if Self.same(ours, theirs) { agreed += 1 }
        }
        print("microformats: \(agreed) of \(files.count) cases agree with mf2py, \(Self.knownDifferences.count) known differences")
    }
}
