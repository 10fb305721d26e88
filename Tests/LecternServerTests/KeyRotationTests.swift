import Foundation
import HTTPSignatures
import LecternCrypto
import Testing

/// `lectern keys rotate` through the real executable, against a running server, with a fake
/// remote that verifies every delivery by fetching the key it names.
@Suite(.serialized) struct KeyRotationTests {
    @Test func rotatedKeysSignAtOnceAndRetiredOnesStillAnswer() async throws {
        try await withBlog(follower: "alice") { remote, blog in
            // alice's Accept delivered before the keys change, so it is not signed mid-rotation.
            try await served("Accept to alice") { !remote.activities(type: "Accept").isEmpty }
            let before = try #require(try await blog.getJSON("/actor")["publicKey"] as? [String: Any])
            #expect(before["id"] as? String == blog.actor + "#main-key")

            let rotated = try lectern(["keys", "rotate"], site: blog.root)
            #expect(rotated.contains("rotated: signing with \(blog.actor)/keys/"), "\(rotated)")
            try await served("actor names the new key") {
                (try await blog.getJSON("/actor")["publicKey"] as? [String: Any])?["id"] as? String != before["id"] as? String
            }
            let first = try #require(try await blog.getJSON("/actor")["publicKey"] as? [String: Any])
            let firstID = try #require(first["id"] as? String)
            #expect(firstID.hasPrefix(blog.actor + "/keys/k"))
            #expect(first["publicKeyPem"] as? String != before["publicKeyPem"] as? String)
            #expect(!FileManager.default.fileExists(atPath: blog.root.appendingPathComponent("data/keys/actor.pem").path),
                    "the old private key is gone")

            // Followers get Update(Person), signed with the new key, which their server fetches at its id.
            try await served("Update(Person) delivered") { remote.activities(type: "Update").contains { $0.object?["type"] as? String == "Person" } }
            let update = try #require(remote.activities(type: "Update").first { $0.object?["type"] as? String == "Person" })
            #expect(update.verifiedKeyID == firstID)
            #expect((update.object?["publicKey"] as? [String: Any])?["id"] as? String == firstID)
            let keyDocument = try await blog.getJSON(String(firstID.dropFirst(blog.base.count)))
            #expect(keyDocument["type"] as? String == "CryptographicKey")
            #expect(keyDocument["owner"] as? String == blog.actor)
            #expect(keyDocument["publicKeyPem"] as? String == first["publicKeyPem"] as? String)
            #expect(try lectern(["keys", "show"], site: blog.root).contains("keyId: \(firstID)"))

            // A second rotation: the first rotated key still answers, so a request signed with it
            // just before the switch still verifies; a follow now is accepted under the newest key.
            let keyFile = try #require(try FileManager.default.contentsOfDirectory(atPath: blog.root.appendingPathComponent("data/keys").path)
                .first { $0.hasPrefix("actor-") && !$0.hasPrefix("actor-ed25519") })
            let firstKey = try KeyFile.load(at: blog.root.appendingPathComponent("data/keys/\(keyFile)"))
            try lectern(["keys", "rotate"], site: blog.root)
            try await served("second rotation served") {
                (try await blog.getJSON("/actor")["publicKey"] as? [String: Any])?["id"] as? String != firstID
            }
            let secondID = try #require((try await blog.getJSON("/actor")["publicKey"] as? [String: Any])?["id"] as? String)
            let retired = try await blog.getJSON(String(firstID.dropFirst(blog.base.count)))
            #expect(retired["publicKeyPem"] as? String == first["publicKeyPem"] as? String, "a retired key answers for 7 days")
            var late = HTTPRequestParts(method: "POST", url: remote.sharedInbox, headers: [("Content-Type", "application/activity+json")],
                                        body: Array(#"{"type":"Note"}"#.utf8))
            try CavageSigner(keyId: firstID, key: firstKey).sign(&late)
            #expect(try await SignatureVerifier().verify(late, keys: HTTPKeyFetcher()).keyId == firstID, "a late verification resolves")
            #expect(try blog.runtime.activityPub.keyDocument(token: String(firstID.split(separator: "/").last!),
                                                             now: Date().addingTimeInterval(8 * 86_400)) == nil, "and stops after 7 days")

            try await blog.follow(by: remote, "bob")
            try await served("Accept signed with the newest key") { remote.activities(type: "Accept").contains { $0.verifiedKeyID == secondID } }
            #expect(remote.received.value.allSatisfy { $0.verifiedKeyID != nil }, "every delivery verified")
            #expect(try await blog.get("/actor/keys/k1").status == 404)
        }
    }
}
