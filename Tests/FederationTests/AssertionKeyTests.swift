@testable import ActivityPub
import ActivityStreams
import DataIntegrity
import Foundation
import Testing

/// Which `assertionMethod` entries of an actor document are taken as its proof keys (FEP-521a).
@Suite struct AssertionKeyTests {
    static let actor = "https://a.example/users/alice"
    static let key = Multikey.ed25519(publicKey: [UInt8](repeating: 1, count: 32))

    func entry(_ changes: [String: Any?] = [:]) -> [String: Any] {
        var entry: [String: Any] = ["id": Self.actor + "#ed25519-key", "type": "Multikey", "controller": Self.actor,
                                    "publicKeyMultibase": Self.key]
        for (name, value) in changes { entry[name] = value }
        return entry
    }

    /// A document as a server sends it, read as every fetched document is.
    func document(_ fields: [String: Any]) -> APObject {
        try! APObject(json: Array(JSONSerialization.data(withJSONObject: fields)))
    }

    @Test func aMultikeyOfTheActorOnItsOriginIsTaken() {
        for listed: Any in [[entry()], entry(), [entry(["type": ["Multikey", "ex:Other"]])]] {
            let keys = ActorConversion.assertionKeys(from: document(["id": Self.actor, "assertionMethod": listed]), owner: Self.actor)
            #expect(keys.map(\.keyID) == [Self.actor + "#ed25519-key"])
            #expect(keys.first?.multibase == Self.key)
        }
    }

    @Test func anythingElseIsLeftOut() {
        let refused: [(String, [String: Any])] = [
            ("another controller", entry(["controller": "https://a.example/users/bob"])),
            ("no controller", entry(["controller": nil])),
            ("a key id on another origin", entry(["id": "https://b.example/keys/1"])),
            ("not a Multikey", entry(["type": "JsonWebKey"])),
            ("an X25519 key", entry(["publicKeyMultibase": Multibase.encode([0xEC, 0x01] + [UInt8](repeating: 1, count: 32))])),
            ("not base58btc", entry(["publicKeyMultibase": "u" + String(Self.key.dropFirst())])),
            ("an expiry", entry(["expires": "2999-01-01T00:00:00Z"])),
            ("no id", entry(["id": nil])),
        ]
        for (name, listed) in refused {
            #expect(ActorConversion.assertionKeys(from: document(["id": Self.actor, "assertionMethod": [listed]]), owner: Self.actor).isEmpty,
                    "\(name)")
        }
        // Keys listed under `publicKey` are not assertion keys.
        #expect(ActorConversion.assertionKeys(from: document(["id": Self.actor, "publicKey": entry()]), owner: Self.actor).isEmpty)
    }
}
