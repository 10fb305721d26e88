/// Byte-level helpers for the ASCII parts of HTTP headers, used where a verification would
/// otherwise build strings for every request.
enum ASCII {
    static func lowercased(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
    }

    /// Whether `bytes` equal `text`, ignoring the case of ASCII letters.
    /// `text` is a literal, so its bytes are at hand without a copy.
    static func equalIgnoringCase(_ bytes: Slice<UnsafeBufferPointer<UInt8>>, _ text: StaticString) -> Bool {
        guard bytes.count == text.utf8CodeUnitCount else { return false }
        let expected = text.utf8Start
        for (offset, byte) in bytes.enumerated() where lowercased(byte) != lowercased(expected[offset]) { return false }
        return true
    }

    /// The range of `bytes` without leading and trailing spaces and tabs (HTTP's optional whitespace).
    static func trimmed(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> Range<Int> {
        var start = bytes.startIndex, end = bytes.endIndex
        while start < end, bytes[start] == 32 || bytes[start] == 9 { start += 1 }
        while end > start, bytes[end - 1] == 32 || bytes[end - 1] == 9 { end -= 1 }
        return start..<end
    }

    /// Whether any UTF-8 byte of `text` matches: over the contiguous bytes, which is several
    /// times faster than walking `String.UTF8View` one index at a time.
    static func containsByte(_ text: String, where predicate: (UInt8) -> Bool) -> Bool {
        text.utf8.withContiguousStorageIfAvailable { $0.contains(where: predicate) } ?? text.utf8.contains(where: predicate)
    }
}
