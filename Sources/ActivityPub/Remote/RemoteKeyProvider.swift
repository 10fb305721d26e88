import ActivityStreams
import BlogModel
import DataIntegrity
import Foundation
import HTTPSignatures
import LecternCrypto
import Storage
import Synchronization

/// Public keys of remote actors for the signature verifier: from the store when known, else
/// fetched and cached with their actor. `refresh: true` fetches again (keys rotate), at most
/// once per key per `refetchInterval`.
///
/// A key is trusted for an actor only by the origin rules (design §5; Fedify's `owner.ts`):
/// the documents are fetched from the key's own URL (`fetchAuthentic`: their `id` is where
/// they came from), the key id, its `owner` and the actor id share one origin, and the key is
/// listed by the actor's own document. So a server can speak only for its own accounts.
public struct RemoteKeyProvider: SignatureKeyProvider {
    public let fetcher: RemoteFetcher
    public let actors: Actors
    public let blocks: Blocks
    /// Parsed keys and their owners, so a busy inbox neither queries nor parses PEM per request.
    let parsed = ParsedKeys()
    let recent = RecentFetches()
    let budget = FetchBudget()
    /// The same for assertion keys (FEP-521a), kept apart: a key serves the purpose it is listed for.
    let parsedAssertionKeys = ParsedKeys()
    let recentAssertionKeys = RecentFetches()
    /// A key fetched this recently is what its server publishes now: a failing signature does
    /// not fetch it again. Short, so a rotated key is taken up within seconds; the per-host
    /// `FetchBudget` is what keeps bad requests from making the blog hammer a third party.
    static let refetchInterval: TimeInterval = 30
    /// A key that could not be had is not asked for again this soon.
    static let failureMemory: TimeInterval = 60

    public init(fetcher: RemoteFetcher, actors: Actors, blocks: Blocks) {
        self.fetcher = fetcher
        (self.actors, self.blocks) = (actors, blocks)
    }

    final class ParsedKeys: Sendable {
        private let keys = Mutex<[String: (owner: String, key: PublicKey)]>([:])
        subscript(keyId: String) -> (owner: String, key: PublicKey)? { keys.withLock { $0[keyId] } }
        func set(_ keyId: String, owner: String, key: PublicKey) {
            keys.withLock { keys in
                if keys.count > 10_000 { keys.removeAll() }  // a bound, not an LRU: refilling is cheap
                keys[keyId] = (owner, key)
            }
        }
    }

    /// The outcome of the last fetch of each key, for `refetchInterval` / `failureMemory`.
    final class RecentFetches: Sendable {
        enum Outcome { case key(PublicKey), failed(SignatureError) }
        private let entries = Mutex<[String: (at: Date, outcome: Outcome)]>([:])

        func lookup(_ keyId: String, now: Date) -> Outcome? {
            entries.withLock { entries in
                guard let entry = entries[keyId] else { return nil }
                let memory = if case .key = entry.outcome { RemoteKeyProvider.refetchInterval } else { RemoteKeyProvider.failureMemory }
                return now.timeIntervalSince(entry.at) < memory ? entry.outcome : nil
            }
        }

        func record(_ keyId: String, _ outcome: Outcome, now: Date) {
            entries.withLock { entries in
                if entries.count > 10_000 { entries = entries.filter { now.timeIntervalSince($0.value.at) < RemoteKeyProvider.refetchInterval } }
                entries[keyId] = (now, outcome)
            }
        }
    }

    /// The actor that owns a key this provider has seen (or the store knows).
    public func owner(ofKey keyId: String) throws -> String? {
        if let hit = parsed[keyId] { return hit.owner }
        return try actors.remoteKey(id: keyId)?.actorID
    }

    public func publicKey(for keyId: String, refresh: Bool) async throws -> PublicKey {
        if !refresh, let hit = parsed[keyId] { return hit.key }
        if !refresh, let cached = try actors.remoteKey(id: keyId) {
            let key = try Self.acceptable(try PublicKey(pem: cached.pem), keyId)
            parsed.set(keyId, owner: cached.actorID, key: key)
            return key
        }
        let now = Date()
        switch recent.lookup(keyId, now: now) {
        case .key(let key)?: return key
        case .failed(let error)?: throw error
        case nil: break
        }
        // A key on a blocked server is not fetched (whoever the activity names as its actor).
        if try blocks.isBlocked(actorID: keyId) { throw SignatureError.keyUnavailable("\(keyId) is on a blocked server") }
        guard let host = HostName.of(url: keyId), budget.take(host: host, now: now) else {
            throw SignatureError.keyTemporarilyUnavailable("key lookups to \(HostName.of(url: keyId) ?? keyId) are over their budget")
        }
        do {
            let (owner, key) = try await fetchKey(keyId)
            parsed.set(keyId, owner: owner, key: key)
            recent.record(keyId, .key(key), now: now)
            return key
        } catch let error as RemoteFetchError where error.isTemporary {
            // The sender is told to retry (503); the host is left alone for a while.
            budget.hostFailed(host, now: now)
            throw SignatureError.keyTemporarilyUnavailable(error.description)
        } catch let error as StoreError where error.isTemporary {
            // Busy, or a full disk: the key could not be saved. Not remembered as a refusal, so
            // the sender's retry (503) fetches it again.
            throw SignatureError.keyTemporarilyUnavailable(error.description)
        } catch {
            let refusal = error as? SignatureError ?? SignatureError.keyUnavailable("\(error)")
            recent.record(keyId, .failed(refusal), now: now)
            throw refusal
        }
    }

    /// Fetches `keyId` and the actor that owns it, applying the origin rules; saves both.
    func fetchKey(_ keyId: String) async throws -> (owner: String, key: PublicKey) {
        guard Origin(keyId) != nil else { throw SignatureError.keyUnavailable("\(keyId) is not an http(s) URL") }
        let document = try await fetcher.fetchAuthentic(Origin.withoutFragment(keyId))
        var actorDocument = document
        if !Self.isActor(document.object) {
            // A key document (GoToSocial and others) names its owner, whose own document must list it.
            guard let owner = document.object.owner else {
                throw SignatureError.keyUnavailable("\(document.url) is neither an actor nor a key with an owner")
            }
            guard Origin.same(owner, keyId) else {
                throw SignatureError.keyUnavailable("key \(keyId) names an owner on another origin: \(owner)")
            }
            actorDocument = try await fetcher.fetchAuthentic(owner)
            guard Self.isActor(actorDocument.object), Origin.normalized(actorDocument.id ?? "") == Origin.normalized(owner) else {
                throw SignatureError.keyUnavailable("the owner \(owner) of \(keyId) is not an actor document")
            }
        }
        guard let actor = ActorConversion.actor(from: actorDocument.object) else {
            throw SignatureError.keyUnavailable("\(actorDocument.url) is not a usable actor document")
        }
        guard Origin.same(actor.id, keyId) else {
            throw SignatureError.keyUnavailable("key \(keyId) and its actor \(actor.id) are on different origins")
        }
        let keys = ActorConversion.keys(from: actorDocument.object, owner: actor.id)
        guard let pem = keys.first(where: { $0.keyID == keyId })?.pem else {
            throw SignatureError.keyUnavailable("\(actor.id) does not list the key \(keyId)")
        }
        let key = try Self.acceptable(try PublicKey(pem: pem), keyId)
        // Only the key just fetched from its own URL may change owner; other keys the document
        // lists are recorded but never taken from another actor.
        try await actors.saveRemoteActor(actor, keys: keys, authoritativeKeyID: keyId,
                                        assertionKeys: ActorConversion.assertionKeys(from: actorDocument.object, owner: actor.id))
        return (actor.id, key)
    }

    /// An actor's assertion key (FEP-521a): the Ed25519 key `id` that `controller` lists in its
    /// own `assertionMethod`, for object integrity proofs (FEP-8b32). The same origin rules as
    /// `publicKey(for:)`: the key sits on its controller's origin, the documents are fetched from
    /// their own URLs, the controller's own document lists it; the same per-host budget. With
    /// `refresh`, the document is fetched again unless it was fetched in the last 30 seconds.
    public func assertionKey(id: String, controller: String, refresh: Bool = false) async throws -> PublicKey {
        guard Origin.same(id, controller) else {
            throw SignatureError.keyUnavailable("key \(id) is not on the origin of \(controller)")
        }
        if !refresh, let hit = parsedAssertionKeys[id], hit.owner == controller { return hit.key }
        if !refresh, let cached = try actors.assertionKey(id: id), cached.actorID == controller,
           let raw = Multikey.ed25519PublicKey(cached.multibase) {
            let key = try PublicKey(rawEd25519: raw)
            parsedAssertionKeys.set(id, owner: controller, key: key)
            return key
        }
        let now = Date()
        switch recentAssertionKeys.lookup(id, now: now) {
        case .key(let key)?: return key
        case .failed(let error)?: throw error
        case nil: break
        }
        if try blocks.isBlocked(actorID: controller) { throw SignatureError.keyUnavailable("\(controller) is blocked") }
        guard let host = HostName.of(url: id), budget.take(host: host, now: now) else {
            throw SignatureError.keyTemporarilyUnavailable("key lookups to \(HostName.of(url: id) ?? id) are over their budget")
        }
        do {
            let key = try await fetchAssertionKey(id, controller: controller)
            parsedAssertionKeys.set(id, owner: controller, key: key)
            recentAssertionKeys.record(id, .key(key), now: now)
            return key
        } catch let error as RemoteFetchError where error.isTemporary {
            budget.hostFailed(host, now: now)
            throw SignatureError.keyTemporarilyUnavailable(error.description)
        } catch let error as StoreError where error.isTemporary {
            throw SignatureError.keyTemporarilyUnavailable(error.description)
        } catch {
            let refusal = error as? SignatureError ?? SignatureError.keyUnavailable("\(error)")
            recentAssertionKeys.record(id, .failed(refusal), now: now)
            throw refusal
        }
    }

    /// Fetches the controller's document (the key id without its fragment, or the controller a
    /// key document names) and takes the key from its `assertionMethod`; saves the actor.
    func fetchAssertionKey(_ id: String, controller: String) async throws -> PublicKey {
        var document = try await fetcher.fetchAuthentic(Origin.withoutFragment(id))
        if !Self.isActor(document.object) {
            guard document.object.controller == controller else {
                throw SignatureError.keyUnavailable("\(document.url) is neither \(controller) nor a key it controls")
            }
            document = try await fetcher.fetchAuthentic(controller)
        }
        guard Self.isActor(document.object), Origin.normalized(document.id ?? "") == Origin.normalized(controller),
              let actor = ActorConversion.actor(from: document.object) else {
            throw SignatureError.keyUnavailable("\(controller) is not an actor document")
        }
        let keys = ActorConversion.assertionKeys(from: document.object, owner: actor.id)
        try await actors.saveRemoteActor(actor, keys: ActorConversion.keys(from: document.object, owner: actor.id), assertionKeys: keys)
        guard actor.id == controller, let listed = keys.first(where: { $0.keyID == id }),
              let raw = Multikey.ed25519PublicKey(listed.multibase) else {
            throw SignatureError.keyUnavailable("\(controller) does not list \(id) in its assertionMethod")
        }
        return try PublicKey(rawEd25519: raw)
    }

    /// RSA keys of 2048 to 4096 bits (the sizes Mastodon and its peers make) with a public
    /// exponent below 2³²: a weaker key proves nothing, and a larger one or a huge exponent would
    /// let a sender make every refused request cost the blog milliseconds of CPU.
    static let rsaBits = 2048...4096
    static let maximumExponentBits = 32

    static func acceptable(_ key: PublicKey, _ keyId: String) throws -> PublicKey {
        if case .rsa(let bits) = key.type {
            guard rsaBits.contains(bits) else {
                throw SignatureError.keyUnavailable("\(keyId) is an RSA key of \(bits) bits (accepted: 2048 to 4096)")
            }
            guard let exponent = key.rsaExponentBits, exponent <= maximumExponentBits else {
                throw SignatureError.keyUnavailable("\(keyId) has an RSA public exponent over 2^32")
            }
        }
        return key
    }

    static func isActor(_ document: APObject) -> Bool {
        document.inbox != nil && document.id != nil
    }
}
