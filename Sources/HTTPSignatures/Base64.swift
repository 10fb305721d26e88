/// Base64 decoding over UTF-8 bytes. Foundation's `Data(base64Encoded:)` walks the text as
/// UTF-16 on Linux and cost more than an RSA verification; signatures decode on every request.
enum Base64 {
    private static let table: [UInt8] = {
        var table = [UInt8](repeating: 0xff, count: 256)
        for (index, byte) in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8.enumerated() {
            table[Int(byte)] = UInt8(index)
        }
        return table
    }()

    /// Standard alphabet; padding optional; nil on any other character.
    static func decode<Bytes: Collection>(_ text: Bytes) -> [UInt8]? where Bytes.Element == UInt8 {
        var output: [UInt8] = []
        output.reserveCapacity(text.count * 3 / 4)
        var accumulator: UInt32 = 0
        var bits = 0
        var padding = 0
        for byte in text {
            if byte == UInt8(ascii: "=") { padding += 1; continue }
            guard padding == 0 else { return nil }  // data after padding
            let value = table[Int(byte)]
            guard value != 0xff else { return nil }
            accumulator = accumulator << 6 | UInt32(value)
            bits += 6
            if bits >= 8 {
                bits -= 8
                output.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
            }
        }
        guard padding <= 2, bits < 6 else { return nil }
        return output
    }

    static func decode(_ text: String) -> [UInt8]? { decode(text.utf8) }
}

extension ArraySlice<UInt8> {
    /// Without leading and trailing spaces and tabs (HTTP's optional whitespace).
    func trimmingSpaces() -> ArraySlice<UInt8> {
        var slice = self
        while let first = slice.first, first == 32 || first == 9 { slice = slice.dropFirst() }
        while let last = slice.last, last == 32 || last == 9 { slice = slice.dropLast() }
        return slice
    }
}
