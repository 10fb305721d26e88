import Foundation
import HTTPSignatures
import LecternCrypto
import Store
import Synchronization

/// Public keys of remote actors for the signature verifier: from the store when known, else
/// fetched (the `keyId` without its fragment, which is the actor document or a key document
/// with an `owner`) and cached with the actor. `refresh: true` fetches again (keys rotate).
public struct RemoteKeyProvider: SignatureKeyProvider {
    public let fetcher: RemoteFetcher
    public let store: Store
    /// Parsed keys and their owners, so a busy inbox neither queries nor parses PEM per request.
    let parsed = ParsedKeys()

    public init(fetcher: RemoteFetcher, store: Store) {
        self.fetcher = fetcher
        self.store = store
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

    /// The actor that owns a key this provider has seen (or the store knows).
    public func owner(ofKey keyId: String) throws -> String? {
        if let hit = parsed[keyId] { return hit.owner }
        return try store.remoteKey(id: keyId)?.actorID
    }

    public func publicKey(for keyId: String, refresh: Bool) async throws -> PublicKey {
        if !refresh, let hit = parsed[keyId] { return hit.key }
        if !refresh, let cached = try store.remoteKey(id: keyId) {
            let key = try PublicKey(pem: cached.pem)
            parsed.set(keyId, owner: cached.actorID, key: key)
            return key
        }
        let documentURL = keyId.split(separator: "#", maxSplits: 1).first.map(String.init) ?? keyId
        var document = try await fetcher.fetchObject(documentURL)
        // A key document (GoToSocial, some others) names its owner: the actor holds the inbox.
        if document["inbox"] == nil, let owner = document["owner"] as? String {
            document = try await fetcher.fetchObject(owner)
        }
        guard let actor = Self.actor(from: document) else {
            throw SignatureError.keyUnavailable("\(documentURL) is not an actor document")
        }
        let keys = Self.keys(from: document, owner: actor.id)
        guard let pem = keys.first(where: { $0.keyID == keyId })?.pem else {
            throw SignatureError.keyUnavailable("\(actor.id) does not publish the key \(keyId)")
        }
        try store.saveRemoteActor(actor, keys: keys)
        let key = try PublicKey(pem: pem)
        parsed.set(keyId, owner: actor.id, key: key)
        return key
    }

    static func actor(from document: [String: Any]) -> RemoteActor? {
        guard let id = document["id"] as? String, let inbox = document["inbox"] as? String else { return nil }
        let endpoints = document["endpoints"] as? [String: Any]
        // The handle's domain keeps a non-default port, as Mastodon's does.
        let parts = URLComponents(string: id)
        let host = parts?.host.map { host in host + (parts?.port.map { ":\($0)" } ?? "") }
        let handle = (document["preferredUsername"] as? String).flatMap { name in host.map { "@\(name)@\($0)" } }
        let icon = (document["icon"] as? [String: Any])?["url"] as? String ?? document["icon"] as? String
        return RemoteActor(id: id, handle: handle, name: document["name"] as? String, url: document["url"] as? String,
                           icon: icon, inbox: inbox, sharedInbox: endpoints?["sharedInbox"] as? String)
    }

    /// `publicKey` may be one object or an array; a key must name this actor as its owner.
    static func keys(from document: [String: Any], owner: String) -> [(keyID: String, pem: String)] {
        let raw: [[String: Any]]
        if let one = document["publicKey"] as? [String: Any] { raw = [one] }
        else { raw = document["publicKey"] as? [[String: Any]] ?? [] }
        return raw.compactMap { key in
            guard let id = key["id"] as? String, let pem = key["publicKeyPem"] as? String,
                  (key["owner"] as? String ?? owner) == owner else { return nil }
            return (id, pem)
        }
    }
}
