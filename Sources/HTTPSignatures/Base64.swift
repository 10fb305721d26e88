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

    /// Standard alphabet; up to two `=` of padding, optional; nil on any other character.
    static func decode(_ text: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        var length = text.count
        while length > 0, text[length - 1] == UInt8(ascii: "=") { length -= 1 }
        // Padding only where a group is short (`QQ==`, `QUI=`): never after a whole group or alone.
        guard text.count - length <= 2, length % 4 != 1, length % 4 != 0 || length == text.count else { return nil }
        return table.withUnsafeBufferPointer { table -> [UInt8]? in
            var invalid: UInt8 = 0  // any 0xff from the table: a byte outside the alphabet
            let output = [UInt8](unsafeUninitializedCapacity: length / 4 * 3 + 2) { output, written in
                var read = 0
                written = 0
                // Four characters make three bytes; the tail (2 or 3 characters) one or two.
                while read + 4 <= length {
                    let a = table[Int(text[read])], b = table[Int(text[read + 1])]
                    let c = table[Int(text[read + 2])], d = table[Int(text[read + 3])]
                    invalid |= a | b | c | d
                    let group = UInt32(a & 63) << 18 | UInt32(b & 63) << 12 | UInt32(c & 63) << 6 | UInt32(d & 63)
                    output[written] = UInt8(truncatingIfNeeded: group >> 16)
                    output[written + 1] = UInt8(truncatingIfNeeded: group >> 8)
                    output[written + 2] = UInt8(truncatingIfNeeded: group)
                    read += 4
                    written += 3
                }
                var group: UInt32 = 0
                for index in read..<length {
                    let value = table[Int(text[index])]
                    invalid |= value
                    group = group << 6 | UInt32(value & 63)
                }
                switch length - read {
                case 2:
                    output[written] = UInt8(truncatingIfNeeded: group >> 4)
                    written += 1
                case 3:
                    output[written] = UInt8(truncatingIfNeeded: group >> 10)
                    output[written + 1] = UInt8(truncatingIfNeeded: group >> 2)
                    written += 2
                default: break
                }
            }
            return invalid == 0xff ? nil : output
        }
    }

    static func decode<Bytes: Collection>(_ text: Bytes) -> [UInt8]? where Bytes.Element == UInt8 {
        text.withContiguousStorageIfAvailable { decode($0) } ?? Array(text).withUnsafeBufferPointer { decode($0) }
    }

    static func decode(_ text: String) -> [UInt8]? {
        var text = text
        return text.withUTF8 { decode($0) }
    }
}
