import CPSL

/// Registrable domains by the Public Suffix List, through libpsl (the library curl uses for its
/// cookies): the newer of libpsl's built-in list and the system's (Debian's `publicsuffix`
/// package), as `psl_latest` loads them. No list is copied into the code.
enum RegistrableDomain {
    /// Loaded once; libpsl only reads a context after loading it, so lookups from any thread are safe.
    nonisolated(unsafe) private static let list = psl_latest(nil)

    /// `host`'s registrable domain (`a.b.example.co.uk` → `example.co.uk`, `s1.bad.io` →
    /// `bad.io`); the host itself when it is a public suffix (`github.io`) or no domain name.
    /// `host` is lower case, without a trailing dot.
    static func of(_ host: String) -> String {
        guard let list else { return host }
        // libpsl answers with a pointer into the string it was given: read it while that lives.
        return host.withCString { name in psl_registrable_domain(list, name).map { String(cString: $0) } } ?? host
    }
}
