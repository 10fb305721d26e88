/// A set of bytes as a 256-bit mask: membership is a shift and an AND, with no hashing or
/// allocation, which is what the lexer's inner loops need.
///
///     let quotes: ByteSet = "\"'"
///     quotes.contains(UInt8(ascii: "'"))   // true
struct ByteSet: Sendable, Equatable, ExpressibleByStringLiteral {
    private var w0: UInt64 = 0, w1: UInt64 = 0, w2: UInt64 = 0, w3: UInt64 = 0

    init() {}

    /// The bytes of `characters` (ASCII in practice).
    init(_ characters: String) {
        for byte in characters.utf8 { insert(byte) }
    }

    init(stringLiteral value: String) { self.init(value) }

    init(_ range: ClosedRange<UInt8>) {
        for byte in range { insert(byte) }
    }

    @inline(__always)
    func contains(_ byte: UInt8) -> Bool {
        let bit = UInt64(1) &<< UInt64(byte & 63)
        switch byte >> 6 {
        case 0: return w0 & bit != 0
        case 1: return w1 & bit != 0
        case 2: return w2 & bit != 0
        default: return w3 & bit != 0
        }
    }

    mutating func insert(_ byte: UInt8) {
        let bit = UInt64(1) &<< UInt64(byte & 63)
        switch byte >> 6 {
        case 0: w0 |= bit
        case 1: w1 |= bit
        case 2: w2 |= bit
        default: w3 |= bit
        }
    }

    var isEmpty: Bool { w0 | w1 | w2 | w3 == 0 }

    static func + (lhs: ByteSet, rhs: ByteSet) -> ByteSet {
        var union = lhs
        union.w0 |= rhs.w0; union.w1 |= rhs.w1; union.w2 |= rhs.w2; union.w3 |= rhs.w3
        return union
    }

    static func - (lhs: ByteSet, rhs: ByteSet) -> ByteSet {
        var difference = lhs
        difference.w0 &= ~rhs.w0; difference.w1 &= ~rhs.w1; difference.w2 &= ~rhs.w2; difference.w3 &= ~rhs.w3
        return difference
    }
}

extension UInt8 {
    // Range checks for the hottest tests, cheaper than loading a lazily initialised `ByteSet`.
    @inline(__always) var isDigitByte: Bool { self &- UInt8(ascii: "0") < 10 }
    @inline(__always) var isUppercaseByte: Bool { self &- UInt8(ascii: "A") < 26 }
    /// Space, tab, line feed, vertical tab, form feed, carriage return.
    @inline(__always) var isSpaceByte: Bool { self == UInt8(ascii: " ") || self &- 9 < 5 }
}

extension ByteSet {
    static let digits = ByteSet(UInt8(ascii: "0")...UInt8(ascii: "9"))
    static let hexDigits = digits + "abcdefABCDEF"
    static let letters = ByteSet(UInt8(ascii: "a")...UInt8(ascii: "z")) + ByteSet(UInt8(ascii: "A")...UInt8(ascii: "Z"))
    static let uppercase = ByteSet(UInt8(ascii: "A")...UInt8(ascii: "Z"))
    /// Every byte of a multi-byte UTF-8 sequence: treating them as letters makes `café` and `π`
    /// identifiers without decoding, and never splits a scalar between two tokens.
    static let nonASCII = ByteSet(0x80...0xFF)
    static let asciiWord = letters + digits + "_"
    static let identifierStart = letters + "_" + nonASCII
    static let identifierContinue = asciiWord + nonASCII
    /// Space, tab, carriage return, line feed, vertical tab and form feed.
    static let whitespace: ByteSet = " \t\r\n\u{0B}\u{0C}"
    static let blank: ByteSet = " \t"
    /// Bytes after which a token counts as starting a word (`#` comments in shell, `:sym`).
    static let wordBoundary = whitespace + "([{,;=|&!"
}
