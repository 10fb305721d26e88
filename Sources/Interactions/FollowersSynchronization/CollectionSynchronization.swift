import ActivityPub
import Foundation
import LecternCrypto

/// FEP-8fcf followers collection synchronization: the `Collection-Synchronization` header a
/// delivery to followers carries, `collectionId="…", url="…", digest="…"`. `digest` is the XOR
/// of the SHA-256 of every follower id on the receiving server (hex), `url` a partial followers
/// collection listing only those followers. A server whose own count differs fetches `url`
/// and fixes its side (Mastodon does).
///
/// ```swift
/// let header = CollectionSynchronization(collectionId: "https://blog.example/actor/followers",
///     url: "https://blog.example/actor/followers?domain=social.example",
///     digest: CollectionSynchronization.digest(of: ["https://social.example/users/alice"]))
/// parts.setHeader(CollectionSynchronization.headerName, header.headerValue)
/// ```
public struct CollectionSynchronization: Sendable, Equatable {
    public static let headerName = "Collection-Synchronization"
    public var collectionId: String
    public var url: String
    public var digest: String

    public init(collectionId: String, url: String, digest: String) {
        (self.collectionId, self.url, self.digest) = (collectionId, url, digest)
    }

    /// XOR of SHA-256 over the ids (order does not matter), as 64 lower-case hex digits.
    public static func digest(of ids: some Sequence<String>) -> String {
        var sum = [UInt8](repeating: 0, count: 32)
        for id in ids {
            for (index, byte) in LecternCrypto.Digest.sha256(Array(id.utf8)).enumerated() { sum[index] ^= byte }
        }
        return sum.map { String(format: "%02x", $0) }.joined()
    }

    /// The header value (values are URLs and hex: nothing in them needs escaping, and one that
    /// holds a quote or backslash is refused rather than sent broken).
    public var headerValue: String? {
        let values = [collectionId, url, digest]
        guard !values.contains(where: { $0.contains("\"") || $0.contains("\\") }) else { return nil }
        return "collectionId=\"\(collectionId)\", url=\"\(url)\", digest=\"\(digest)\""
    }

    /// Reads the header (parameters as in a draft-cavage `Signature` header, in any order);
    /// nil unless all three are there, the URLs are http(s) and the digest is 64 hex digits.
    public static func parse(_ value: String) -> CollectionSynchronization? {
        guard value.utf8.count <= 4096 else { return nil }
        var parameters: [String: String] = [:]
        var rest = Substring(value)
        while true {
            rest = rest.drop { $0 == " " || $0 == "," || $0 == "\t" }
            guard !rest.isEmpty else { break }
            guard let equals = rest.firstIndex(of: "=") else { return nil }
            let name = rest[..<equals].trimmingCharacters(in: .whitespaces)
            rest = rest[rest.index(after: equals)...]
            guard rest.first == "\"", let close = rest.dropFirst().firstIndex(of: "\"") else { return nil }
            parameters[name] = String(rest[rest.index(after: rest.startIndex)..<close])
            rest = rest[rest.index(after: close)...]
        }
        guard let collectionId = parameters["collectionId"], let url = parameters["url"], let digest = parameters["digest"],
              [collectionId, url].allSatisfy({ $0.hasPrefix("https://") || $0.hasPrefix("http://") }),
              digest.count == 64, digest.allSatisfy(\.isHexDigit) else { return nil }
        return CollectionSynchronization(collectionId: collectionId, url: url, digest: digest.lowercased())
    }
}
