import CCrypto

/// A public key: what remote actors publish (`publicKeyPem`) and what verifies their requests.
///
/// ```swift
/// let key = try PublicKey(pem: actor.publicKeyPem)   // SPKI or PKCS#1
/// let ok = key.verify(signature, for: signingString, algorithm: .rsaV15SHA256)
/// ```
public struct PublicKey: Sendable {
    let key: EVPKey

    init(key: EVPKey) { self.key = key }

    /// Reads `-----BEGIN PUBLIC KEY-----` (SPKI) or `-----BEGIN RSA PUBLIC KEY-----` (PKCS#1).
    public init(pem: String) throws {
        let operation = "parse public key"
        ERR_clear_error()
        let parsed: OpaquePointer? = try MemoryBIO.reading(pem) { bio in
            var result: OpaquePointer?
            guard let decoder = OSSL_DECODER_CTX_new_for_pkey(&result, "PEM", nil, nil, EVPKey.selectPublic, nil, nil)
            else { throw CryptoError.openSSL(operation) }
            defer { OSSL_DECODER_CTX_free(decoder) }
            guard OSSL_DECODER_from_bio(decoder, bio) == 1 else { return nil }
            return result
        }
        guard let parsed else { throw CryptoError.openSSL(operation) }
        key = EVPKey(parsed)
        guard key.type != nil else { throw CryptoError(operation, reason: "not an RSA or Ed25519 key") }
        // Remote keys are the sender's choice: one that makes every check expensive is refused here.
        if let problem = key.rsaProblem { throw CryptoError(operation, reason: "refused: \(problem)") }
    }

    public var type: KeyType { key.type! }

    /// Whether both are the one parsed key (not merely equal numbers): a check already made with
    /// one need not be made again with the other.
    public func isSameParsedKey(as other: PublicKey) -> Bool { key === other.key }

    /// The RSA public exponent's size in bits (17 for 65537); nil for other keys.
    public var rsaExponentBits: Int? { key.rsaExponentBits }

    /// `-----BEGIN PUBLIC KEY-----`, the form ActivityPub actors publish.
    public func pemSPKI() throws -> String {
        try MemoryBIO.writing("write public key") { PEM_write_bio_PUBKEY($0, key.pointer) }
    }

    /// `-----BEGIN RSA PUBLIC KEY-----` (RSA only).
    public func pemPKCS1() throws -> String {
        guard case .rsa = type else { throw CryptoError("write public key", reason: "PKCS#1 is for RSA keys only") }
        return try MemoryBIO.writing("write public key") { bio in
            guard let encoder = OSSL_ENCODER_CTX_new_for_pkey(key.pointer, EVPKey.selectPublic, "PEM", "type-specific", nil)
            else { return 0 }
            defer { OSSL_ENCODER_CTX_free(encoder) }
            return OSSL_ENCODER_to_bio(encoder, bio)
        }
    }

    /// Whether `signature` is a valid signature of `message`. Malformed input is simply invalid.
    public func verify(_ signature: [UInt8], for message: [UInt8], algorithm: SignatureAlgorithm) -> Bool {
        if algorithm == .rsaV15SHA256, let contexts = key.rsaV15Verification {
            return contexts.verify(signature, for: message)  // leaves OpenSSL's error queue clear
        }
        defer { ERR_clear_error() }
        return (try? key.withContext(algorithm, signing: false, "verify") { context in
            EVP_DigestVerify(context, signature, signature.count, message, message.count) == 1
        }) ?? false
    }
}
