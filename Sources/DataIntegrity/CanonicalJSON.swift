/// A JSON value as RFC 8785 (JCS) sees it, and the canonical form of one.
///
/// Our own code: no library in the package mirror does JCS (nor base58), and what it takes is
/// small — a strict parser (I-JSON, RFC 7493: no duplicate names, no lone surrogates, numbers
/// that are finite doubles) and a serializer that sorts names by UTF-16 code units and writes
/// numbers as ECMAScript does. It is checked against RFC 8785's published examples and number
/// table and the JCS reference implementation's test data (`Tests/DataIntegrityTests/Vectors`).
///
/// ```swift
/// let value = try CanonicalJSON.parse(Array(#"{"b":2,"a":1.50}"#.utf8))
/// String(decoding: value.canonical(), as: UTF8.self)   // {"a":1.5,"b":2}
/// ```
public indirect enum CanonicalJSON: Equatable, Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([CanonicalJSON])
    case object([String: CanonicalJSON])

    public subscript(key: String) -> CanonicalJSON? {
        if case .object(let members) = self { return members[key] }
        return nil
    }

    public var string: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    public var members: [String: CanonicalJSON]? {
        if case .object(let members) = self { return members }
        return nil
    }

    public var elements: [CanonicalJSON]? {
        if case .array(let elements) = self { return elements }
        return nil
    }

    // MARK: parsing

    public struct ParseError: Error, Equatable, CustomStringConvertible {
        public let offset: Int
        public let reason: String
        public var description: String { "JSON at byte \(offset): \(reason)" }

        public init(offset: Int, reason: String) { (self.offset, self.reason) = (offset, reason) }
    }

    /// Parses `bytes` as one JSON value, refusing what I-JSON refuses and nesting deeper than
    /// `maximumDepth`.
    public static func parse(_ bytes: [UInt8], maximumDepth: Int = 64) throws -> CanonicalJSON {
        var parser = Parser(bytes: bytes, maximumDepth: maximumDepth)
        parser.skipSpace()
        let value = try parser.value(depth: 0)
        parser.skipSpace()
        guard parser.index == bytes.count else { throw parser.error("text after the value") }
        return value
    }

    private struct Parser {
        let bytes: [UInt8]
        let maximumDepth: Int
        var index = 0

        init(bytes: [UInt8], maximumDepth: Int) { (self.bytes, self.maximumDepth) = (bytes, maximumDepth) }

        func error(_ reason: String) -> ParseError { ParseError(offset: index, reason: reason) }

        mutating func skipSpace() {
            while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
        }

        mutating func literal(_ word: String, _ value: CanonicalJSON) throws -> CanonicalJSON {
            let expected = Array(word.utf8)
            guard bytes.count - index >= expected.count, Array(bytes[index..<index + expected.count]) == expected else {
                throw error("not a JSON value")
            }
            index += expected.count
            return value
        }

        mutating func value(depth: Int) throws -> CanonicalJSON {
            guard index < bytes.count else { throw error("unexpected end") }
            switch bytes[index] {
            case UInt8(ascii: "{"):
                guard depth < maximumDepth else { throw error("nested deeper than \(maximumDepth)") }
                index += 1
                var members: [String: CanonicalJSON] = [:]
                skipSpace()
                if index < bytes.count, bytes[index] == UInt8(ascii: "}") { index += 1; return .object(members) }
                while true {
                    skipSpace()
                    guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw error("expected a member name") }
                    let name = try string()
                    skipSpace()
                    guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw error("expected ':'") }
                    index += 1
                    skipSpace()
                    let member = try value(depth: depth + 1)
                    // I-JSON: a repeated name means two readers may see two documents.
                    guard members.updateValue(member, forKey: name) == nil else { throw error("the name \"\(name)\" is repeated") }
                    skipSpace()
                    guard index < bytes.count else { throw error("unexpected end") }
                    if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
                    guard bytes[index] == UInt8(ascii: "}") else { throw error("expected ',' or '}'") }
                    index += 1
                    return .object(members)
                }
            case UInt8(ascii: "["):
                guard depth < maximumDepth else { throw error("nested deeper than \(maximumDepth)") }
                index += 1
                var elements: [CanonicalJSON] = []
                skipSpace()
                if index < bytes.count, bytes[index] == UInt8(ascii: "]") { index += 1; return .array(elements) }
                while true {
                    skipSpace()
                    elements.append(try value(depth: depth + 1))
                    skipSpace()
                    guard index < bytes.count else { throw error("unexpected end") }
                    if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
                    guard bytes[index] == UInt8(ascii: "]") else { throw error("expected ',' or ']'") }
                    index += 1
                    return .array(elements)
                }
            case UInt8(ascii: "\""): return .string(try string())
            case UInt8(ascii: "t"): return try literal("true", .bool(true))
            case UInt8(ascii: "f"): return try literal("false", .bool(false))
            case UInt8(ascii: "n"): return try literal("null", .null)
            default: return .number(try number())
            }
        }

        /// RFC 8259 §6's grammar, read by Swift's correctly rounding `Double(_:)`; a number too
        /// large for a double is refused (RFC 8785 §3.2.2.3).
        mutating func number() throws -> Double {
            let start = index
            func digits() -> Int {
                let first = index
                while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 { index += 1 }
                return index - first
            }
            if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 else { throw error("not a JSON value") }
            if bytes[index] == 0x30 { index += 1 } else { _ = digits() }
            if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
                index += 1
                guard digits() > 0 else { throw error("a fraction needs digits") }
            }
            if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
                index += 1
                if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
                guard digits() > 0 else { throw error("an exponent needs digits") }
            }
            guard let value = Double(String(decoding: bytes[start..<index], as: UTF8.self)), value.isFinite else {
                throw ParseError(offset: start, reason: "a number outside the range of a double")
            }
            return value
        }

        /// A string, its escapes decoded; invalid UTF-8, raw control characters and lone
        /// surrogates are refused (RFC 8785 §3.2.2.2).
        mutating func string() throws -> String {
            index += 1  // the opening quote
            var text: [UInt8] = []
            while true {
                guard index < bytes.count else { throw error("unterminated string") }
                let byte = bytes[index]
                switch byte {
                case UInt8(ascii: "\""):
                    index += 1
                    guard let string = String(validating: text, as: UTF8.self) else { throw error("a string that is not UTF-8") }
                    return string
                case UInt8(ascii: "\\"):
                    index += 1
                    guard index < bytes.count else { throw error("unterminated string") }
                    let escape = bytes[index]
                    index += 1
                    switch escape {
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): text.append(escape)
                    case UInt8(ascii: "b"): text.append(0x08)
                    case UInt8(ascii: "f"): text.append(0x0C)
                    case UInt8(ascii: "n"): text.append(0x0A)
                    case UInt8(ascii: "r"): text.append(0x0D)
                    case UInt8(ascii: "t"): text.append(0x09)
                    case UInt8(ascii: "u"):
                        var scalar = try hex4()
                        if (0xD800...0xDBFF).contains(scalar) {
                            guard bytes.count - index >= 6, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
                            else { throw error("a lone surrogate") }
                            index += 2
                            let low = try hex4()
                            guard (0xDC00...0xDFFF).contains(low) else { throw error("a lone surrogate") }
                            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                        } else if (0xDC00...0xDFFF).contains(scalar) {
                            throw error("a lone surrogate")
                        }
                        text.append(contentsOf: Array(String(Character(Unicode.Scalar(scalar)!)).utf8))
                    default: throw error("an unknown escape")
                    }
                default:
                    guard byte >= 0x20 else { throw error("a control character in a string") }
                    text.append(byte)
                    index += 1
                }
            }
        }

        mutating func hex4() throws -> UInt32 {
            guard bytes.count - index >= 4 else { throw error("a short \\u escape") }
            var value: UInt32 = 0
            for _ in 0..<4 {
                let byte = bytes[index]
                let digit: UInt8
                switch byte {
                case 0x30...0x39: digit = byte - 0x30
                case 0x41...0x46: digit = byte - 0x41 + 10
                case 0x61...0x66: digit = byte - 0x61 + 10
                default: throw error("a bad \\u escape")
                }
                value = value << 4 | UInt32(digit)
                index += 1
            }
            return value
        }
    }

    // MARK: canonical form

    /// RFC 8785: no whitespace, names sorted by their UTF-16 code units, strings and numbers
    /// as ECMAScript's `JSON.stringify` writes them; UTF-8.
    public func canonical() -> [UInt8] {
        var output: [UInt8] = []
        write(to: &output)
        return output
    }

    func write(to output: inout [UInt8]) {
        switch self {
        case .null: output.append(contentsOf: Array("null".utf8))
        case .bool(let value): output.append(contentsOf: Array((value ? "true" : "false").utf8))
        case .number(let value): output.append(contentsOf: Array(Self.ecmaScript(value).utf8))
        case .string(let value): Self.write(string: value, to: &output)
        case .array(let elements):
            output.append(UInt8(ascii: "["))
            for (position, element) in elements.enumerated() {
                if position > 0 { output.append(UInt8(ascii: ",")) }
                element.write(to: &output)
            }
            output.append(UInt8(ascii: "]"))
        case .object(let members):
            output.append(UInt8(ascii: "{"))
            let names = members.keys.sorted { $0.utf16.lexicographicallyPrecedes($1.utf16) }
            for (position, name) in names.enumerated() {
                if position > 0 { output.append(UInt8(ascii: ",")) }
                Self.write(string: name, to: &output)
                output.append(UInt8(ascii: ":"))
                members[name]!.write(to: &output)
            }
            output.append(UInt8(ascii: "}"))
        }
    }

    static func write(string: String, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        for byte in string.utf8 {
            switch byte {
            case 0x08: output.append(contentsOf: [0x5C, UInt8(ascii: "b")])
            case 0x09: output.append(contentsOf: [0x5C, UInt8(ascii: "t")])
            case 0x0A: output.append(contentsOf: [0x5C, UInt8(ascii: "n")])
            case 0x0C: output.append(contentsOf: [0x5C, UInt8(ascii: "f")])
            case 0x0D: output.append(contentsOf: [0x5C, UInt8(ascii: "r")])
            case 0x22: output.append(contentsOf: [0x5C, 0x22])
            case 0x5C: output.append(contentsOf: [0x5C, 0x5C])
            case 0x00..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                output.append(contentsOf: [0x5C, UInt8(ascii: "u"), 0x30, 0x30, hex[Int(byte >> 4)], hex[Int(byte & 0xF)]])
            default: output.append(byte)  // UTF-8 as it is: every other byte of a scalar is ≥ 0x80
            }
        }
        output.append(UInt8(ascii: "\""))
    }

    /// ECMAScript's Number::toString (ECMA-262 §7.1.12.1, with Note 2: the shortest digits that
    /// read back as the same double, the closest of those when several are). Swift's
    /// `description` finds those digits (shortest, closest); only the layout is ECMAScript's.
    public static func ecmaScript(_ value: Double) -> String {
        precondition(value.isFinite, "JSON has no NaN or infinities")
        if value == 0 { return "0" }  // and -0
        if value < 0 { return "-" + ecmaScript(-value) }
        // The digits and where the point goes: value = 0.d1d2…dk × 10^n.
        let text = value.description
        let parts = text.split(separator: "e", maxSplits: 1)
        let mantissa = parts[0]
        let exponent = parts.count > 1 ? Int(parts[1])! : 0
        let pieces = mantissa.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        var digits = Array(pieces[0].utf8) + (pieces.count > 1 ? Array(pieces[1].utf8) : [])
        var n = pieces[0].utf8.count + exponent
        while digits.first == UInt8(ascii: "0") { digits.removeFirst(); n -= 1 }
        while digits.last == UInt8(ascii: "0") { digits.removeLast() }
        let k = digits.count
        let all = String(decoding: digits, as: UTF8.self)
        if k <= n && n <= 21 { return all + String(repeating: "0", count: n - k) }
        if 0 < n && n <= 21 { return String(all.prefix(n)) + "." + String(all.dropFirst(n)) }
        if -6 < n && n <= 0 { return "0." + String(repeating: "0", count: -n) + all }
        let e = n - 1
        let sign = e < 0 ? "-" : "+"
        let first = String(all.prefix(1))
        return (k == 1 ? first : first + "." + String(all.dropFirst())) + "e" + sign + String(abs(e))
    }
}
