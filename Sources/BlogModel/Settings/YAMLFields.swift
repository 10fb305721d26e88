import Dates
import Foundation
import Yams

/// A YAML mapping with typed accessors whose errors point at the offending line of the file.
///
/// Front matter and `lectern.yml` both go through this, so every "wrong type" message looks alike.
package struct YAMLFields {
    let file: String
    /// Added to YAML line numbers to get file line numbers (front matter starts after `---`).
    let lineOffset: Int
    let isConfig: Bool
    /// Values by key, and the line each key is on (looked up once: `Node` comparisons are costly).
    private let values: [String: Node]
    private let lines: [String: Int]
    package let keys: [String]

    package init(yaml: String, file: String, lineOffset: Int, isConfig: Bool = false) throws {
        self.file = file
        self.lineOffset = lineOffset
        self.isConfig = isConfig
        let node: Node?
        do {
            // An explicit encoding spares Yams a look at the environment on every parse.
            node = try Yams.compose(yaml: yaml, Self.resolver, .default, .utf8)
        } catch let error as YamlError {
            throw Self.describe(error, file: file, lineOffset: lineOffset, isConfig: isConfig)
        }
        guard let node else { (values, lines, keys) = ([:], [:], []); return }
        guard let mapping = node.mapping else {
            throw Self.error(file: file, line: (node.mark?.line ?? 1) + lineOffset, isConfig: isConfig,
                             "expected `key: value` lines")
        }
        (values, lines, keys) = Self.index(mapping, lineOffset: lineOffset)
    }

    private init(mapping: Node.Mapping, parent: YAMLFields) {
        self.file = parent.file
        self.lineOffset = parent.lineOffset
        self.isConfig = parent.isConfig
        (values, lines, keys) = Self.index(mapping, lineOffset: parent.lineOffset)
    }

    /// No implicit typing rules: Yams tries one regular expression per rule, and the first
    /// `NSRegularExpression` of a process costs 1.5 ms (ICU starting up), 4 % of a no-op build.
    /// Values do not need them: `Int`'s and `Bool`'s constructors read a plain scalar's text
    /// (a quoted one stays text), dates are parsed by `WrittenDate`, "not set" by `node(_:)`.
    /// (Only duplicate keys compare resolved tags: `1:` beside `"1":` is now a duplicate.)
    private static let resolver = Resolver.basic

    private static func index(_ mapping: Node.Mapping, lineOffset: Int) -> ([String: Node], [String: Int], [String]) {
        var values: [String: Node] = [:]
        var lines: [String: Int] = [:]
        var keys: [String] = []
        for (key, value) in mapping {
            guard case .scalar(let scalar) = key else { continue }
            values[scalar.string] = value
            lines[scalar.string] = (scalar.mark?.line ?? 0) + lineOffset
            keys.append(scalar.string)
        }
        return (values, lines, keys)
    }

    func node(_ key: String) -> Node? {
        guard let value = values[key] else { return nil }
        // `key:`, `key: ~` and `key: null` mean "not set".
        if case .scalar(let scalar) = value, scalar.style == .plain,
           ["", "~", "null", "Null", "NULL"].contains(scalar.string) {
            return nil
        }
        return value
    }

    package func line(of key: String) -> Int { lines[key] ?? lineOffset + 1 }

    package func error(_ key: String, _ message: String) -> SiteError {
        Self.error(file: file, line: line(of: key), isConfig: isConfig, "'\(key)' \(message)")
    }

    /// `file:line: unknown key 'x' ignored (…)` for each key not in `allowed`: content written
    /// for another generator (Hugo's `aliases`, say) builds as is, and the writer sees what was skipped.
    package func unknownKeyWarnings(allowed: Set<String>) -> [String] {
        keys.filter { !allowed.contains($0) }.map { key in
            "\(file):\(line(of: key)): unknown key '\(key)' ignored (known keys: \(allowed.sorted().joined(separator: ", ")))"
        }
    }

    func rejectUnknown(allowed: Set<String>) throws {
        for key in keys where !allowed.contains(key) {
            let known = allowed.sorted().joined(separator: ", ")
            throw Self.error(file: file, line: line(of: key), isConfig: isConfig,
                             "unknown key '\(key)' (known keys: \(known))")
        }
    }

    package func string(_ key: String) throws -> String? {
        guard let node = node(key) else { return nil }
        guard case .scalar(let scalar) = node else { throw error(key, "must be a single value") }
        return scalar.string
    }

    package func int(_ key: String) throws -> Int? {
        guard let node = node(key) else { return nil }
        guard let value = Self.plainDecimal(node) ?? node.int else { throw error(key, "must be a whole number") }
        return value
    }

    /// A plain scalar of decimal digits without a leading zero (`postsPerPage: 10`), read
    /// directly: Yams's own reading first removes `_` through Foundation, whose first use cost
    /// 0.83 M instructions of every command that reads `lectern.yml`. Yams reads such a scalar
    /// the same way; anything else (signs, `0x`, octal, `1_000`, `1:30`, quoted) is left to it.
    private static func plainDecimal(_ node: Node) -> Int? {
        guard case .scalar(let scalar) = node, scalar.style == .any || scalar.style == .plain else { return nil }
        let digits = scalar.string.utf8
        guard let first = digits.first, (UInt8(ascii: "1")...UInt8(ascii: "9")).contains(first), digits.count <= 18,
              digits.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else { return nil }
        return Int(scalar.string)
    }

    func positiveInt(_ key: String) throws -> Int? {
        guard let value = try int(key) else { return nil }
        guard value > 0 else { throw error(key, "must be greater than zero") }
        return value
    }

    package func bool(_ key: String) throws -> Bool? {
        guard let node = node(key) else { return nil }
        guard let value = node.bool else { throw error(key, "must be true or false") }
        return value
    }

    /// A timestamp: `2025-03-01`, `2025-03-01 09:30`, or full ISO 8601 with offset.
    package func date(_ key: String, timeZone: TimeZone) throws -> Date? {
        guard let text = try string(key) else { return nil }
        guard let date = WrittenDate.parse(text, timeZone: timeZone) else {
            throw error(key, "must be a date like 2025-03-01 or 2025-03-01T09:30:00Z, not '\(text)'")
        }
        return date
    }

    /// A list of strings; a single string is accepted as a one-item list.
    package func strings(_ key: String) throws -> [String] {
        guard let node = node(key) else { return [] }
        switch node {
        case .scalar(let scalar):
            return [scalar.string]
        case .sequence(let sequence):
            return try sequence.map { item in
                guard case .scalar(let scalar) = item else { throw error(key, "must be a list of words") }
                return scalar.string
            }
        default:
            throw error(key, "must be a list such as [swift, web]")
        }
    }

    package func nested(_ key: String) throws -> YAMLFields? {
        guard let node = node(key) else { return nil }
        guard let mapping = node.mapping else { throw error(key, "must contain `key: value` lines") }
        return YAMLFields(mapping: mapping, parent: self)
    }

    /// libyaml's contexts for something opened and never closed.
    private static let opens: Set<String> = [
        "while scanning a quoted scalar", "while parsing a flow sequence", "while parsing a flow mapping",
    ]

    /// What went wrong, said as a writer would fix it; libyaml's own words after it.
    static func inWritersWords(problem: String, context: String?) -> String {
        let said: String
        switch (context, problem) {
        case ("while scanning a quoted scalar", _):
            said = "a quoted value starts here and is never closed (a missing \" or ')"
        case ("while parsing a flow sequence", _), ("while parsing a flow mapping", _):
            said = "a list or map opened here with [ or { is never closed"
        case (_, "mapping values are not allowed in this context"):
            said = "a value holds ': ', which YAML reads as a new key; put the value in quotes"
        case (_, "did not find expected key"), (_, "did not find expected '-' indicator"):
            said = "this line does not line up with the ones above as `key: value` (a stray space? a value that needs quotes?)"
        case (_, "could not find expected ':'"):
            said = "a line is not `key: value`"
        case (_, let problem) where problem.hasPrefix("found character that cannot start any token"):
            said = "a value starts with a character YAML keeps for itself (`, @, % or a tab); put the value in quotes"
        default:
            return problem
        }
        return said + " (YAML: \(problem))"
    }

    private static func error(file: String, line: Int, isConfig: Bool, _ message: String) -> SiteError {
        isConfig ? .config(file: file, line: line, message: message)
                 : .source(file: file, line: line, message: message)
    }

    private static func describe(_ error: YamlError, file: String, lineOffset: Int, isConfig: Bool) -> SiteError {
        switch error {
        case let .scanner(context, problem, mark, _), let .parser(context, problem, mark, _), let .composer(context, problem, mark, _):
            // libyaml notices an unclosed quote or bracket where the text ends; its context
            // names where it opened, which is the line to fix.
            let opened = context.flatMap { Self.opens.contains($0.text) ? $0.mark.line : nil }
            return Self.error(file: file, line: (opened ?? mark.line) + lineOffset, isConfig: isConfig,
                              "invalid YAML: " + Self.inWritersWords(problem: problem, context: context?.text))
        case let .duplicatedKeysInMapping(duplicates, _):
            return Self.error(file: file, line: lineOffset + 1, isConfig: isConfig,
                              "invalid YAML: duplicate keys \(duplicates.joined(separator: ", "))")
        default:
            return Self.error(file: file, line: lineOffset + 1, isConfig: isConfig, "invalid YAML: \(error)")
        }
    }
}
