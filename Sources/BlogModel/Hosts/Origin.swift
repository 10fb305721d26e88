import Foundation

/// Scheme, host and port of a URL: the unit of trust in ActivityPub. A server speaks for the
/// ids on its own origin and for nothing else (design §5), the way browsers treat origins.
///
/// ```swift
/// Origin("https://Social.Example:443/users/a") == Origin("https://social.example/notes/1")  // true
/// Origin.same("https://a.example/x", "https://b.example/x")                                // false
/// ```
public struct Origin: Hashable, Sendable, CustomStringConvertible {
    public let scheme: String
    public let host: String
    public let port: Int

    /// nil for anything that is not an absolute http(s) URL with a host.
    public init?(_ url: String) {
        guard let parts = URLComponents(string: url), let scheme = parts.scheme?.lowercased(),
              scheme == "http" || scheme == "https", let host = parts.host, !host.isEmpty,
              parts.user == nil, parts.password == nil,
              // No server names itself with a percent-encoded host; such an id is a disguise.
              parts.encodedHost?.contains("%") != true else { return nil }
        self.scheme = scheme
        self.host = host.lowercased()
        port = parts.port ?? (scheme == "https" ? 443 : 80)
    }

    public var description: String { "\(scheme)://\(host):\(port)" }

    /// As ids on it begin: `https://social.example`, the port only when not the scheme's default.
    public var url: String { "\(scheme)://\(host)" + (port == (scheme == "https" ? 443 : 80) ? "" : ":\(port)") }

    /// Whether two URLs are both http(s) and on one origin.
    public static func same(_ a: String?, _ b: String?) -> Bool {
        guard let a, let b, let first = Origin(a), let second = Origin(b) else { return false }
        return first == second
    }

    /// A URL in a form two spellings of the same document compare equal in: scheme and host
    /// lower-cased, default port dropped, fragment dropped. nil when it is not http(s).
    public static func normalized(_ url: String) -> String? {
        guard let origin = Origin(url), var parts = URLComponents(string: url) else { return nil }
        parts.scheme = origin.scheme
        parts.host = origin.host
        if parts.port == (origin.scheme == "https" ? 443 : 80) { parts.port = nil }
        parts.fragment = nil
        if parts.path.isEmpty { parts.path = "/" }
        return parts.string
    }

    /// `url` without its `#fragment`.
    public static func withoutFragment(_ url: String) -> String {
        url.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? url
    }
}
