import Foundation
import HTTPSignatures
import Storage
import Testing
@testable import WebServer

/// A dishonest server (a second fake instance, on another port: another origin) tries to speak
/// for accounts of an honest one. Each attempt is refused, and no table changes, cached actors
/// and keys included (the design's origin rules, §5).
@Suite(.serialized) struct ImpersonationTests {
    let honest: FakeInstance
    let attacker: FakeInstance
    let blog: BlogFixture

    init() async throws {
        honest = try FakeInstance()
        try await honest.start()
        attacker = try FakeInstance(names: ["eve"])
        try await attacker.start()
        blog = try await BlogFixture(remote: honest)
    }

    func stop() {
        blog.stop()
        honest.stop()
        attacker.stop()
    }

    /// Sends each request and checks it is refused with `status` and that nothing was stored.
    func expectRefused(_ requests: [(name: String, request: HTTPRequestParts)], status: Int = 401) async throws {
        for (name, request) in requests {
            let before = try blog.store.rowCounts().filter { $0.key != "inbox_counts" }
            let actors = try blog.store.actors.remoteActor(id: honest.actorID("alice"))
            #expect(try await attacker.post(request) == status, "\(name)")
            #expect(try await eventually { try blog.store.inbox.inboundBacklog() == 0 })
            #expect(try blog.store.rowCounts().filter { $0.key != "inbox_counts" } == before, "\(name) changed a table")
            #expect(try blog.store.actors.remoteActor(id: honest.actorID("alice")) == actors, "\(name) changed alice's record")
        }
    }

    /// alice's real comment, the thing the attacker wants to forge, delete or answer for.
    func aliceComments() async throws -> String {
        let note = honest.base.value + "/notes/alice-real"
        #expect(try await honest.send(blog.create(blog.note(note, by: honest, "alice", inReplyTo: blog.postID,
                                                            content: "<p>The real alice.</p>"), by: honest, "alice"),
                                      as: "alice", to: blog.sharedInbox) == 202)
        #expect(try await eventually { try blog.store.comments.comment(id: note) != nil && blog.store.inbox.inboundBacklog() == 0 })
        return note
    }

    @Test func keyDocumentClaimingAnotherAccountIsRefused() async throws {
        defer { stop() }
        let realNote = try await aliceComments()
        let alice = honest.actorID("alice")
        let evePEM = try attacker.keys["eve"]!.publicKey.pemSPKI()
        // At its own keyId URL, the attacker serves "alice" (her id, his inbox, his key)…
        let forgedKeyID = attacker.base.value + "/keys/evil#main-key"
        attacker.serve("/keys/evil", ["@context": ["https://www.w3.org/ns/activitystreams", "https://w3id.org/security/v1"],
                                      "id": alice, "type": "Person", "preferredUsername": "alice", "name": "Alice (forged)",
                                      "inbox": attacker.base.value + "/inbox",
                                      "publicKey": ["id": forgedKeyID, "owner": alice, "publicKeyPem": evePEM]])
        // …and a key document whose owner is alice.
        let keyDocumentID = attacker.base.value + "/keys/owned-by-alice"
        attacker.serve("/keys/owned-by-alice", ["id": keyDocumentID, "type": "CryptographicKey", "owner": alice, "publicKeyPem": evePEM])
        func asAlice(_ activity: [String: Any], keyID: String) throws -> HTTPRequestParts {
            try attacker.signedPost(activity, as: "eve", to: blog.sharedInbox, keyID: keyID)
        }
        let forgedNote = honest.base.value + "/notes/forged"
        let forgedCreate = blog.create(blog.note(forgedNote, by: honest, "alice", inReplyTo: blog.postID,
                                                 content: "<p>I, alice, endorse evil.</p>"), by: honest, "alice")
        var requests: [(String, HTTPRequestParts)] = []
        for keyID in [forgedKeyID, keyDocumentID] {
            requests.append(("forged comment via \(keyID)", try asAlice(forgedCreate, keyID: keyID)))
            requests.append(("deleting alice's comment via \(keyID)",
                             try asAlice(["id": alice + "#delete-\(keyID.count)", "type": "Delete", "actor": alice,
                                          "object": ["id": realNote, "type": "Tombstone"]], keyID: keyID)))
            requests.append(("following as alice via \(keyID)",
                             try asAlice(["id": alice + "/follows/\(keyID.count)", "type": "Follow", "actor": alice,
                                          "object": blog.actor], keyID: keyID)))
        }
        try await expectRefused(requests)
        #expect(try blog.store.comments.comment(id: realNote) != nil)
        #expect(try blog.store.comments.comment(id: forgedNote) == nil)
        #expect(try !blog.store.followers.isFollower(alice))
        try await Task.sleep(for: .milliseconds(500))
        #expect(attacker.activities(type: "Accept").isEmpty, "no Accept went to the attacker")
        #expect(try blog.store.actors.remoteActor(id: alice)?.inbox == alice + "/inbox")
    }

    @Test func updateCannotTakeAnotherActorsKey() async throws {
        defer { stop() }
        _ = try await aliceComments()
        let alice = honest.actorID("alice"), mallory = honest.actorID("mallory")
        let aliceKey = honest.keyID("alice")
        // mallory (same server) announces a profile that lists alice's key id with her own key.
        let forgedProfile: [String: Any] = [
            "id": mallory, "type": "Person", "preferredUsername": "mallory", "inbox": mallory + "/inbox",
            "publicKey": [["id": aliceKey, "owner": mallory, "publicKeyPem": try honest.keys["mallory"]!.publicKey.pemSPKI()]],
        ]
        #expect(try await honest.send(["id": mallory + "#updates/1", "type": "Update", "actor": mallory, "object": forgedProfile],
                                      as: "mallory", to: blog.sharedInbox) == 202)
        #expect(try await eventually { try blog.store.inbox.inboundBacklog() == 0 })
        #expect(try blog.store.actors.remoteKey(id: aliceKey)?.actorID == alice, "alice's key stays hers")
        #expect(try blog.store.actors.remoteKey(id: aliceKey)?.pem == (try honest.keys["alice"]!.publicKey.pemSPKI()))
        // alice can still comment; a fresh runtime (a restart) reads the same store.
        let second = honest.base.value + "/notes/alice-2"
        #expect(try await honest.send(blog.create(blog.note(second, by: honest, "alice", inReplyTo: blog.postID,
                                                            content: "<p>Still me.</p>"), by: honest, "alice"),
                                      as: "alice", to: blog.sharedInbox) == 202)
        #expect(try await eventually { try blog.store.comments.comment(id: second)?.authorID == alice })
    }

    @Test func objectIDsOnAnotherOriginAreRefused() async throws {
        defer { stop() }
        let eve = attacker.actorID("eve"), bob = honest.actorID("bob")
        // eve is a real account: her key is known before the attempts (looking it up is no harm).
        #expect(try await attacker.send(["id": eve + "/likes/0", "type": "Like", "actor": eve, "object": blog.base + "/2099/none/"],
                                        as: "eve", to: blog.sharedInbox) == 202)
        #expect(try await eventually { try blog.store.inbox.inboundBacklog() == 0 })
        // eve squats an id on bob's server for her note, and ids on alice's server for her reactions.
        let squatted = honest.base.value + "/notes/bob-real"
        let note = blog.note(squatted, by: attacker, "eve", inReplyTo: blog.postID, content: "<p>eve's words</p>")
        let squattedLike = honest.actorID("alice") + "/likes/1"
        try await expectRefused([
            ("a note with an id on bob's server", try attacker.signedPost(blog.create(note, by: attacker, "eve"), as: "eve",
                                                                          to: blog.sharedInbox)),
            ("a Create whose own id is on bob's server", try attacker.signedPost(
                ["id": squatted + "/activity", "type": "Create", "actor": eve, "object": note], as: "eve", to: blog.sharedInbox)),
            ("a Like with an id on alice's server", try attacker.signedPost(
                ["id": squattedLike, "type": "Like", "actor": eve, "object": blog.postID], as: "eve", to: blog.sharedInbox)),
            ("an Update of bob's note", try attacker.signedPost(
                ["id": eve + "#u", "type": "Update", "actor": eve, "object": note], as: "eve", to: blog.sharedInbox)),
            ("an Undo of alice's like", try attacker.signedPost(
                ["id": eve + "#undo", "type": "Undo", "actor": eve, "object": squattedLike], as: "eve", to: blog.sharedInbox)),
        ])
        // The real owners of those ids are not locked out.
        #expect(try await honest.send(blog.create(blog.note(squatted, by: honest, "bob", inReplyTo: blog.postID,
                                                            content: "<p>bob's real words</p>"), by: honest, "bob"),
                                      as: "bob", to: blog.sharedInbox) == 202)
        #expect(try await eventually { try blog.store.comments.comment(id: squatted)?.authorID == bob })
        #expect(try await honest.send(["id": squattedLike, "type": "Like", "actor": honest.actorID("alice"), "object": blog.postID],
                                      as: "alice", to: blog.sharedInbox) == 202)
        #expect(try await eventually { try blog.store.reactions.reactionCounts(postPath: blog.post).likes == 1 })
    }

    @Test func badSignaturesDoNotMultiplyKeyFetches() async throws {
        defer { stop() }
        let alice = honest.actorID("alice")
        // Signed with the wrong key, under alice's key id: each is refused, and alice's server is
        // asked for her key once, not once or twice per request.
        for n in 0..<6 {
            let request = try honest.signedPost(["id": alice + "/likes/bad-\(n)", "type": "Like", "actor": alice, "object": blog.postID],
                                                as: "alice", to: blog.sharedInbox, key: "mallory")
            #expect(try await honest.post(request) == 401)
        }
        #expect(honest.getCount("/users/alice") == 1)
    }
}
