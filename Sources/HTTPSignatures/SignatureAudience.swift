/// The hosts a signed request may be addressed to: the blog's own (its `baseURL`, plus aliases).
/// A signature covering `host` (draft-cavage) or `@authority`/`@target-uri` (RFC 9421) must name
/// one of them, so a delivery captured on its way to another server cannot be replayed here.
public struct SignatureAudience: Sendable, Equatable {
    public let authorities: Set<String>

    /// `authorities` as `host` or `host:port`, normalized with `normalized(_:scheme:)`.
    public init(authorities: some Sequence<String>, scheme: String = "https") {
        self.authorities = Set(authorities.map { Self.normalized($0, scheme: scheme) })
        self.scheme = scheme
    }

    let scheme: String

    public func contains(_ authority: String) -> Bool {
        authorities.contains(Self.normalized(authority, scheme: scheme))
    }

    /// Lower case, without a trailing dot on the host, without the scheme's default port:
    /// `Blog.Example.:443` and `blog.example` are one host.
    public static func normalized(_ authority: String, scheme: String) -> String {
        var value = authority.lowercased()
        var port: Substring?
        if !value.hasSuffix("]"), let colon = value.lastIndex(of: ":") {
            port = value[value.index(after: colon)...]
            value = String(value[..<colon])
        }
        while value.hasSuffix(".") { value.removeLast() }
        let defaultPort = scheme == "http" ? "80" : "443"
        if let port, port != defaultPort { return "\(value):\(port)" }
        return value
    }
}
