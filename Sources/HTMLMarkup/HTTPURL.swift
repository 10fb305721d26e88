import Foundation

/// URLs from other servers, made safe to put in a page or a JSON document: parsed, accepted
/// only as `http`/`https` with a host (no `javascript:`, `data:`, credentials or relative
/// tricks), and re-serialized in plain ASCII so no quote, angle bracket, space or combining
/// mark survives to break out of an attribute.
///
/// ```swift
/// HTTPURL.parse("https://a.example/p?q=1")   // "https://a.example/p?q=1"
/// HTTPURL.parse("javascript:alert(1)")       // nil
/// HTTPURL.parse("https://a.example/\"x")     // "https://a.example/%22x"
/// ```
public enum HTTPURL {
    /// Characters kept as they are; everything else is percent-encoded (UTF-8) before parsing.
    /// A table by byte value: a `Set` hashed every byte of every URL of every incoming note.
    private static let kept: [Bool] = {
        var table = [Bool](repeating: false, count: 256)
        for byte in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~:/?#[]@!$&()*+,;=%".utf8 { table[Int(byte)] = true }
        return table
    }()

    private static let hexDigits = Array("0123456789ABCDEF".unicodeScalars)

    public static func parse(_ raw: String) -> String? {
        // Browsers ignore surrounding spaces and control characters; so does this.
        let trimmed = raw.trimmingCharacters(in: .whitespacesAndNewlines.union(.controlCharacters))
        guard !trimmed.isEmpty, trimmed.utf8.count <= 4096 else { return nil }
        var encoded = ""
        encoded.reserveCapacity(trimmed.utf8.count)
        for byte in trimmed.utf8 {
            if kept[Int(byte)] {
                encoded.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                encoded.unicodeScalars.append("%")
                encoded.unicodeScalars.append(hexDigits[Int(byte >> 4)])
                encoded.unicodeScalars.append(hexDigits[Int(byte & 0x0F)])
            }
        }
        guard var parts = URLComponents(string: encoded), let scheme = parts.scheme?.lowercased(),
              scheme == "http" || scheme == "https", let host = parts.host, !host.isEmpty,
              parts.user == nil, parts.password == nil else { return nil }
        parts.scheme = scheme
        parts.host = host.lowercased()
        guard let result = parts.string, result.hasPrefix(scheme + "://") else { return nil }
        return result
    }
}
