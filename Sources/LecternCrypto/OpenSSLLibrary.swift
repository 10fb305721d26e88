import CCrypto

/// The libcrypto this process runs with. It is linked: without it the loader refuses to start
/// `lectern`, so there is nothing to check at run time but its version.
public enum OpenSSLLibrary {
    /// `3.0.15`: what `lectern version` prints.
    public static var version: String { String(cString: OpenSSL_version(OPENSSL_VERSION_STRING)) }
    /// `OpenSSL 3.0.15 3 Sep 2024`: what `lectern doctor` reports.
    public static var fullVersion: String { String(cString: OpenSSL_version(OPENSSL_VERSION)) }
}
