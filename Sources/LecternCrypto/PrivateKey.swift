import CCrypto

/// A private key: the blog's actor key and the instance actor's key.
///
/// ```swift
/// let key = try PrivateKey.generate(.rsa(bits: 2048))
/// let signature = try key.sign(Array("hello".utf8), algorithm: .rsaV15SHA256)
/// ```
/// Never logged: `description` shows only the type.
public struct PrivateKey: Sendable, CustomStringConvertible {
    let key: EVPKey

    public static func generate(_ type: KeyType) throws -> PrivateKey {
        let operation = "generate \(type) key"
        let name: String
        switch type {
        case .rsa(let bits):
            guard [2048, 3072, 4096].contains(bits) else { throw CryptoError(operation, reason: "use 2048, 3072 or 4096 bits") }
            name = "RSA"
        case .ed25519:
            name = "ED25519"
        }
        guard let context = EVP_PKEY_CTX_new_from_name(nil, name, nil) else { throw CryptoError.openSSL(operation) }
        defer { EVP_PKEY_CTX_free(context) }
        guard EVP_PKEY_keygen_init(context) == 1 else { throw CryptoError.openSSL(operation) }
        if case .rsa(let bits) = type, EVP_PKEY_CTX_set_rsa_keygen_bits(context, Int32(bits)) != 1 {
            throw CryptoError.openSSL(operation)
        }
        var result: OpaquePointer?
        guard EVP_PKEY_generate(context, &result) == 1, let result else { throw CryptoError.openSSL(operation) }
        return PrivateKey(key: EVPKey(result))
    }

    init(key: EVPKey) { self.key = key }

    /// Reads PKCS#8 (`PRIVATE KEY`) or PKCS#1 (`RSA PRIVATE KEY`). Encrypted keys are refused
    /// rather than prompting for a passphrase on the terminal.
    public init(pem: String) throws {
        ERR_clear_error()
        let parsed: OpaquePointer? = try MemoryBIO.reading(pem) { bio in
            var empty: [CChar] = [0]
            return PEM_read_bio_PrivateKey(bio, nil, nil, &empty)
        }
        guard let parsed else { throw CryptoError.openSSL("parse private key") }
        key = EVPKey(parsed)
        guard key.type != nil else { throw CryptoError("parse private key", reason: "not an RSA or Ed25519 key") }
    }

    public var type: KeyType { key.type! }

    public var publicKey: PublicKey { PublicKey(key: key) }

    public var description: String { "PrivateKey(\(type))" }

    /// PKCS#8 PEM, unencrypted (the file holding it is mode 0600).
    public func pemPKCS8() throws -> String {
        try MemoryBIO.writing("write private key") { PEM_write_bio_PrivateKey($0, key.pointer, nil, nil, 0, nil, nil) }
    }

    /// PKCS#1 PEM (`RSA PRIVATE KEY`), RSA only.
    public func pemPKCS1() throws -> String {
        guard case .rsa = type else { throw CryptoError("write private key", reason: "PKCS#1 is for RSA keys only") }
        return try MemoryBIO.writing("write private key") {
            PEM_write_bio_PrivateKey_traditional($0, key.pointer, nil, nil, 0, nil, nil)
        }
    }

    public func sign(_ message: [UInt8], algorithm: SignatureAlgorithm) throws -> [UInt8] {
        ERR_clear_error()
        return try key.withContext(algorithm, signing: true, "sign") { context in
            var length = 0
            guard EVP_DigestSign(context, nil, &length, message, message.count) == 1 else { throw CryptoError.openSSL("sign") }
            var signature = [UInt8](repeating: 0, count: length)
            guard EVP_DigestSign(context, &signature, &length, message, message.count) == 1 else {
                throw CryptoError.openSSL("sign")
            }
            return Array(signature.prefix(length))
        }
    }
}
