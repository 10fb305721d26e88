/// A fast 64-bit FNV-1a fingerprint, used only to notice that a source or an output changed
/// between builds (not for security: nothing adversarial reaches it).
public struct ContentHash: Sendable, Hashable {
    private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

    public init() {}

    /// Reads back `hex`.
    public init?(hex: String) {
        guard hex.count == 16, let value = UInt64(hex, radix: 16) else { return nil }
        self.value = value
    }

    /// Reads back `hex` from bytes (16 lowercase or uppercase hex digits).
    package init?(hex bytes: UnsafeBufferPointer<UInt8>) {
        guard bytes.count == 16 else { return nil }
        var value: UInt64 = 0
        for byte in bytes {
            let digit: UInt8
            switch byte {
            case 0x30...0x39: digit = byte - 0x30
            case 0x61...0x66: digit = byte - 0x61 + 10
            case 0x41...0x46: digit = byte - 0x41 + 10
            default: return nil
            }
            value = value << 4 | UInt64(digit)
        }
        self.value = value
    }

    public init(_ parts: String...) {
        for part in parts { combine(part) }
    }

    public mutating func combine(_ text: String) {
        var text = text
        text.withUTF8 { combine(bytes: $0) }
        combine(byte: 0xff)  // separator, so ("ab","c") and ("a","bc") differ
    }

    /// The same as combining the texts joined by `separator`, without joining them (a build
    /// fingerprints thousands of such pairs and lists).
    public mutating func combine(_ texts: [String], separator: UInt8) {
        for (index, text) in texts.enumerated() {
            if index > 0 { combine(byte: separator) }
            var text = text
            text.withUTF8 { combine(bytes: $0) }
        }
        combine(byte: 0xff)
    }

    /// A number, by its bits: formatting it as text first was most of what fingerprinting a post's
    /// listing cost.
    public mutating func combine(_ number: Double) {
        withUnsafeBytes(of: number.bitPattern) { combine(bytes: $0.bindMemory(to: UInt8.self)) }
        combine(byte: 0xff)
    }

    public mutating func combine(bytes: UnsafeBufferPointer<UInt8>) {
        var hash = value
        for byte in bytes {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01b3
        }
        value = hash
    }

    public mutating func combine(byte: UInt8) {
        value ^= UInt64(byte)
        value &*= 0x0000_0100_0000_01b3
    }

    public mutating func combine(_ other: ContentHash) {
        withUnsafeBytes(of: other.value) { combine(bytes: $0.bindMemory(to: UInt8.self)) }
    }

    /// The 16 hex digits of `hex`, appended.
    package func appendHex(to bytes: inout [UInt8]) {
        let digits: StaticString = "0123456789abcdef"
        for shift in stride(from: 60, through: 0, by: -4) {
            bytes.append(digits.utf8Start[Int(value >> UInt64(shift) & 0xF)])
        }
    }

    /// 16 hex digits.
    public var hex: String {
        // Sixteen ASCII bytes, no `String(radix:)` and padding: every build asks for 1,000 of them.
        String(unsafeUninitializedCapacity: 16) { buffer in
            let digits: StaticString = "0123456789abcdef"
            for index in 0..<16 { buffer[index] = digits.utf8Start[Int(value >> UInt64(60 - 4 * index) & 0xF)] }
            return 16
        }
    }
}
