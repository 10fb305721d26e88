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
        guard target.utf8.contains(where: { !isAllowed($0) }) else { return target }
        let hex = Array("0123456789ABCDEF".utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(target.utf8.count * 3)
        for byte in target.utf8 {
            if isAllowed(byte) {
                bytes.append(byte)
            } else {
                bytes += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// RFC 3986's unreserved and reserved characters, and `%` of an existing escape.
    private static func isAllowed(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        default:
            return "-._~:/?#[]@!$&'()*+,;=%".utf8.contains(byte)
        }
    }
}
