import CCrypto
import Synchronization

/// `EVP_DigestVerify` contexts for one key and one algorithm, each set up once and reused.
///
/// Setting a context up (`EVP_DigestVerifyInit`) asks OpenSSL's provider for the signature
/// implementation and the key in its form, every time; a remote actor's key checks every request
/// that actor sends. So each entry here is a template set up once and a working context: a check
/// copies the template into the working context (`EVP_MD_CTX_copy_ex`) and verifies with the
/// copy (`EVP_DigestVerify`). The templates carry `EVP_MD_CTX_FLAG_FINALISE`, so the check
/// finalises the copy itself instead of yet another copy of it. An entry serves one thread at a
/// time; at most `maximumSpare` are kept between checks.
final class VerificationContexts: @unchecked Sendable {
    private struct Entry: @unchecked Sendable {
        let template: OpaquePointer, working: OpaquePointer
    }

    /// Owned by the `EVPKey` that owns this; every context set up holds a reference of its own.
    private let key: OpaquePointer
    private let algorithm: SignatureAlgorithm
    private let spare = Mutex<[Entry]>([])
    /// More spare contexts than threads that verify at once would only hold memory.
    private static let maximumSpare = 8

    init(key: OpaquePointer, algorithm: SignatureAlgorithm) {
        self.key = key
        self.algorithm = algorithm
    }

    deinit { spare.withLock { $0.forEach(Self.free) } }

    /// Whether `signature` is a valid signature of `message`. Malformed input is simply invalid,
    /// and leaves OpenSSL's error queue clear.
    func verify(_ signature: [UInt8], for message: [UInt8]) -> Bool {
        guard let entry = take() else { ERR_clear_error(); return false }
        defer { giveBack(entry) }
        // A copy that fails (memory) falls back on setting the working context up afresh.
        guard EVP_MD_CTX_copy_ex(entry.working, entry.template) == 1 || setUp(entry.working) else {
            ERR_clear_error()
            return false
        }
        let valid = EVP_DigestVerify(entry.working, signature, signature.count, message, message.count) == 1
        if !valid { ERR_clear_error() }  // a refused signature queues OpenSSL's reasons
        return valid
    }

    private func setUp(_ context: OpaquePointer) -> Bool {
        guard EVPKey.setUp(context, key: key, algorithm, signing: false) else { return false }
        EVP_MD_CTX_set_flags(context, EVP_MD_CTX_FLAG_FINALISE)
        return true
    }

    private func take() -> Entry? {
        if let entry = spare.withLock({ $0.popLast() }) { return entry }
        let template = EVP_MD_CTX_new(), working = EVP_MD_CTX_new()
        guard let template, let working, setUp(template) else {
            EVP_MD_CTX_free(template); EVP_MD_CTX_free(working)  // each accepts nil
            return nil
        }
        return Entry(template: template, working: working)
    }

    private func giveBack(_ entry: Entry) {
        let kept = spare.withLock { spare in
            guard spare.count < Self.maximumSpare else { return false }
            spare.append(entry)
            return true
        }
        if !kept { Self.free(entry) }
    }

    private static func free(_ entry: Entry) {
        EVP_MD_CTX_free(entry.template)
        EVP_MD_CTX_free(entry.working)
    }
}
