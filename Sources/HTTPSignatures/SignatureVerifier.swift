import Foundation
import LecternCrypto

/// Where the verifier gets public keys. `refresh: true` asks for a fresh copy (keys rotate):
/// the verifier asks once more that way when a signature does not verify with the cached key.
public protocol SignatureKeyProvider: Sendable {
    func publicKey(for keyId: String, refresh: Bool) async throws -> PublicKey
}

/// What a successful verification established.
public struct VerifiedSignature: Sendable, Equatable {
    public enum Scheme: String, Sendable { case cavage = "draft-cavage", rfc9421 = "rfc9421" }
    public let keyId: String
    public let scheme: Scheme
    /// The last moment the same signature would pass the date checks: a replay cache must
    /// remember it at least until then.
    public let acceptedUntil: Date?
    /// What identifies this signature for a replay cache: the key id and the signature's bytes,
    /// never the header's text (re-casing a parameter or adding an unknown one changes the text,
    /// not the signature).
    public let replayKey: [UInt8]

    public init(keyId: String, scheme: Scheme, acceptedUntil: Date?, signature: [UInt8]) {
        self.keyId = keyId
        self.scheme = scheme
        self.acceptedUntil = acceptedUntil
        replayKey = Digest.sha256(Array(keyId.utf8) + [0] + signature)
    }
}

/// The single entry point for incoming requests: RFC 9421 when `Signature-Input` is present,
/// draft-cavage otherwise. Returns the verified key id or a `SignatureError` saying exactly why not.
///
/// ```swift
/// let verified = try await SignatureVerifier().verify(request, keys: remoteKeys)
/// // verified.keyId is the key's URL; its owner must be the activity's actor.
/// ```
public struct SignatureVerifier: Sendable {
    public var now: Date
    /// The hosts requests may be addressed to; nil accepts any (a client checking a response).
    public var audience: SignatureAudience?

    public init(now: Date = Date(), audience: SignatureAudience? = nil) {
        self.now = now
        self.audience = audience
    }

    public func verify(_ request: HTTPRequestParts, keys: some SignatureKeyProvider) async throws -> VerifiedSignature {
        if let input = request.field("signature-input") {
            // One label is checked, the first that passes the policy: each would cost a key
            // fetch and an RSA operation, and a sender needs only one.
            let candidate = try RFC9421Verifier(now: now, audience: audience).firstCandidate(request, input: input)
            let valid = try await withKey(candidate.keyId, keys) { key in
                try RFC9421Signature.isValid(candidate.signature, request: request, covering: candidate.list, key: key)
            }
            guard valid else { throw SignatureError.badSignature }
            return VerifiedSignature(keyId: candidate.keyId, scheme: .rfc9421, acceptedUntil: candidate.acceptedUntil,
                                     signature: candidate.signature)
        }
        let cavage = CavageVerifier(now: now, audience: audience)
        let (header, acceptedUntil) = try cavage.precheck(request)
        guard try await withKey(header.keyId, keys, { try cavage.verify(header, request: request, key: $0) }) else {
            throw SignatureError.badSignature
        }
        return VerifiedSignature(keyId: header.keyId, scheme: .cavage, acceptedUntil: acceptedUntil, signature: header.signature)
    }

    /// The key id and the replay key of the signature `verify` would check, read with the same
    /// rules (the date, digest and audience checks passed), without looking up the key: what a
    /// request kept until its key can be had is known by. Throws what `verify` would.
    public func claimedSignature(_ request: HTTPRequestParts) throws -> (keyId: String, replayKey: [UInt8]) {
        let signature: (keyId: String, bytes: [UInt8])
        if let input = request.field("signature-input") {
            let candidate = try RFC9421Verifier(now: now, audience: audience).firstCandidate(request, input: input)
            signature = (candidate.keyId, candidate.signature)
        } else {
            let header = try CavageVerifier(now: now, audience: audience).precheck(request).header
            signature = (header.keyId, header.signature)
        }
        return (signature.keyId, VerifiedSignature(keyId: signature.keyId, scheme: .cavage, acceptedUntil: nil,
                                                   signature: signature.bytes).replayKey)
    }

    /// Checks with the cached key, then once with a refreshed one if that failed.
    private func withKey(_ keyId: String, _ keys: some SignatureKeyProvider,
                         _ check: (PublicKey) throws -> Bool) async throws -> Bool {
        let cached = try await key(keyId, keys, refresh: false)
        if try check(cached) { return true }
        // A refresh inside `refetchInterval` hands back the same key: checking it again would
        // only double the CPU a refused request costs.
        let refreshed = try await key(keyId, keys, refresh: true)
        return refreshed.isSameParsedKey(as: cached) ? false : try check(refreshed)
    }

    private func key(_ keyId: String, _ keys: some SignatureKeyProvider, refresh: Bool) async throws -> PublicKey {
        do {
            return try await keys.publicKey(for: keyId, refresh: refresh)
        } catch let error as SignatureError {
            throw error
        } catch {
            throw SignatureError.keyUnavailable("\(error)")
        }
    }
}
