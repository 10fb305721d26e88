/// The kinds of key Lectern generates and accepts.
public enum KeyType: Equatable, Sendable, CustomStringConvertible {
    case rsa(bits: Int)
    case ed25519

    public var description: String {
        switch self {
        case .rsa(let bits): return "RSA-\(bits)"
        case .ed25519: return "Ed25519"
        }
    }
}

/// Signature schemes, named as RFC 9421 names them.
public enum SignatureAlgorithm: String, Sendable, CaseIterable {
    /// RSASSA-PKCS1-v1_5 with SHA-256: what Mastodon and draft-cavage's `rsa-sha256` use.
    case rsaV15SHA256 = "rsa-v1_5-sha256"
    /// RSASSA-PSS with SHA-512, MGF1-SHA-512 and a 64-byte salt (RFC 9421 §3.3.1).
    case rsaPSSSHA512 = "rsa-pss-sha512"
    case ed25519 = "ed25519"

    /// Whether a key of this type can make or check this kind of signature.
    public func fits(_ type: KeyType) -> Bool {
        switch (self, type) {
        case (.rsaV15SHA256, .rsa), (.rsaPSSSHA512, .rsa), (.ed25519, .ed25519): return true
        default: return false
        }
    }
}
