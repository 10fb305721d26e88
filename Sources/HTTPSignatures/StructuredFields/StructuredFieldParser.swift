import Foundation

/// Parses RFC 8941 dictionaries and inner lists, following the algorithms of §4.2 step by step.
/// Input is bytes: structured fields are ASCII, and anything else is an error. The parser reads
/// the field's own UTF-8 in place (three fields per RFC 9421 check: no copies of them).
public struct StructuredFieldParser {
    /// RFC 8941's minimums (§3.1.1, §3.1.2, §3.2), and the most this parser takes: a header of
    /// made-up members or parameters is refused as soon as it passes them.
    public static let maximumMembers = 1024, maximumItems = 256, maximumParameters = 256
    private let input: UnsafeBufferPointer<UInt8>
    private var position = 0

    private init(_ input: UnsafeBufferPointer<UInt8>) {
        self.input = input
    }

    private static func parsing<R>(_ text: String, _ parse: (inout StructuredFieldParser) throws -> R) rethrows -> R {
        var text = text
        return try text.withUTF8 { bytes in
            var parser = StructuredFieldParser(bytes)
            return try parse(&parser)
        }
    }

    /// §4.2.2 Parsing a Dictionary (the whole field value). `maximumMembers` lets a caller that
    /// takes fewer stop reading early (RFC 9421's labels: a few, not a header's worth).
    public static func dictionary(_ text: String, maximumMembers: Int = maximumMembers) throws -> StructuredField.Dictionary {
        try parsing(text) { try $0.parseDictionary(maximumMembers: maximumMembers) }
    }

    /// An inner list alone, e.g. a Signature-Input member as written in a test.
    public static func innerList(_ text: String) throws -> StructuredField.InnerList {
        try parsing(text) { parser in
            parser.skipSpaces()
            let list = try parser.parseInnerList()
            parser.skipSpaces()
            guard parser.atEnd else { throw parser.error("unexpected characters after the list") }
            return list
        }
    }

    // MARK: - §4.2 algorithms

    private mutating func parseDictionary(maximumMembers: Int) throws -> StructuredField.Dictionary {
        skipSpaces()
        var members: StructuredField.Dictionary = []
        while !atEnd {
            let key = try parseKey()
            let member: StructuredField.Member
            if peek == UInt8(ascii: "=") {
                position += 1
                member = try parseItemOrInnerList()
            } else {
                member = .item(StructuredField.ParameterizedItem(.boolean(true), parameters: try parseParameters()))
            }
            members.append((key, member))
            guard members.count <= maximumMembers else { throw error("more than \(maximumMembers) members") }
            skipOWS()
            if atEnd { return Self.resolvingRepeats(members, keepFirstPosition: true) }
            guard peek == UInt8(ascii: ",") else { throw error("expected ',' between members") }
            position += 1
            skipOWS()
            if atEnd { throw error("trailing comma") }
        }
        return members
    }

    private mutating func parseItemOrInnerList() throws -> StructuredField.Member {
        if peek == UInt8(ascii: "(") { return .innerList(try parseInnerList()) }
        let item = try parseBareItem()
        return .item(StructuredField.ParameterizedItem(item, parameters: try parseParameters()))
    }

    private mutating func parseInnerList() throws -> StructuredField.InnerList {
        guard peek == UInt8(ascii: "(") else { throw error("expected '('") }
        position += 1
        var items: [StructuredField.ParameterizedItem] = []
        items.reserveCapacity(8)  // a signature covers a handful of components: one allocation
        while !atEnd {
            skipSpaces()
            if peek == UInt8(ascii: ")") {
                position += 1
                return StructuredField.InnerList(items, parameters: try parseParameters())
            }
            let item = try parseBareItem()
            items.append(StructuredField.ParameterizedItem(item, parameters: try parseParameters()))
            guard items.count <= Self.maximumItems else { throw error("more than \(Self.maximumItems) items in an inner list") }
            guard let next = peek, next == UInt8(ascii: " ") || next == UInt8(ascii: ")") else {
                throw error("expected ' ' or ')' in inner list")
            }
        }
        throw error("inner list is not closed")
    }

    private mutating func parseParameters() throws -> StructuredField.Parameters {
        var parameters: StructuredField.Parameters = []
        while peek == UInt8(ascii: ";") {
            if parameters.isEmpty { parameters.reserveCapacity(4) }  // created, keyid, alg, …: one allocation
            position += 1
            skipSpaces()
            let key = try parseKey()
            var value = StructuredField.Item.boolean(true)
            if peek == UInt8(ascii: "=") {
                position += 1
                value = try parseBareItem()
            }
            parameters.append((key, value))
            guard parameters.count <= Self.maximumParameters else { throw error("more than \(Self.maximumParameters) parameters") }
        }
        return Self.resolvingRepeats(parameters, keepFirstPosition: true)
    }

    /// A repeated key's last value wins, in the key's first position (RFC 8941 §4.2.2: the value
    /// is overwritten; swift-http-structured-headers reads it so too). Resolved once the list is read, through dictionaries when keys
    /// repeat or are many: looking each key up among those before it made a 42 KB header of
    /// 1,024 members cost 12 ms to parse (`signature-bench`), before any key is fetched.
    private static func resolvingRepeats<Value>(_ entries: [(key: String, value: Value)],
                                                keepFirstPosition: Bool) -> [(key: String, value: Value)] {
        // The usual few keys, none repeated: checked pairwise, nothing allocated.
        if entries.count <= 8, !entries.indices.contains(where: { index in entries[..<index].contains { $0.key == entries[index].key } }) {
            return entries
        }
        var first: [String: Int] = [:], last: [String: Int] = [:]
        first.reserveCapacity(entries.count)
        last.reserveCapacity(entries.count)
        for (index, entry) in entries.enumerated() {
            if first[entry.key] == nil { first[entry.key] = index }
            last[entry.key] = index
        }
        if last.count == entries.count { return entries }
        return entries.indices.compactMap { index in
            let key = entries[index].key
            return (keepFirstPosition ? first[key] : last[key]) == index ? (key, entries[last[key]!].value) : nil
        }
    }

    private mutating func parseKey() throws -> String {
        guard let first = peek, isLowercaseAlpha(first) || first == UInt8(ascii: "*") else {
            throw error("a key must start with a lowercase letter or '*'")
        }
        let start = position
        while let byte = peek, isLowercaseAlpha(byte) || isDigit(byte) || Self.isKeyPunctuation(byte) { position += 1 }
        return String(decoding: input[start..<position], as: UTF8.self)
    }

    private mutating func parseBareItem() throws -> StructuredField.Item {
        guard let byte = peek else { throw error("expected a value") }
        switch byte {
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        case UInt8(ascii: "\""): return try parseString()
        case UInt8(ascii: ":"): return try parseByteSequence()
        case UInt8(ascii: "?"): return try parseBoolean()
        case UInt8(ascii: "*"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"):
            return parseToken()
        default: throw error("unexpected character")
        }
    }

    private mutating func parseNumber() throws -> StructuredField.Item {
        var negative = false
        if peek == UInt8(ascii: "-") { negative = true; position += 1 }
        guard let first = peek, isDigit(first) else { throw error("expected a digit") }
        // Accumulated as integers, digit by digit: the limits keep them far from overflow.
        var integer: Int64 = 0, integerDigits = 0
        var fraction: Int64 = 0, fractionDigits = 0
        var isDecimal = false
        while let byte = peek {
            if isDigit(byte) {
                if isDecimal {
                    fraction = fraction * 10 + Int64(byte - 48)
                    fractionDigits += 1
                } else {
                    integer = integer * 10 + Int64(byte - 48)
                    integerDigits += 1
                }
            } else if byte == UInt8(ascii: "."), !isDecimal {
                guard integerDigits <= 12 else { throw error("decimal has too many integer digits") }
                isDecimal = true
            } else {
                break
            }
            position += 1
            if !isDecimal && integerDigits > 15 { throw error("integer is too long") }
            if isDecimal && integerDigits + 1 + fractionDigits > 16 { throw error("decimal is too long") }
        }
        let sign: Int64 = negative ? -1 : 1
        if isDecimal {
            guard (1...3).contains(fractionDigits) else { throw error("a decimal needs one to three fractional digits") }
            let scale = [1.0, 10.0, 100.0, 1000.0][fractionDigits]
            return .decimal(Double(sign) * (Double(integer) + Double(fraction) / scale))
        }
        return .integer(sign * integer)
    }

    private mutating func parseString() throws -> StructuredField.Item {
        position += 1
        let start = position
        // Most strings have no escapes: they are taken from the input as they are.
        while let byte = peek, byte != UInt8(ascii: "\\"), byte != UInt8(ascii: "\"") {
            guard (0x20...0x7e).contains(byte) else { throw error("control or non-ASCII character in string") }
            position += 1
        }
        if peek == UInt8(ascii: "\"") {
            position += 1
            return .string(String(decoding: input[start..<(position - 1)], as: UTF8.self))
        }
        var bytes = Array(input[start..<position])
        while let byte = peek {
            position += 1
            switch byte {
            case UInt8(ascii: "\\"):
                guard let escaped = peek, escaped == UInt8(ascii: "\"") || escaped == UInt8(ascii: "\\") else {
                    throw error("bad escape in string")
                }
                bytes.append(escaped)
                position += 1
            case UInt8(ascii: "\""):
                return .string(String(decoding: bytes, as: UTF8.self))
            case 0x20...0x7e:
                bytes.append(byte)
            default:
                throw error("control or non-ASCII character in string")
            }
        }
        throw error("string is not closed")
    }

    private mutating func parseToken() -> StructuredField.Item {
        let start = position
        while let byte = peek, isTokenChar(byte) || byte == UInt8(ascii: ":") || byte == UInt8(ascii: "/") { position += 1 }
        return .token(String(decoding: input[start..<position], as: UTF8.self))
    }

    private mutating func parseByteSequence() throws -> StructuredField.Item {
        position += 1
        let start = position
        // memchr: a signature's sequence is 344 characters, scanned on every RFC 9421 check.
        guard let base = input.baseAddress, start < input.count,
              let colon = memchr(base + start, Int32(UInt8(ascii: ":")), input.count - start) else {
            position = input.count
            throw error("byte sequence is not closed")
        }
        let end = base.distance(to: colon.assumingMemoryBound(to: UInt8.self))
        position = end + 1
        // Base64.decode refuses any character outside the alphabet and any '=' but up to two at
        // the end, which is §4.2.7's check; it also tolerates missing padding, as §4.2.7 allows.
        guard let bytes = Base64.decode(UnsafeBufferPointer(rebasing: input[start..<end])) else {
            position = start  // the error names where the sequence starts
            throw error("byte sequence is not base64")
        }
        return .bytes(bytes)
    }

    private mutating func parseBoolean() throws -> StructuredField.Item {
        position += 1
        switch peek {
        case UInt8(ascii: "1"): position += 1; return .boolean(true)
        case UInt8(ascii: "0"): position += 1; return .boolean(false)
        default: throw error("a boolean is ?0 or ?1")
        }
    }

    // MARK: - bytes

    private var atEnd: Bool { position >= input.count }
    private var peek: UInt8? { position < input.count ? input[position] : nil }
    private mutating func skipSpaces() { while peek == UInt8(ascii: " ") { position += 1 } }
    private mutating func skipOWS() { while peek == UInt8(ascii: " ") || peek == UInt8(ascii: "\t") { position += 1 } }
    private func isDigit(_ byte: UInt8) -> Bool { (48...57).contains(byte) }
    private func isLowercaseAlpha(_ byte: UInt8) -> Bool { (97...122).contains(byte) }
    private func isAlphaNumeric(_ byte: UInt8) -> Bool { isDigit(byte) || (65...90).contains(byte) || isLowercaseAlpha(byte) }
    private func isTokenChar(_ byte: UInt8) -> Bool {
        if isAlphaNumeric(byte) { return true }
        switch byte {
        case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"), UInt8(ascii: "&"), UInt8(ascii: "'"),
             UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "^"), UInt8(ascii: "_"),
             UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"): return true
        default: return false
        }
    }
    private static func isKeyPunctuation(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "*")
    }

    private func error(_ message: String) -> StructuredFieldError {
        StructuredFieldError(message: "\(message) at offset \(position)")
    }
}
