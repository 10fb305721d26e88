import Foundation
import LecternCrypto
import Storage

/// The blog actor's signing keys over time (`lectern keys rotate`), kept as one store setting so
/// that a switch is atomic. The first key is `data/keys/actor.pem` with id `<actor>#main-key`
/// (Mastodon's shape); each rotation makes `actor-<token>.pem` with id `<actor>/keys/<token>`, a
/// URL of its own that answers with the key document. A retired key keeps answering for 7 days,
/// so that verifications of requests signed just before the switch still resolve. Beside each RSA
/// key is an Ed25519 key (`actor-ed25519.pem`, `actor-ed25519-<token>.pem`) for object integrity
/// proofs, rotated with it.
public struct ActorKeyring: Codable, Sendable, Equatable {
    public struct Retired: Codable, Sendable, Equatable {
        public var id: String
        public var publicKeyPem: String
        public var retiredAt: Date

        public init(id: String, publicKeyPem: String, retiredAt: Date) {
            (self.id, self.publicKeyPem, self.retiredAt) = (id, publicKeyPem, retiredAt)
        }
    }

    /// The current key's token; nil for the first key.
    public var current: String?
    /// The current (rotated) key's public half, so that its id answers in every process at once.
    public var currentPublicKeyPem: String?
    /// When the blog first federated (the actor's `published`), kept once the first key file is gone.
    public var published: Date?
    public var retired: [Retired] = []

    static let settingKey = "actor_keys"
    /// How long a retired key still answers.
    public static let retiredKeysAnswer: TimeInterval = 7 * 86_400

    public init() {}

    public static func load(from values: StoredValues) throws -> ActorKeyring {
        guard let text = try values.setting(settingKey) else { return ActorKeyring() }
        return try JSONDecoder().decode(ActorKeyring.self, from: Data(text.utf8))
    }

    package func save(to values: StoredValues) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        try values.setSetting(Self.settingKey, String(decoding: try encoder.encode(self), as: UTF8.self))
    }

    /// The current key's id.
    public func keyID(_ urls: FederationURLs) -> String { current.map { urls.actorKey($0) } ?? urls.actor + "#main-key" }

    /// The current key's name in the `KeyStore`.
    public var keyName: String { current.map { KeyStore.actor + "-" + $0 } ?? KeyStore.actor }

    /// The current Ed25519 key's id (FEP-521a: a fragment of the actor, another one for each key):
    /// `<actor>#ed25519-key` until a rotation, then `<actor>#ed25519-key-<token>`.
    public func assertionKeyID(_ urls: FederationURLs) -> String {
        urls.actor + "#" + Self.assertionKeyFragment + (current.map { "-" + $0 } ?? "")
    }

    static let assertionKeyFragment = "ed25519-key"

    /// The current Ed25519 key's name in the `KeyStore` (`actor-ed25519`, `actor-ed25519-<token>`):
    /// it makes the object integrity proofs (FEP-8b32) of what the blog sends.
    public var assertionKeyName: String { Self.assertionKeyName(token: current) }

    package static func assertionKeyName(token: String?) -> String { KeyStore.actor + "-ed25519" + (token.map { "-" + $0 } ?? "") }

    /// A retired key that still answers at `now`.
    public func retiredKey(id: String, now: Date) -> Retired? {
        retired.first { $0.id == id && now.timeIntervalSince($0.retiredAt) < Self.retiredKeysAnswer }
    }
}
