import BlogModel
import Foundation
import HTTPSignatures
import Storage

extension SignatureAudience {
    /// The blog's own hosts: its `baseURL`'s and `federation.hostAliases`, in the ASCII form a
    /// `Host` header carries (an IDN `baseURL` arrives as `xn--…`).
    public init(config: SiteConfig) {
        let scheme = URLComponents(string: config.baseURL)?.scheme?.lowercased() ?? "https"
        let own = Self.ascii(config.baseURL.components(separatedBy: "://").last?.split(separator: "/").first.map(String.init) ?? "")
        self.init(authorities: [own] + config.federation.hostAliases.map(Self.ascii), scheme: scheme)
    }

    /// `host` or `host:port` with the host in punycode.
    private static func ascii(_ authority: String) -> String {
        guard let parts = URLComponents(string: "https://\(authority)/"), let host = parts.host,
              let ascii = HostName.normalized(host) else { return authority }
        let bracketed = ascii.contains(":") ? "[\(ascii)]" : ascii  // an IPv6 literal
        return bracketed + (parts.port.map { ":\($0)" } ?? "")
    }
}
