import Foundation

/// Base64 (standard alphabet) through Foundation, for signatures and digests. Padding is
/// optional (some senders leave it out, as RFC 4648 §3.2 allows where the length is known): up
/// to two `=` are accepted, and added before decoding when missing. Anything else outside the
/// alphabet gives nil.
enum Base64 {
    static func decode<Bytes: Collection>(_ text: Bytes) -> [UInt8]? where Bytes.Element == UInt8 {
        var bytes = Data(text)
        var padding = 0
        while padding < bytes.count, bytes[bytes.index(bytes.endIndex, offsetBy: -padding - 1)] == UInt8(ascii: "=") { padding += 1 }
        let length = bytes.count - padding
        // Foundation on Linux lets an `=` inside the text through: only the end may have them.
        guard padding <= 2, length % 4 != 1, !bytes.prefix(length).contains(UInt8(ascii: "=")) else { return nil }
        bytes.removeLast(padding)
        bytes.append(contentsOf: repeatElement(UInt8(ascii: "="), count: (4 - length % 4) % 4))
        return Data(base64Encoded: bytes).map { [UInt8]($0) }
    }

    static func decode(_ text: String) -> [UInt8]? { decode(Array(text.utf8)) }
}
