import CCrypto

/// Owns one `EVP_PKEY` and frees it exactly once. OpenSSL keys are reference counted and safe
/// to use from several threads at once as long as each operation has its own context: signing
/// and rare checks make and free one per call (`withContext`), PKCS#1 v1.5 checks take one of
/// the key's own (`rsaV15Verification`).
final class EVPKey: @unchecked Sendable {
    let pointer: OpaquePointer
    /// Read once: every signature checks that the key fits its algorithm.
    let type: KeyType?
    /// Why an RSA key's numbers are outside what Lectern accepts from a remote actor; nil for
    /// acceptable keys and for keys that are not RSA.
    let rsaProblem: String?
    /// The RSA public exponent's size in bits; nil for keys that are not RSA.
    let rsaExponentBits: Int?
    /// RSASSA-PKCS1-v1_5 / SHA-256 verification contexts, set up once and reused: a remote
    /// actor's key is parsed once, cached, and checks every request that actor signs. Nil for
    /// keys that are not RSA.
    let rsaV15Verification: VerificationContexts?

    init(_ pointer: OpaquePointer) {
        self.pointer = pointer
        let type = Self.type(of: pointer)
        self.type = type
        let limits = RSAKeyLimits(key: pointer)
        rsaProblem = limits?.problem
        rsaExponentBits = limits?.exponentBits
        rsaV15Verification = type.map(SignatureAlgorithm.rsaV15SHA256.fits) == true
            ? VerificationContexts(key: pointer, algorithm: .rsaV15SHA256) : nil
    }

    deinit { EVP_PKEY_free(pointer) }

    private static func type(of pointer: OpaquePointer) -> KeyType? {
        switch EVP_PKEY_get_base_id(pointer) {
        case NID_rsaEncryption, NID_rsassaPss: return .rsa(bits: Int(EVP_PKEY_get_bits(pointer)))
        case NID_ED25519: return .ed25519
        default: return nil
        }
    }

    /// `EVP_PKEY_PUBLIC_KEY` and `EVP_PKEY_KEYPAIR` are macros Swift cannot import.
    static let selectPublic = Int32(OSSL_KEYMGMT_SELECT_PUBLIC_KEY | OSSL_KEYMGMT_SELECT_DOMAIN_PARAMETERS
                                    | OSSL_KEYMGMT_SELECT_OTHER_PARAMETERS)

    /// Runs `body` with a digest context set up for signing or verifying with `algorithm`.
    func withContext<R>(_ algorithm: SignatureAlgorithm, signing: Bool, _ operation: String,
                        _ body: (OpaquePointer) throws -> R) throws -> R {
        guard let type, algorithm.fits(type) else {
            throw CryptoError(operation, reason: "a \(type.map { "\($0)" } ?? "unsupported") key cannot make \(algorithm.rawValue) signatures")
        }
        guard let context = EVP_MD_CTX_new() else { throw CryptoError.openSSL(operation) }
        defer { EVP_MD_CTX_free(context) }
        guard Self.setUp(context, key: pointer, algorithm, signing: signing) else { throw CryptoError.openSSL(operation) }
        return try body(context)
    }

    /// Sets `context` up (`EVP_DigestSignInit` or `EVP_DigestVerifyInit`) to sign or verify
    /// with `key` and `algorithm`; false with OpenSSL's reasons queued.
    static func setUp(_ context: OpaquePointer, key: OpaquePointer, _ algorithm: SignatureAlgorithm, signing: Bool) -> Bool {
        var keyContext: OpaquePointer?
        let digest: OpaquePointer? = switch algorithm {
        case .rsaV15SHA256: FetchedDigest.sha256
        case .rsaPSSSHA512: FetchedDigest.sha512
        case .ed25519: nil  // Ed25519 hashes internally
        }
        let initialised = signing
            ? EVP_DigestSignInit(context, &keyContext, digest, nil, key)
            : EVP_DigestVerifyInit(context, &keyContext, digest, nil, key)
        guard initialised == 1 else { return false }
        if algorithm == .rsaPSSSHA512 {
            return EVP_PKEY_CTX_set_rsa_padding(keyContext, RSA_PKCS1_PSS_PADDING) == 1
                && EVP_PKEY_CTX_set_rsa_pss_saltlen(keyContext, 64) == 1
        }
        return true
    }
}
