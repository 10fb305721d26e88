import CCryptoShim

/// Owns one `EVP_PKEY` and frees it exactly once. OpenSSL keys are reference counted and safe
/// to use from several threads at once as long as each operation has its own context, which
/// every method here creates and frees itself.
final class EVPKey: @unchecked Sendable {
    let pointer: OpaquePointer
    /// Read once: every signature checks that the key fits its algorithm.
    let type: KeyType?
    /// PKCS#1 v1.5 / SHA-256 checks without OpenSSL's per-call setup, for an `rsaEncryption`
    /// key: one restricted to PSS (`rsassaPss`) keeps OpenSSL's own choice of padding, and so
    /// does any key the verifier cannot take.
    let rsaVerifier: RSAPublicVerifier?
    /// Why an RSA key's numbers are outside what Lectern accepts from a remote actor; nil for
    /// acceptable keys and for keys that are not RSA.
    let rsaProblem: String?
    /// The RSA public exponent's size in bits; nil for keys that are not RSA.
    let rsaExponentBits: Int?

    init(_ pointer: OpaquePointer) {
        self.pointer = pointer
        self.type = Self.type(of: pointer)
        let numbers = RSAPublicNumbers(key: pointer)
        rsaProblem = numbers?.problem
        rsaExponentBits = numbers.map { Int(crypto.BN_num_bits($0.exponent)) }
        // Made with the key (the Montgomery context costs microseconds, once): a remote
        // actor's key is parsed once, cached, and checks every request that actor sends.
        rsaVerifier = crypto.EVP_PKEY_get_base_id(pointer) == NID_rsaEncryption ? numbers.flatMap(RSAPublicVerifier.init) : nil
    }

    deinit { crypto.EVP_PKEY_free(pointer) }

    private static func type(of pointer: OpaquePointer) -> KeyType? {
        switch crypto.EVP_PKEY_get_base_id(pointer) {
        case NID_rsaEncryption, NID_rsassaPss: return .rsa(bits: Int(crypto.EVP_PKEY_get_bits(pointer)))
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
        guard let context = crypto.EVP_MD_CTX_new() else { throw CryptoError.openSSL(operation) }
        defer { crypto.EVP_MD_CTX_free(context) }
        var keyContext: OpaquePointer?
        let digest: OpaquePointer? = switch algorithm {
        case .rsaV15SHA256: FetchedDigest.sha256
        case .rsaPSSSHA512: FetchedDigest.sha512
        case .ed25519: nil  // Ed25519 hashes internally
        }
        let initialised = signing
            ? crypto.EVP_DigestSignInit(context, &keyContext, digest, nil, pointer)
            : crypto.EVP_DigestVerifyInit(context, &keyContext, digest, nil, pointer)
        guard initialised == 1 else { throw CryptoError.openSSL(operation) }
        if algorithm == .rsaPSSSHA512 {
            guard crypto.EVP_PKEY_CTX_set_rsa_padding(keyContext, RSA_PKCS1_PSS_PADDING) == 1,
                  crypto.EVP_PKEY_CTX_set_rsa_pss_saltlen(keyContext, 64) == 1 else { throw CryptoError.openSSL(operation) }
        }
        return try body(context)
    }
}
