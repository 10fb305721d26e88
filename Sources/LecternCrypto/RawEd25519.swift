import CCrypto

/// Ed25519 keys as their raw 32 bytes (RFC 8032 §5.1.5): the form a `Multikey` carries
/// (`publicKeyMultibase`, FEP-521a), through OpenSSL's documented raw-key functions.
extension PublicKey {
    /// An Ed25519 public key from its 32 bytes. Any 32 bytes are accepted here, as OpenSSL
    /// accepts them: one that is not a point on the curve simply verifies nothing.
    public init(rawEd25519 bytes: [UInt8]) throws {
        let operation = "read Ed25519 public key"
        guard bytes.count == 32 else { throw CryptoError(operation, reason: "an Ed25519 public key is 32 bytes, not \(bytes.count)") }
        ERR_clear_error()
        guard let parsed = EVP_PKEY_new_raw_public_key(EVP_PKEY_ED25519, nil, bytes, bytes.count) else {
            throw CryptoError.openSSL(operation)
        }
        self.init(key: EVPKey(parsed))
    }

    /// The 32 bytes of an Ed25519 public key.
    public func rawEd25519() throws -> [UInt8] {
        try RawKey.read(key, operation: "write Ed25519 public key", EVP_PKEY_get_raw_public_key)
    }
}

extension PrivateKey {
    /// An Ed25519 private key from its 32-byte seed (published test vectors give keys so).
    public init(rawEd25519Seed seed: [UInt8]) throws {
        let operation = "read Ed25519 private key"
        guard seed.count == 32 else { throw CryptoError(operation, reason: "an Ed25519 private key is 32 bytes, not \(seed.count)") }
        ERR_clear_error()
        guard let parsed = EVP_PKEY_new_raw_private_key(EVP_PKEY_ED25519, nil, seed, seed.count) else {
            throw CryptoError.openSSL(operation)
        }
        self.init(key: EVPKey(parsed))
    }
}

private enum RawKey {
    static func read(_ key: EVPKey, operation: String,
                     _ get: (OpaquePointer?, UnsafeMutablePointer<UInt8>?, UnsafeMutablePointer<Int>?) -> Int32) throws -> [UInt8] {
        guard key.type == .ed25519 else { throw CryptoError(operation, reason: "not an Ed25519 key") }
        ERR_clear_error()
        var length = 32
        var bytes = [UInt8](repeating: 0, count: 32)
        guard get(key.pointer, &bytes, &length) == 1, length == 32 else { throw CryptoError.openSSL(operation) }
        return bytes
    }
}
