import Foundation

/// Converts TOML front matter (Hugo's and Zola's `+++` fences) into equivalent YAML, so the rest
/// of the content pipeline (`YAMLFields`) reads both.
///
/// Each key of the YAML stays on the line its TOML key was on, so YAML-level errors ("'date'
/// must be a date…") still name the right file line. Tables become YAML flow mappings opened
/// on their header line (`[taxonomies]` → `taxonomies: {`), their keys on the lines below;
/// comments become blank lines; a multi-line string becomes one escaped YAML line followed by
/// blank lines. Only a table reopened after another table (`[a]`, `[b]`, `[a.c]`) moves keys.
///
/// ```swift
/// let yaml = try TOMLFrontMatter.yaml(fromTOML: "title = \"Hi\"\n[taxonomies]\ntags = [\"a\"]\n",
///                                     file: "content/posts/hi.md", firstLine: 2)
/// // title: "Hi"
/// // taxonomies: {
/// //   tags: ["a"]}
/// ```
public enum TOMLFrontMatter {
    /// The YAML for `toml`, or `SiteError.source` naming `file` and the line (`firstLine` is the
    /// file line of the TOML's first line) of the first malformed construct.
    public static func yaml(fromTOML toml: String, file: String, firstLine: Int) throws -> String {
        var parser = TOMLParser(toml)
        let root: TOMLTable
        do {
            root = try parser.document()
        } catch let failure as TOMLParser.Failure {
            throw SiteError.source(file: file, line: firstLine + failure.line - 1,
                                   message: "invalid TOML: \(failure.message)")
        }
        var writer = LineKeepingYAMLWriter()
        writer.write(root)
        return writer.text
    }
}

// MARK: - The TOML document as a tree that remembers lines

/// A TOML value with the line its key (or array element) starts on.
private indirect enum TOMLNode {
    case string(String, line: Int)
    /// Integers as decimal digits, floats and date-times as the YAML text they become.
    case literal(String, line: Int)
    case table(TOMLTable)
    case array([TOMLNode], line: Int)
    case tableArray([TOMLTable], line: Int)

    var line: Int {
        switch self {
        case .string(_, let line), .literal(_, let line), .array(_, let line), .tableArray(_, let line): return line
        case .table(let table): return table.line
        }
    }
}

/// Tables are shared and grown in place while headers and dotted keys name them.
private final class TOMLTable {
    enum Origin { case implicit, header, dotted, inline }

    let line: Int
    var origin: Origin
    private(set) var keys: [String] = []
    private(set) var values: [String: TOMLNode] = [:]

    init(line: Int, origin: Origin) {
        self.line = line
        self.origin = origin
    }

    subscript(key: String) -> TOMLNode? { values[key] }

    func set(_ key: String, _ value: TOMLNode) {
        if values[key] == nil { keys.append(key) }
        values[key] = value
    }

    var entries: [(String, TOMLNode)] { keys.map { ($0, values[$0]!) } }
}

// MARK: - Parsing

private struct TOMLParser {
    struct Failure: Error {
        let line: Int
        let message: String
    }

    private let bytes: [UInt8]
    private var position = 0
    private var line = 1

    init(_ text: String) { bytes = Array(text.utf8) }

    mutating func document() throws -> TOMLTable {
        let root = TOMLTable(line: 1, origin: .header)
        var current = root
        while true {
            skipSpaces()
            guard let byte = peek() else { break }
            switch byte {
            case UInt8(ascii: "#"), UInt8(ascii: "\n"), UInt8(ascii: "\r"):
                try endOfLine()
            case UInt8(ascii: "["):
                current = try tableHeader(root: root)
                try endOfLine()
            default:
                try keyValue(into: current)
                try endOfLine()
            }
        }
        return root
    }

    // MARK: Structure

    private mutating func tableHeader(root: TOMLTable) throws -> TOMLTable {
        let headerLine = line
        position += 1
        let isArray = peek() == UInt8(ascii: "[")
        if isArray { position += 1 }
        skipSpaces()
        let path = try key()
        skipSpaces()
        guard take("]"), !isArray || take("]") else {
            throw fail(isArray ? "expected ']]' to close the table header" : "expected ']' to close the table header")
        }
        var table = root
        for (index, name) in path.enumerated() {
            let isLast = index == path.count - 1
            let shown = path[...index].joined(separator: ".")
            if isLast && isArray {
                let element = TOMLTable(line: headerLine, origin: .header)
                switch table[name] {
                case nil:
                    table.set(name, .tableArray([element], line: headerLine))
                case .tableArray(let elements, let line):
                    table.set(name, .tableArray(elements + [element], line: line))
                default:
                    throw fail("'\(shown)' is already a value, not an array of tables", line: headerLine)
                }
                return element
            }
            switch table[name] {
            case nil:
                let created = TOMLTable(line: headerLine, origin: isLast ? .header : .implicit)
                table.set(name, .table(created))
                table = created
            case .table(let existing):
                if isLast {
                    guard existing.origin == .implicit else {
                        throw fail("table '\(shown)' is defined twice (first on line \(existing.line))", line: headerLine)
                    }
                    existing.origin = .header
                } else if existing.origin == .inline {
                    throw fail("'\(shown)' is an inline table and cannot be extended", line: headerLine)
                }
                table = existing
            case .tableArray(let elements, _) where !isLast:
                table = elements[elements.count - 1]
            default:
                throw fail("'\(shown)' is already a value, not a table", line: headerLine)
            }
        }
        return table
    }

    private mutating func keyValue(into table: TOMLTable) throws {
        let keyLine = line
        let path = try key()
        skipSpaces()
        guard take("=") else { throw fail("expected '=' after the key '\(path.joined(separator: "."))'") }
        skipSpaces()
        let value = try self.value(line: keyLine)
        try insert(value, at: path, into: table, line: keyLine)
    }

    private func insert(_ value: TOMLNode, at path: [String], into table: TOMLTable, line keyLine: Int) throws {
        var table = table
        for (index, name) in path.dropLast().enumerated() {
            let shown = path[...index].joined(separator: ".")
            switch table[name] {
            case nil:
                let created = TOMLTable(line: keyLine, origin: .dotted)
                table.set(name, .table(created))
                table = created
            case .table(let existing) where existing.origin == .dotted || existing.origin == .implicit:
                existing.origin = .dotted
                table = existing
            default:
                throw fail("'\(shown)' is already defined and cannot take dotted keys", line: keyLine)
            }
        }
        let name = path[path.count - 1]
        if let existing = table[name] {
            throw fail("duplicate key '\(path.joined(separator: "."))' (first set on line \(existing.line))", line: keyLine)
        }
        table.set(name, value)
    }

    /// A bare, quoted or dotted key, as its parts.
    private mutating func key() throws -> [String] {
        var parts: [String] = []
        while true {
            skipSpaces()
            guard let byte = peek() else { throw fail("expected a key") }
            if byte == UInt8(ascii: "\"") {
                position += 1
                parts.append(try basicString(multiLine: false))
            } else if byte == UInt8(ascii: "'") {
                position += 1
                parts.append(try literalString(multiLine: false))
            } else {
                let start = position
                while let next = peek(), Self.isBareKey(next) { position += 1 }
                guard position > start else { throw fail("expected a key, found '\(Self.describe(byte))'") }
                parts.append(String(decoding: bytes[start..<position], as: UTF8.self))
            }
            skipSpaces()
            guard take(".") else { return parts }
        }
    }

    // MARK: Values

    private mutating func value(line valueLine: Int) throws -> TOMLNode {
        guard let byte = peek(), byte != UInt8(ascii: "\n"), byte != UInt8(ascii: "\r"), byte != UInt8(ascii: "#") else {
            throw fail("expected a value after '='")
        }
        switch byte {
        case UInt8(ascii: "\""):
            if starts(with: "\"\"\"") {
                position += 3
                return .string(try basicString(multiLine: true), line: valueLine)
            }
            position += 1
            return .string(try basicString(multiLine: false), line: valueLine)
        case UInt8(ascii: "'"):
            if starts(with: "'''") {
                position += 3
                return .string(try literalString(multiLine: true), line: valueLine)
            }
            position += 1
            return .string(try literalString(multiLine: false), line: valueLine)
        case UInt8(ascii: "["):
            return try array(line: valueLine)
        case UInt8(ascii: "{"):
            return try inlineTable(line: valueLine)
        default:
            return .literal(try scalar(), line: valueLine)
        }
    }

    private mutating func array(line arrayLine: Int) throws -> TOMLNode {
        position += 1
        var items: [TOMLNode] = []
        while true {
            try skipSpacesNewlinesAndComments()
            guard let byte = peek() else { throw fail("the array opened on line \(arrayLine) is not closed", line: arrayLine) }
            if byte == UInt8(ascii: "]") { position += 1; break }
            items.append(try value(line: line))
            try skipSpacesNewlinesAndComments()
            guard peek() != nil else { throw fail("the array opened on line \(arrayLine) is not closed", line: arrayLine) }
            if take(",") { continue }
            guard take("]") else { throw fail("expected ',' or ']' in the array") }
            break
        }
        return .array(items, line: arrayLine)
    }

    private mutating func inlineTable(line tableLine: Int) throws -> TOMLNode {
        position += 1
        let table = TOMLTable(line: tableLine, origin: .inline)
        try skipSpacesNewlinesAndComments()
        if take("}") { return .table(table) }
        while true {
            try skipSpacesNewlinesAndComments()
            if take("}") { break }  // a trailing comma (TOML 1.1)
            let keyLine = line
            let path = try key()
            skipSpaces()
            guard take("=") else { throw fail("expected '=' after the key '\(path.joined(separator: "."))'") }
            skipSpaces()
            try insert(try value(line: keyLine), at: path, into: table, line: keyLine)
            try skipSpacesNewlinesAndComments()
            guard peek() != nil else { throw fail("the inline table opened on line \(tableLine) is not closed", line: tableLine) }
            if take(",") { continue }
            guard take("}") else { throw fail("expected ',' or '}' in the inline table") }
            break
        }
        return .table(table)
    }

    /// Booleans, numbers and date-times, turned into the YAML text with the same meaning.
    private mutating func scalar() throws -> String {
        let start = position
        while let byte = peek(), Self.isScalar(byte) { position += 1 }
        // "1979-05-27 07:32:00": a date, one space, then a time belongs to the same value.
        if position - start == 10, peek() == UInt8(ascii: " "), position + 3 < bytes.count,
           Self.isDigit(bytes[position + 1]), Self.isDigit(bytes[position + 2]), bytes[position + 3] == UInt8(ascii: ":") {
            position += 1
            while let byte = peek(), Self.isScalar(byte) { position += 1 }
        }
        let text = String(decoding: bytes[start..<position], as: UTF8.self)
        guard !text.isEmpty else { throw fail("expected a value, found '\(Self.describe(bytes[start]))'") }
        if text == "true" || text == "false" { return text }
        if let float = Self.special[text] { return float }
        if text.wholeMatch(of: Self.dateTime) != nil { return text }
        if text.wholeMatch(of: Self.localTime) != nil { return "\"\(text)\"" }  // YAML 1.1 would read 07:32 as a number
        if text.wholeMatch(of: Self.decimal) != nil {
            let digits = text.replacingOccurrences(of: "_", with: "")
            return digits.hasPrefix("+") ? String(digits.dropFirst()) : digits
        }
        for (prefix, radix) in [("0x", 16), ("0o", 8), ("0b", 2)] where text.hasPrefix(prefix) {
            let digits = text.dropFirst(2)
            guard !digits.hasPrefix("_"), !digits.hasSuffix("_"), !digits.contains("__"),
                  let value = UInt64(digits.replacingOccurrences(of: "_", with: ""), radix: radix) else { break }
            return String(value)
        }
        if text.wholeMatch(of: Self.float) != nil {
            let digits = text.replacingOccurrences(of: "_", with: "")
            return digits.hasPrefix("+") ? String(digits.dropFirst()) : digits
        }
        throw fail("'\(text)' is not a valid value (strings need quotes)")
    }

    private static let special = ["inf": ".inf", "+inf": ".inf", "-inf": "-.inf", "nan": ".nan", "+nan": ".nan",
                                  "-nan": ".nan"]
    private nonisolated(unsafe) static let dateTime =
        /\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])([Tt ]([01]\d|2[0-3]):[0-5]\d(:[0-5]\d(\.\d+)?)?([Zz]|[+-]([01]\d|2[0-3]):[0-5]\d)?)?/
    private nonisolated(unsafe) static let localTime = /([01]\d|2[0-3]):[0-5]\d(:[0-5]\d(\.\d+)?)?/
    private nonisolated(unsafe) static let decimal = /[+-]?(0|[1-9](_?\d)*)/
    private nonisolated(unsafe) static let float = /[+-]?(0|[1-9](_?\d)*)((\.\d(_?\d)*)([eE][+-]?\d(_?\d)*)?|[eE][+-]?\d(_?\d)*)/

    private mutating func basicString(multiLine: Bool) throws -> String {
        let startLine = line
        if multiLine { skipFirstNewline() }
        var output: [UInt8] = []
        while true {
            guard let byte = peek() else { throw fail("the string that starts here is not closed", line: startLine) }
            if byte == UInt8(ascii: "\"") {
                if !multiLine { position += 1; break }
                if starts(with: "\"\"\"") {
                    // Up to two quotes right before the closing ones belong to the string.
                    var extra = 0
                    while extra < 2, position + 3 + extra < bytes.count, bytes[position + 3 + extra] == UInt8(ascii: "\"") {
                        extra += 1
                    }
                    output += Array(repeating: UInt8(ascii: "\""), count: extra)
                    position += 3 + extra
                    break
                }
                output.append(byte)
                position += 1
            } else if byte == UInt8(ascii: "\\") {
                position += 1
                if multiLine, lineEndingBackslash() { continue }
                output += try escape()
            } else if byte == UInt8(ascii: "\n") || (byte == UInt8(ascii: "\r") && peek(1) == UInt8(ascii: "\n")) {
                guard multiLine else { throw fail("a string in double quotes cannot span lines (use \"\"\")") }
                if byte == UInt8(ascii: "\r") { position += 1 }
                position += 1
                line += 1
                output.append(UInt8(ascii: "\n"))
            } else {
                output.append(byte)
                position += 1
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// After a `\` in a multi-line basic string: if only spaces follow on the line, the line
    /// break and all whitespace after it are trimmed.
    private mutating func lineEndingBackslash() -> Bool {
        var cursor = position
        while cursor < bytes.count, bytes[cursor] == UInt8(ascii: " ") || bytes[cursor] == UInt8(ascii: "\t") { cursor += 1 }
        guard cursor < bytes.count, bytes[cursor] == UInt8(ascii: "\n") || bytes[cursor] == UInt8(ascii: "\r") else {
            return false
        }
        position = cursor
        while let byte = peek(), [UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r")].contains(byte) {
            if byte == UInt8(ascii: "\n") { line += 1 }
            position += 1
        }
        return true
    }

    private mutating func escape() throws -> [UInt8] {
        guard let byte = peek() else { throw fail("a string ends in the middle of an escape") }
        position += 1
        let simple: [UInt8: UInt8] = [
            UInt8(ascii: "b"): 8, UInt8(ascii: "t"): 9, UInt8(ascii: "n"): 10, UInt8(ascii: "f"): 12, UInt8(ascii: "r"): 13,
            UInt8(ascii: "e"): 27, UInt8(ascii: "\""): 34, UInt8(ascii: "\\"): 92,
        ]
        if let value = simple[byte] { return [value] }
        let digits: Int
        switch byte {
        case UInt8(ascii: "u"): digits = 4
        case UInt8(ascii: "U"): digits = 8
        case UInt8(ascii: "x"): digits = 2
        default: throw fail("'\\\(Self.describe(byte))' is not a valid escape in a string")
        }
        guard position + digits <= bytes.count,
              let code = UInt32(String(decoding: bytes[position..<(position + digits)], as: UTF8.self), radix: 16),
              let scalar = Unicode.Scalar(code) else {
            throw fail("'\\\(Self.describe(byte))' needs \(digits) hexadecimal digits naming a Unicode character")
        }
        position += digits
        return Array(String(Character(scalar)).utf8)
    }

    private mutating func literalString(multiLine: Bool) throws -> String {
        let startLine = line
        if multiLine { skipFirstNewline() }
        let start = position
        var output: [UInt8] = []
        while true {
            guard let byte = peek() else { throw fail("the string that starts here is not closed", line: startLine) }
            if byte == UInt8(ascii: "'") {
                if !multiLine { output += bytes[start..<position]; position += 1; break }
                if starts(with: "'''") {
                    var extra = 0
                    while extra < 2, position + 3 + extra < bytes.count, bytes[position + 3 + extra] == UInt8(ascii: "'") {
                        extra += 1
                    }
                    output += bytes[start..<(position + extra)]
                    position += 3 + extra
                    break
                }
            } else if byte == UInt8(ascii: "\n") {
                guard multiLine else { throw fail("a string in single quotes cannot span lines (use ''')") }
                line += 1
            }
            position += 1
        }
        return String(decoding: output, as: UTF8.self).replacingOccurrences(of: "\r\n", with: "\n")
    }

    private mutating func skipFirstNewline() {
        if take("\n") { line += 1 } else if starts(with: "\r\n") { position += 2; line += 1 }
    }

    // MARK: Scanning

    private func peek(_ offset: Int = 0) -> UInt8? {
        position + offset < bytes.count ? bytes[position + offset] : nil
    }

    private func starts(with text: StaticString) -> Bool {
        let count = text.utf8CodeUnitCount
        guard position + count <= bytes.count else { return false }
        for index in 0..<count where bytes[position + index] != text.utf8Start[index] { return false }
        return true
    }

    private mutating func take(_ character: Unicode.Scalar) -> Bool {
        guard peek() == UInt8(character.value) else { return false }
        position += 1
        return true
    }

    private mutating func skipSpaces() {
        while let byte = peek(), byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") { position += 1 }
    }

    private mutating func skipComment() {
        while let byte = peek(), byte != UInt8(ascii: "\n") { position += 1 }
    }

    private mutating func skipSpacesNewlinesAndComments() throws {
        while let byte = peek() {
            switch byte {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"): position += 1
            case UInt8(ascii: "\n"): position += 1; line += 1
            case UInt8(ascii: "#"): skipComment()
            default: return
            }
        }
    }

    /// Spaces, an optional comment, then a line break or the end of the text.
    private mutating func endOfLine() throws {
        skipSpaces()
        if peek() == UInt8(ascii: "#") { skipComment() }
        if take("\r") {}
        guard let byte = peek() else { return }
        guard byte == UInt8(ascii: "\n") else {
            throw fail("unexpected '\(Self.describe(byte))' after a value (one key = value per line)")
        }
        position += 1
        line += 1
    }

    private func fail(_ message: String, line: Int? = nil) -> Failure {
        Failure(line: line ?? self.line, message: message)
    }

    private static func isBareKey(_ byte: UInt8) -> Bool {
        isDigit(byte) || (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "z"))
            || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
    }

    private static func isScalar(_ byte: UInt8) -> Bool {
        isBareKey(byte) || byte == UInt8(ascii: "+") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: ":")
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    private static func describe(_ byte: UInt8) -> String {
        byte >= 0x20 && byte < 0x7F ? String(UnicodeScalar(byte)) : String(format: "\\x%02X", byte)
    }
}

// MARK: - Writing YAML with keys on their TOML lines

/// Top-level keys are block keys at column 0; everything below them is written in flow style
/// (`{ key: value, }`, `[ a, b, ]`), which may break lines anywhere, so each nested key can be
/// moved down to its TOML line by inserting line breaks.
private struct LineKeepingYAMLWriter {
    private var lines: [String] = [""]

    var text: String { lines.joined(separator: "\n") + "\n" }

    mutating func write(_ root: TOMLTable) {
        for (key, node) in root.entries {
            startBlockKey(at: node.line)
            append(Self.key(key) + ":")
            switch node {
            case .string, .literal: append(" ")
            default: break
            }
            value(node, inFlow: false)
        }
    }

    private mutating func value(_ node: TOMLNode, inFlow: Bool) {
        switch node {
        case .string(let text, _):
            append(Self.quoted(text))
        case .literal(let text, _):
            append(text)
        case .table(let table):
            if !inFlow { append(" ") }
            mapping(table)
        case .array(let items, _):
            if !inFlow { append(" ") }
            append("[")
            for item in items {
                moveDown(to: item.line)
                value(item, inFlow: true)
                append(", ")
            }
            closeFlow("]", empty: items.isEmpty)
        case .tableArray(let tables, _):
            if !inFlow { append(" ") }
            append("[")
            for table in tables {
                moveDown(to: table.line)
                mapping(table)
                append(", ")
            }
            closeFlow("]", empty: tables.isEmpty)
        }
    }

    private mutating func mapping(_ table: TOMLTable) {
        append("{")
        let entries = table.entries
        for (key, node) in entries {
            moveDown(to: node.line)
            append(Self.key(key) + ": ")
            value(node, inFlow: true)
            append(", ")
        }
        closeFlow("}", empty: entries.isEmpty)
    }

    private mutating func closeFlow(_ bracket: String, empty: Bool) {
        if !empty { lines[lines.count - 1] = String(lines[lines.count - 1].dropLast(2)) }  // the last ", "
        append(bracket)
    }

    /// A top-level key starts a line of its own: its TOML line when that is still ahead.
    private mutating func startBlockKey(at line: Int) {
        if lines.count == 1 && lines[0].isEmpty && line <= 1 { return }
        repeat { lines.append("") } while lines.count < line
    }

    /// Inside flow collections: break lines (indented) until `line`, or stay on this one.
    private mutating func moveDown(to line: Int) {
        guard line > lines.count else {
            if let last = lines[lines.count - 1].last, last != "{" && last != "[" && last != " " { append(" ") }
            return
        }
        while lines.count < line { lines.append("") }
        lines[lines.count - 1] = "  "
    }

    private mutating func append(_ text: String) { lines[lines.count - 1] += text }

    private static func key(_ key: String) -> String {
        let bare = !key.isEmpty && key.utf8.allSatisfy {
            ($0 | 0x20 >= UInt8(ascii: "a") && $0 | 0x20 <= UInt8(ascii: "z")) || $0 == UInt8(ascii: "_")
                || $0 == UInt8(ascii: "-") || ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9"))
        }
        let reserved: Set<String> = ["true", "false", "yes", "no", "on", "off", "y", "n", "null", "~"]
        let startsLikeNumber = key.first.map { $0.isNumber || $0 == "-" } ?? true
        return bare && !startsLikeNumber && !reserved.contains(key.lowercased()) ? key : quoted(key)
    }

    /// A YAML double-quoted scalar on one line (see `YAMLScalar`).
    static func quoted(_ text: String) -> String { YAMLScalar.quoted(text) }
}
