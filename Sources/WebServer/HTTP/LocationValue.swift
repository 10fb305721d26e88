/// A redirect target as a `Location` field value: a URI reference in ASCII. Aliases and post
/// URLs may hold any script (`/επιπεδο/`); sent raw, the UTF-8 bytes are not a URI and break
/// clients (Python's refuses them), so every byte a URI may not hold is percent-encoded, and
/// escapes already there are kept.
///
/// ```swift
/// LocationValue.encode("/επ/?q=1")   // "/%CE%B5%CF%80/?q=1"
/// ```
enum LocationValue {
    static func encode(_ target: String) -> String {
        let input = Array(target.utf8)
        // `%` stays only as the start of an escape (`%C3`); a bare one (`/50%-off/`) is `%25`.
        func isEscape(_ index: Int) -> Bool {
            index + 2 < input.count && isHex(input[index + 1]) && isHex(input[index + 2])
        }
        guard input.indices.contains(where: { !isAllowed(input[$0]) || (input[$0] == UInt8(ascii: "%") && !isEscape($0)) }) else {
            return target
        }
        let hex = Array("0123456789ABCDEF".utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(input.count * 3)
        for (index, byte) in input.enumerated() {
            if isAllowed(byte) && (byte != UInt8(ascii: "%") || isEscape(index)) {
                bytes.append(byte)
            } else {
                bytes += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func isHex(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
            || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(byte)
    }

    /// RFC 3986's unreserved and reserved characters, and `%` (kept when it starts an escape).
    private static func isAllowed(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        default:
            return "-._~:/?#[]@!$&'()*+,;=%".utf8.contains(byte)
        }
    }
}
