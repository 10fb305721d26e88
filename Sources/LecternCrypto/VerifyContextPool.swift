import COpenSSL
import Synchronization

/// Ready RSA PKCS#1 v1.5 / SHA-256 verification contexts of one key, kept between uses.
///
/// Setting a context up (`EVP_DigestVerifyInit`: a provider lookup under locks, a context
/// for the key and one for the digest) cost a fifth of a whole verification in `perf`, and a
/// remote actor's key checks every request that actor sends. `openssl speed` sets its context
/// up once as well. A context serves one thread at a time: it is taken out while in use.
final class VerifyContextPool: Sendable {
    /// More spare contexts than threads that verify at once would only hold memory.
    private static let maximumSpare = 8
    private let spare = Mutex<[Context]>([])

    private struct Context: @unchecked Sendable {
        let pointer: OpaquePointer
    }

    deinit {
        spare.withLock { contexts in contexts.forEach { EVP_PKEY_CTX_free($0.pointer) } }
    }

    /// Whether `signature` is a PKCS#1 v1.5 signature of `message`'s SHA-256 by `key`; false
    /// when OpenSSL cannot even set up the check.
    func verify(_ signature: [UInt8], for message: [UInt8], key: OpaquePointer) -> Bool {
        guard let context = take(key) else { return false }
        defer { giveBack(context) }
        return Digest.withSHA256(message) { digest in
            EVP_PKEY_verify(context.pointer, signature, signature.count, digest.baseAddress, digest.count) == 1
        }
    }

    private func take(_ key: OpaquePointer) -> Context? {
        if let context = spare.withLock({ $0.popLast() }) { return context }
        guard let pointer = EVP_PKEY_CTX_new_from_pkey(nil, key, nil) else { return nil }
        guard EVP_PKEY_verify_init(pointer) == 1,
              EVP_PKEY_CTX_set_rsa_padding(pointer, RSA_PKCS1_PADDING) == 1,
              EVP_PKEY_CTX_set_signature_md(pointer, FetchedDigest.sha256) == 1 else {
            EVP_PKEY_CTX_free(pointer)
            return nil
        }
        return Context(pointer: pointer)
    }

    private func giveBack(_ context: Context) {
        let kept = spare.withLock { contexts in
            guard contexts.count < Self.maximumSpare else { return false }
            contexts.append(context)
            return true
        }
        if !kept { EVP_PKEY_CTX_free(context.pointer) }
    }
}
