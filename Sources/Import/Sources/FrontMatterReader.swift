import BlogModel
import Foundation
import Yams

/// Splits a static site generator's content file into its front matter — YAML between `---` or
/// TOML between `+++` (split by `FrontMatter`, as Lectern's own posts are), or a JSON object —
/// and its body, and reads
/// the front matter into plain values (strings, numbers, booleans, arrays, dictionaries).
/// Timestamps stay strings so dates without an offset are read in the site's time zone.
struct FrontMatterReader {
    var fields: [String: Any]
    var body: String

    enum Failure: Error {
        case invalid(line: Int, message: String)
    }

    /// YAML as the importer reads it: no implicit timestamps.
    private static let resolver = Resolver.default.removing(.timestamp)

    init(_ source: String, file: String) throws {
        let source = source.replacingOccurrences(of: "\r\n", with: "\n")
        let matter: FrontMatter
        do {
            matter = try FrontMatter.split(source, file: file)
        } catch let error as SiteError {
            if case let .source(_, line, message) = error { throw Failure.invalid(line: line ?? 1, message: message) }
            throw error
        }
        if matter.isFenced {
            do {
                fields = Self.plain(try Yams.load(yaml: matter.yaml, Self.resolver)) as? [String: Any] ?? [:]
            } catch let error as YamlError {
                throw Failure.invalid(line: 1, message: "invalid front matter: \(error)")
            }
            body = matter.body
            return
        }
        let text = Substring(matter.body)  // the source without its byte-order mark
        if text.hasPrefix("{"), let end = Self.endOfJSONObject(text) {
            let json = String(text[..<end])
            guard let object = (try? JSONSerialization.jsonObject(with: Data(json.utf8))) as? [String: Any] else {
                throw Failure.invalid(line: 1, message: "invalid JSON front matter")
            }
            fields = object
            body = String(text[end...])
            return
        }
        fields = [:]
        body = String(text)
    }

    /// Mappings with string keys all the way down.
    private static func plain(_ value: Any?) -> Any? {
        switch value {
        case let mapping as [AnyHashable: Any]:
            var result: [String: Any] = [:]
            for (key, inner) in mapping { result[String(describing: key.base)] = plain(inner) }
            return result
        case let array as [Any]:
            return array.map { plain($0) ?? "" }
        default:
            return value
        }
    }

    /// Where a JSON object that starts `text` ends (braces outside strings balanced).
    private static func endOfJSONObject(_ text: Substring) -> Substring.Index? {
        var depth = 0
        var inString = false
        var escaped = false
        for index in text.indices {
            let character = text[index]
            if inString {
                if escaped { escaped = false } else if character == "\\" { escaped = true } else if character == "\"" { inString = false }
                continue
            }
            switch character {
            case "\"": inString = true
            case "{": depth += 1
            case "}":
                depth -= 1
                if depth == 0 { return text.index(after: index) }
            default: break
            }
        }
        return nil
    }

    // MARK: Typed access

    func string(_ keys: String...) -> String? {
        for key in keys {
            if let value = Self.value(fields, path: key) {
                switch value {
                case let text as String where !text.trimmingCharacters(in: .whitespaces).isEmpty: return text
                case let number as Int: return String(number)
                case let number as Double: return String(number)
                default: continue
                }
            }
        }
        return nil
    }

    /// A list given as a list or as one string (`split` cuts it: Jekyll's space-separated `tags`).
    func strings(_ key: String, split: Bool = false) -> [String] {
        switch Self.value(fields, path: key) {
        case let list as [Any]: return list.compactMap { $0 as? String ?? ($0 as? Int).map(String.init) }
        case let text as String:
            return split ? text.split(whereSeparator: { $0 == " " || $0 == "," }).map(String.init) : [text]
        default: return []
        }
    }

    func bool(_ key: String) -> Bool? {
        switch Self.value(fields, path: key) {
        case let value as Bool: return value
        case let text as String: return ["true", "yes"].contains(text.lowercased()) ? true : ["false", "no"].contains(text.lowercased()) ? false : nil
        default: return nil
        }
    }

    /// `a.b` looks inside nested mappings. Keys match whatever their case, as Hugo reads them
    /// (`Title:`, `Date:` in blogs moved from Pelican); an exact match wins.
    static func value(_ fields: [String: Any], path: String) -> Any? {
        var current: Any? = fields
        for part in path.split(separator: ".") {
            guard let mapping = current as? [String: Any] else { return nil }
            let key = String(part)
            current = mapping[key] ?? mapping.first { $0.key.lowercased() == key.lowercased() }?.value
        }
        return current
    }
}
