import BlogModel
import Foundation

/// "Reply from your own server" without JavaScript: a reader types their instance under a post
/// and is sent to that server's `authorize_interaction` page for the post (Mastodon's remote
/// interaction; Misskey, Pleroma and GoToSocial answer it too). Lectern only redirects: it makes
/// no request of its own for an anonymous reader.
///
/// ```swift
/// try RemoteInteraction(baseURL: "https://blog.example").redirect(instance: "@me@Mastodon.Social",
///                                                               uri: "https://blog.example/2025/hello/")
/// // "https://mastodon.social/authorize_interaction?uri=https%3A%2F%2Fblog.example%2F2025%2Fhello%2F"
/// ```
public struct RemoteInteraction: Sendable {
    public let baseURL: String

    public init(baseURL: String) { self.baseURL = baseURL }

    public enum Refusal: Error, Equatable, CustomStringConvertible {
        case notAHostname
        case notOurs

        public var description: String {
            switch self {
            case .notAHostname: return "Type your handle, like @you@mastodon.social, or your server's name, like mastodon.social."
            case .notOurs: return "That is not a post on this blog."
            }
        }
    }

    /// Where to send the reader. `instance` may be typed as `mastodon.social`, `https://mastodon.social/`
    /// or a handle (`@me@mastodon.social`); `uri` must be one of this blog's URLs.
    public func redirect(instance: String, uri: String) throws -> String {
        try check(uri: uri)
        guard let host = Self.hostname(instance) else { throw Refusal.notAHostname }
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return "https://\(host)/authorize_interaction?uri=" + (uri.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")
    }

    /// Refuses anything but one of this blog's URLs.
    public func check(uri: String) throws {
        guard uri.hasPrefix(baseURL + "/"), Origin(uri) != nil, !uri.contains(where: { $0.isWhitespace }) else { throw Refusal.notOurs }
    }

    /// The account in a typed handle (`@me@social.example`, `me@social.example`): its user and
    /// server; nil for a bare server name or anything odd. `allowLoopback` (development only,
    /// with `allowPrivateAddresses`) also takes `127.0.0.1:PORT` as the server.
    package static func account(_ typed: String, allowLoopback: Bool = false) -> (user: String, host: String)? {
        var text = Substring(typed.trimmingCharacters(in: .whitespacesAndNewlines))
        if text.hasPrefix("@") { text = text.dropFirst() }
        guard let at = text.firstIndex(of: "@") else { return nil }
        let user = text[..<at], server = text[text.index(after: at)...]
        guard (1...64).contains(user.count),
              user.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "_.-".contains($0)) }) else { return nil }
        guard !server.contains("@"), !server.contains("/") else { return nil }
        if let host = hostname(String(server)) { return (String(user), host) }
        if allowLoopback, server.hasPrefix("127.0.0.1:"), let port = Int(server.dropFirst(10)), (1...65535).contains(port) {
            return (String(user), String(server))
        }
        return nil
    }

    /// The DNS name in what the reader typed, lower-cased; nil unless it is a plain hostname
    /// (ASCII letters, digits and hyphens in dot-separated labels, a top-level label with a
    /// letter: no IP address, port, user, path or anything else).
    static func hostname(_ typed: String) -> String? {
        var text = Substring(typed.trimmingCharacters(in: .whitespacesAndNewlines).lowercased())
        for scheme in ["https://", "http://"] where text.hasPrefix(scheme) { text = text.dropFirst(scheme.count) }
        if text.hasSuffix("/") { text = text.dropLast() }
        if let at = text.lastIndex(of: "@") { text = text[text.index(after: at)...] }  // a handle: its server
        if text.hasSuffix(".") { text = text.dropLast() }
        // A DNS name whose last label has a letter: no IP address, port, user, path or anything else.
        guard DNSName.isValid(text), text.split(separator: ".").last!.contains(where: { $0.isLetter }) else { return nil }
        return String(text)
    }
}
