import Dates
import LecternCrypto

/// The `eddsa-jcs-2022` cryptosuite of W3C "Data Integrity EdDSA Cryptosuites v1.0" (§3.3), as
/// FEP-8b32 uses it for object integrity proofs: the document and the proof's options are each
/// canonicalized by RFC 8785 and hashed with SHA-256, and Ed25519 signs the proof options' hash
/// followed by the document's. Checked byte for byte against the specification's test vectors
/// and FEP-8b32's (`Tests/DataIntegrityTests`).
///
/// ```swift
/// let signed = try EddsaJcs2022.sign(document, key: key, verificationMethod: actor + "#ed25519-key",
///                                    created: "2025-03-01T09:30:00Z")
/// for proof in EddsaJcs2022.proofs(in: signed) where EddsaJcs2022.verify(proof, of: signed, key: publicKey) { … }
/// ```
public enum EddsaJcs2022 {
    public static let type = "DataIntegrityProof"
    public static let cryptosuite = "eddsa-jcs-2022"
    /// The only purpose FEP-8b32 allows.
    public static let assertionMethod = "assertionMethod"
    /// Proofs looked at in one document: FEP-8b32 asks for one; a set is read no further than this.
    public static let maximumProofs = 4

    /// `document` (whose own `proof`, if any, is replaced) with a proof made by `key` (Ed25519)
    /// at `created` (an XML Schema dateTime, `2025-03-01T09:30:00Z`). As §3.3.1 asks, the
    /// proof takes the document's `@context`, when it has one.
    public static func sign(_ document: [String: CanonicalJSON], key: PrivateKey, verificationMethod: String,
                            created: String) throws -> [String: CanonicalJSON] {
        var unsecured = document
        unsecured["proof"] = nil
        var proof: [String: CanonicalJSON] = [
            "type": .string(type), "cryptosuite": .string(cryptosuite), "verificationMethod": .string(verificationMethod),
            "proofPurpose": .string(assertionMethod), "created": .string(created),
        ]
        if let context = unsecured["@context"] { proof["@context"] = context }
        let signature = try key.sign(hashData(document: unsecured, proofConfig: proof), algorithm: .ed25519)
        proof["proofValue"] = .string(Multibase.encode(signature))
        unsecured["proof"] = .object(proof)
        return unsecured
    }

    /// §3.3.4 (hashing): SHA-256 of the canonical proof configuration, then of the canonical
    /// document, 64 bytes.
    static func hashData(document: [String: CanonicalJSON], proofConfig: [String: CanonicalJSON]) -> [UInt8] {
        Digest.sha256(CanonicalJSON.object(proofConfig).canonical()) + Digest.sha256(CanonicalJSON.object(document).canonical())
    }

    /// One proof a document carries, read before any key is looked up.
    public struct Proof: Sendable, Equatable {
        /// The key that made it, as the proof names it.
        public let verificationMethod: String
        public let created: String?
        /// The proof without `proofValue`: the proof options of §3.3.2.
        let options: [String: CanonicalJSON]
        let signature: [UInt8]
    }

    /// The well-formed eddsa-jcs-2022 assertion proofs of `document` (`proof` as one object or
    /// a set, at most `maximumProofs` looked at). Any other proof is no proof here: another
    /// suite, another purpose, a chain (`previousProof`), a `created` or `expires` that is not a
    /// timestamp, or one that has expired by `now` (seconds since 1970).
    public static func proofs(in document: [String: CanonicalJSON], now: Double? = nil) -> [Proof] {
        let candidates: [CanonicalJSON]
        switch document["proof"] {
        case .object?: candidates = [document["proof"]!]
        case .array(let set)?: candidates = Array(set.prefix(maximumProofs))
        default: return []
        }
        return candidates.compactMap { candidate in
            guard var options = candidate.members,
                  options["type"]?.string == type, options["cryptosuite"]?.string == cryptosuite,
                  options["proofPurpose"]?.string == assertionMethod, options["previousProof"] == nil,
                  let method = options["verificationMethod"]?.string,
                  let value = options["proofValue"]?.string, let signature = Multibase.decode(value), signature.count == 64
            else { return nil }
            let created = options["created"]
            if let created, created.string.flatMap(RFC3339.secondsSince1970) == nil { return nil }
            if let expires = options["expires"] {
                guard let end = expires.string.flatMap(RFC3339.secondsSince1970) else { return nil }
                if let now, now >= end { return nil }
            }
            options["proofValue"] = nil
            return Proof(verificationMethod: method, created: created?.string, options: options, signature: signature)
        }
    }

    /// §3.3.2: whether `proof`, one of `proofs(in: document)`, is `key`'s signature of `document`.
    public static func verify(_ proof: Proof, of document: [String: CanonicalJSON], key: PublicKey) -> Bool {
        var unsecured = document
        unsecured["proof"] = nil
        if let proofContext = proof.options["@context"] {
            // The document's `@context` must start with the proof's, in order; the proof's is
            // what was signed.
            guard let documentContext = document["@context"] else { return false }
            let ours = contexts(documentContext), theirs = contexts(proofContext)
            guard ours.count >= theirs.count, Array(ours.prefix(theirs.count)) == theirs else { return false }
            unsecured["@context"] = proofContext
        }
        guard key.type == .ed25519 else { return false }
        return key.verify(proof.signature, for: hashData(document: unsecured, proofConfig: proof.options), algorithm: .ed25519)
    }

    private static func contexts(_ value: CanonicalJSON) -> [CanonicalJSON] { value.elements ?? [value] }
}
