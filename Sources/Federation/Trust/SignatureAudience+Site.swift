import Foundation
import HTTPSignatures
import Site

extension SignatureAudience {
    /// The blog's own hosts: its `baseURL`'s and `federation.hostAliases`.
    public init(config: SiteConfig) {
        let base = URLComponents(string: config.baseURL)
        let scheme = base?.scheme?.lowercased() ?? "https"
        let own = (base?.host ?? "") + (base?.port.map { ":\($0)" } ?? "")
        self.init(authorities: [own] + config.federation.hostAliases, scheme: scheme)
    }
}
