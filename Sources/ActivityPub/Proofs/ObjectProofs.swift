import ActivityStreams
import BlogModel
import Dates
import DataIntegrity
import Foundation
import LecternCrypto
import Storage
import Synchronization

/// What the blog sends carries an object integrity proof (FEP-8b32): `eddsa-jcs-2022` by the
/// actor's Ed25519 key, the one its `assertionMethod` lists (FEP-521a). The HTTP signature still
/// goes on every delivery and covers the body, proof included.
///
/// The key is the current one when the activity is queued: the keyring is read from the store
/// each time (one setting), so a `lectern keys rotate` in another process is taken up at once.
public final class ActivityProofs: Sendable {
    let values: StoredValues
    let urls: FederationURLs
    let keys: KeyStore
    private let cached = Mutex<(id: String, key: PrivateKey)?>(nil)

    public init(values: StoredValues, urls: FederationURLs, keys: KeyStore) {
        (self.values, self.urls, self.keys) = (values, urls, keys)
    }

    /// The context term for `proof`, added to a signed activity's `@context` (as Fedify does).
    public static let dataIntegrityContext = "https://w3id.org/security/data-integrity/v1"

    /// The key that signs now, and its id.
    public func current() throws -> (id: String, key: PrivateKey) {
        let keyring = try ActorKeyring.load(from: values)
        let id = keyring.assertionKeyID(urls)
        if let hit = cached.withLock({ $0 }), hit.id == id { return hit }
        // Made when the blog was opened, or by the rotation before the keyring named it.
        let key = try KeyFile.load(at: keys.url(named: keyring.assertionKeyName))
        cached.withLock { $0 = (id, key) }
        return (id, key)
    }

    /// `activity` as the JSON the blog sends: with the data integrity context and a proof made
    /// `now`, in RFC 8785's canonical form (which is plain JSON; the members come out sorted, as
    /// `ASEncoder` sorts them).
    public func signedJSON(_ activity: some Encodable, now: Date = Date()) throws -> String {
        var document = try Self.document(activity)
        document["@context"] = document["@context"].map(Self.withDataIntegrityContext)
        let (id, key) = try current()
        let signed = try EddsaJcs2022.sign(document, key: key, verificationMethod: id, created: ASDate.format(now))
        return String(decoding: CanonicalJSON.object(signed).canonical(), as: UTF8.self)
    }

    static func document(_ value: some Encodable) throws -> [String: CanonicalJSON] {
        guard let members = try CanonicalJSON.parse(Array(try ASEncoder.encode(value))).members else {
            throw CanonicalJSON.ParseError(offset: 0, reason: "an activity must be a JSON object")
        }
        return members
    }

    /// `[AS, data-integrity, …]`: the context after ActivityStreams, unless one is there already.
    static func withDataIntegrityContext(_ context: CanonicalJSON) -> CanonicalJSON {
        var list = context.elements ?? [context]
        let present = list.contains { $0.string?.hasPrefix("https://w3id.org/security/data-integrity/") == true }
        if !present { list.insert(.string(dataIntegrityContext), at: min(1, list.count)) }
        return .array(list)
    }
}

/// Checks the object integrity proofs (FEP-8b32) of what others send: whether a document is
/// vouched for by its author's own key, so that it need not be fetched again from the author's
/// server. A proof that does not check out, for whatever reason, is no proof: the caller does
/// what it does without one.
///
/// The rules (FEP-fe34's origin model, as for HTTP signature keys): the proof's
/// `verificationMethod` sits on the author's origin; its key is taken only from the author's
/// own document, fetched from the author's origin (`RemoteKeyProvider.assertionKey`), where it
/// must be listed in `assertionMethod` with the author as `controller`; the signature covers
/// the whole document but its `proof` (eddsa-jcs-2022). The caller checks that the document's
/// own id sits on the author's origin.
public struct ProofCheck: Sendable {
    public let keys: RemoteKeyProvider

    public init(keys: RemoteKeyProvider) { self.keys = keys }

    /// How old a proof may be and still stand in for fetching from the author's origin.
    public static let maximumAge: TimeInterval = 86_400
    /// How far ahead of our clock a proof's `created` may be.
    static let clockSkew: TimeInterval = 3600

    /// Why a document is or is not taken as its author's, for the log.
    public enum Verdict: Sendable, Equatable {
        case proven(keyID: String)
        case noProof
        /// Proofs were there, and none checked out (the reason of the last one looked at).
        case unproven(String)

        public var isProven: Bool { if case .proven = self { return true } else { return false } }
    }

    public func check(_ document: [String: CanonicalJSON], author: String, now: Date = Date()) async -> Verdict {
        let proofs = EddsaJcs2022.proofs(in: document, now: now.timeIntervalSince1970)
        guard !proofs.isEmpty else { return document["proof"] == nil ? .noProof : .unproven("no eddsa-jcs-2022 assertion proof") }
        guard Origin(author) != nil else { return .unproven("the author \(author) is not an http(s) URL") }
        var reason = ""
        for proof in proofs {
            let method = proof.verificationMethod
            guard Origin.same(method, author) else {
                reason = "the proof's key \(method) is not on the origin of \(author)"
                continue
            }
            // A proof outlives the object: its author may have deleted it since. Only a recent
            // one stands in for the fetch, younger than the shortest memory of a deletion
            // (an id the blog never saw is remembered as deleted for 2 days).
            guard let created = proof.created.flatMap(RFC3339.secondsSince1970),
                  created <= now.timeIntervalSince1970 + Self.clockSkew,
                  created >= now.timeIntervalSince1970 - Self.maximumAge else {
                reason = "a proof without a creation time within the last day"
                continue
            }
            do {
                let key = try await keys.assertionKey(id: method, controller: author)
                if EddsaJcs2022.verify(proof, of: document, key: key) { return .proven(keyID: method) }
                // The author may have rotated its key since it was cached: asked again at most
                // once per key per 30 seconds, within the same budget.
                let fresh = try await keys.assertionKey(id: method, controller: author, refresh: true)
                if !fresh.isSameParsedKey(as: key), EddsaJcs2022.verify(proof, of: document, key: fresh) { return .proven(keyID: method) }
                reason = "the proof by \(method) does not verify"
            } catch {
                reason = "\(method): \(error)"
            }
        }
        return .unproven(reason)
    }
}
