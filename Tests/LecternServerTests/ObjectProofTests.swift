import DataIntegrity
import Foundation
import HTTPSignatures
import LecternCrypto
import Storage
import Testing
@testable import WebServer

/// Object integrity proofs (FEP-8b32) through the real server: a proof by the author's own key
/// saves the blog fetching the object from the author's server, and nothing else. Every way a
/// proof can lie — another origin's key, another actor's, a document changed after signing, a
/// proof on the wrapper only, an old one replayed — ends on the path the blog took before proofs:
/// the object fetched from its origin (an `Announce`), or the request refused (a relayed
/// activity). The hostile cases come first.
@Suite(.serialized) struct ObjectProofTests {
    let honest: FakeInstance
    /// Another origin: a group that boosts (announces) and relays, or an attacker.
    let relay: FakeInstance
    let blog: BlogFixture

    init() async throws {
        honest = try FakeInstance(assertionMethods: true)
        try await honest.start()
        relay = try FakeInstance(names: ["group", "eve"], assertionMethods: true)
        try await relay.start()
        blog = try await BlogFixture(remote: honest)
    }

    func stop() {
        blog.stop()
        honest.stop()
        relay.stop()
    }

    /// alice's reply to the blog's post, served by her server at its id.
    func aliceNote(_ name: String, content: String = "<p>Hello from alice.</p>") -> (id: String, path: String, note: [String: Any]) {
        let path = "/notes/\(name)"
        let id = honest.base.value + path
        var note = blog.note(id, by: honest, "alice", inReplyTo: blog.postID, content: content)
        note["@context"] = ["https://www.w3.org/ns/activitystreams", "https://w3id.org/security/data-integrity/v1"]
        honest.serve(path, note)
        return (id, path, note)
    }

    /// The group's `Announce` of `object`, embedded.
    func announce(_ object: [String: Any], _ number: Int) -> [String: Any] {
        let group = relay.actorID("group")
        return ["@context": "https://www.w3.org/ns/activitystreams", "id": group + "/announces/\(number)", "type": "Announce",
                "actor": group, "object": object, "to": ["https://www.w3.org/ns/activitystreams#Public"]]
    }

    /// Sends the group's Announce and waits for the inbox to settle.
    func announced(_ object: [String: Any], _ number: Int) async throws {
        #expect(try await relay.send(announce(object, number), as: "group", to: blog.sharedInbox) == 202)
        #expect(try await eventually { try blog.store.inbox.inboundBacklog() == 0 })
    }

    // MARK: hostile: each ends on today's path

    @Test func aDocumentChangedAfterSigningIsFetchedFromItsOrigin() async throws {
        defer { stop() }
        let (id, path, note) = aliceNote("changed", content: "<p>What alice wrote.</p>")
        var forged = try honest.prove(note, by: "alice")
        forged["content"] = "<p>What the group says alice wrote.</p>"
        try await announced(forged, 1)
        #expect(honest.getCount(path) == 1, "fetched from alice's server")
        #expect(try blog.store.comments.comment(id: id)?.contentHTML.contains("What alice wrote.") == true)
    }

    @Test func aProofByAKeyOfAnotherOriginIsNoProof() async throws {
        defer { stop() }
        let (id, path, note) = aliceNote("other-origin", content: "<p>Real.</p>")
        var changed = note
        changed["content"] = "<p>Forged.</p>"
        // eve's key, on her origin, under her id and under a made-up id there; and a key document
        // on the relay's origin that claims alice as its controller.
        relay.serve("/keys/alice", ["id": relay.base.value + "/keys/alice", "type": "Multikey", "controller": honest.actorID("alice"),
                                    "publicKeyMultibase": Multikey.ed25519(publicKey: try relay.assertionKeys["eve"]!.publicKey.rawEd25519())])
        let methods = [relay.assertionKeyID("eve"), relay.base.value + "/keys/alice"]
        for (number, method) in methods.enumerated() {
            try await announced(try relay.prove(changed, by: "eve", keyID: method), number + 1)
        }
        #expect(honest.getCount(path) == methods.count, "fetched from alice's server, each time")
        #expect(relay.getCount("/keys/alice") == 0, "a key on another origin than the author's is never even looked up")
        #expect(try blog.store.comments.comment(id: id)?.contentHTML.contains("Real.") == true)
    }

    @Test func aProofByAnotherActorOfTheSameServerIsNoProof() async throws {
        defer { stop() }
        let (id, path, note) = aliceNote("mallory", content: "<p>Real.</p>")
        var changed = note
        changed["content"] = "<p>Mallory's words in alice's mouth.</p>"
        // mallory's own key, properly listed in her own document: her controller is not the author.
        try await announced(try honest.prove(changed, by: "mallory"), 1)
        #expect(honest.getCount(path) == 1)
        #expect(try blog.store.comments.comment(id: id)?.contentHTML.contains("Real.") == true)
        // mallory's key under alice's key id: the key alice lists is not mallory's.
        let (id2, path2, note2) = aliceNote("mallory-2", content: "<p>Real too.</p>")
        var changed2 = note2
        changed2["content"] = "<p>Forged.</p>"
        try await announced(try honest.prove(changed2, by: "alice", key: honest.assertionKeys["mallory"]!), 2)
        #expect(honest.getCount(path2) == 1)
        #expect(try blog.store.comments.comment(id: id2)?.contentHTML.contains("Real too.") == true)
        // alice's RSA key id (her `publicKey`, not her `assertionMethod`), and a key id she does not list.
        for (number, method) in [honest.keyID("alice"), honest.actorID("alice") + "#other-key"].enumerated() {
            let (id3, path3, note3) = aliceNote("unlisted-\(number)", content: "<p>Real three.</p>")
            try await announced(try honest.prove(note3, by: "alice", keyID: method), 3 + number)
            #expect(honest.getCount(path3) == 1, "\(method)")
            #expect(try blog.store.comments.comment(id: id3) != nil)
        }
    }

    @Test func aProofOnTheAnnounceButNotTheObjectVouchesForTheAnnouncerOnly() async throws {
        defer { stop() }
        let (id, path, note) = aliceNote("wrapper", content: "<p>Real.</p>")
        var changed = note
        changed["content"] = "<p>The group's version.</p>"
        let signedAnnounce = try relay.prove(announce(changed, 1), by: "group")
        #expect(try await relay.send(signedAnnounce, as: "group", to: blog.sharedInbox) == 202)
        #expect(try await eventually { try blog.store.inbox.inboundBacklog() == 0 })
        #expect(honest.getCount(path) == 1)
        #expect(try blog.store.comments.comment(id: id)?.contentHTML.contains("Real.") == true)
    }

    @Test func aStaleOrFutureProofIsNoProof() async throws {
        defer { stop() }
        for (number, created) in [Date().addingTimeInterval(-2 * 86_400), Date().addingTimeInterval(3 * 3600)].enumerated() {
            let (id, path, note) = aliceNote("dated-\(number)")
            try await announced(try honest.prove(note, by: "alice", created: created), number + 1)
            #expect(honest.getCount(path) == 1, "\(created)")
            #expect(try blog.store.comments.comment(id: id) != nil)
        }
    }

    /// Without a valid proof by its actor, a relayed activity is what the actor's own server
    /// serves: a copy the origin does not vouch for is refused (401), a changed one is applied as
    /// the origin has it, never as the relay sent it.
    @Test func aRelayedActivityWithoutTheActorsProofIsCheckedAtItsOrigin() async throws {
        defer { stop() }
        // Not at its origin at all (neither the activity nor the note is served): refused.
        let (id, path, note) = aliceNote("relayed-forged", content: "<p>Forged.</p>")
        honest.serve(path, ["id": id, "type": "Tombstone"])
        let create = blog.create(note, by: honest, "alice")
        let attempts: [(String, [String: Any])] = [
            ("no proof", create),
            ("eve's key under alice's key id", try relay.prove(create, by: "eve", keyID: honest.assertionKeyID("alice"))),
            ("eve's own key", try relay.prove(create, by: "eve")),
            ("mallory's key", try honest.prove(create, by: "mallory")),
            ("alice's proof, then changed", {
                var changed = try! honest.prove(create, by: "alice")
                changed["to"] = ["https://www.w3.org/ns/activitystreams#Public", relay.actorID("eve")]
                return changed
            }()),
            ("alice's proof of two days ago", try honest.prove(create, by: "alice", created: Date().addingTimeInterval(-2 * 86_400))),
        ]
        for (name, activity) in attempts {
            #expect(try await relay.send(activity, as: "eve", to: blog.sharedInbox) == 401, "\(name)")
        }
        #expect(try await eventually { try blog.store.inbox.inboundBacklog() == 0 })
        #expect(try blog.store.comments.comment(id: id) == nil)

        // Served by alice's server, with other words than the relay's: hers are what shows.
        let (realID, realPath, realNote) = aliceNote("relayed-real", content: "<p>What alice wrote.</p>")
        var doctored = realNote
        doctored["content"] = "<p>What eve says alice wrote.</p>"
        #expect(try await relay.send(blog.create(doctored, by: honest, "alice"), as: "eve", to: blog.sharedInbox) == 202)
        #expect(try await eventually { try blog.store.comments.comment(id: realID)?.contentHTML.contains("What alice wrote.") == true })
        #expect(honest.getCount(realPath) == 1)
        #expect(try blog.store.comments.comment(id: realID)?.contentHTML.contains("eve") == false)

        // A Delete stands only when its object is gone at its origin.
        let deleteID = honest.actorID("alice") + "/deletes/1"
        let delete: [String: Any] = ["@context": "https://www.w3.org/ns/activitystreams", "id": deleteID, "type": "Delete",
                                     "actor": honest.actorID("alice"), "object": realID]
        #expect(try await relay.send(delete, as: "eve", to: blog.sharedInbox) == 401, "it still exists")
        #expect(try blog.store.comments.comment(id: realID) != nil)
    }

    /// What the origin serves is held to the inbox's own size bound: a relay cannot make the blog
    /// store a larger document than it would take from the actor.
    @Test func anOriginsCopyOverTheInboxBoundIsRefused() async throws {
        defer { stop() }
        let (id, path, note) = aliceNote("large", content: "<p>" + String(repeating: "words ", count: 50_000) + "</p>")
        var relayed = note
        relayed["content"] = "<p>A short copy.</p>"  // the relay's copy is small; the origin's is not
        #expect(try await relay.send(blog.create(relayed, by: honest, "alice"), as: "eve", to: blog.sharedInbox) == 413)
        #expect(honest.getCount(path) == 1)
        #expect(try await eventually { try blog.store.inbox.inboundBacklog() == 0 })
        #expect(try blog.store.comments.comment(id: id) == nil)
    }

    /// Each check at an origin is a GET a stranger made the blog send: 10 a minute to one server,
    /// then the relay is told to come back later (503), and the server hears no more.
    @Test func checksAtAnOriginAreBounded() async throws {
        defer { stop() }
        var statuses: [Int] = []
        for number in 0..<16 {
            let (_, _, note) = aliceNote("flood-\(number)")
            statuses.append(try await relay.send(blog.create(note, by: honest, "alice"), as: "eve", to: blog.sharedInbox))
        }
        #expect(statuses.filter { $0 == 202 }.count == 10, "\(statuses)")
        #expect(statuses.filter { $0 == 503 }.count == 6, "\(statuses)")
        let fetched = (0..<16).reduce(0) { $0 + honest.getCount("/notes/flood-\($1)") + honest.getCount("/notes/flood-\($1)/activity") }
        #expect(fetched <= 20, "\(fetched) GETs for 16 relayed activities")
    }

    // MARK: what a valid proof saves

    @Test func anAnnouncedObjectWithItsAuthorsProofIsNotFetched() async throws {
        defer { stop() }
        let (id, path, note) = aliceNote("proven", content: "<p>Proven.</p>")
        try await announced(try honest.prove(note, by: "alice"), 1)
        #expect(try blog.store.comments.comment(id: id)?.authorID == honest.actorID("alice"))
        #expect(honest.getCount(path) == 0, "the object was not fetched")
        // The key was recorded with alice, from her own document, for the next proof.
        #expect(try blog.store.actors.assertionKey(id: honest.assertionKeyID("alice"))?.actorID == honest.actorID("alice"))
        // Without a proof, as before: fetched.
        let (id2, path2, note2) = aliceNote("unproven")
        try await announced(note2, 2)
        #expect(honest.getCount(path2) == 1)
        #expect(try blog.store.comments.comment(id: id2) != nil)
    }

    @Test func anAnnouncedActivityWithItsActorsProofIsNotFetched() async throws {
        defer { stop() }
        let (id, path, note) = aliceNote("proven-activity", content: "<p>Proven activity.</p>")
        let create = try honest.prove(blog.create(note, by: honest, "alice"), by: "alice")
        try await announced(create, 1)
        #expect(try blog.store.comments.comment(id: id)?.authorID == honest.actorID("alice"))
        #expect(honest.getCount(path) == 0 && honest.getCount(path + "/activity") == 0)
    }

    /// alice's `Update` of her note, with the note's text and `updated` date.
    func aliceUpdate(_ note: [String: Any], _ number: Int, content: String, updated: Date) -> [String: Any] {
        var edited = note
        edited["content"] = content
        edited["updated"] = ISO8601DateFormatter().string(from: updated)
        return ["@context": ["https://www.w3.org/ns/activitystreams", "https://w3id.org/security/data-integrity/v1"],
                "id": "\(note["id"]!)/updates/\(number)", "type": "Update", "actor": honest.actorID("alice"),
                "to": note["to"]!, "cc": note["cc"]!, "object": edited]
    }

    /// An author's proven activity can be replayed by anyone who saw it (every follower): inside
    /// an Announce it is taken once by its id, as if delivered, and an older edit never
    /// replaces a newer one.
    @Test func anAnnouncedOldEditDoesNotUndoANewerOne() async throws {
        defer { stop() }
        let (id, _, note) = aliceNote("edited", content: "<p>v0</p>")
        #expect(try await honest.send(blog.create(note, by: honest, "alice"), as: "alice", to: blog.sharedInbox) == 202)
        #expect(try await eventually { try blog.store.comments.comment(id: id) != nil })
        let old = try honest.prove(aliceUpdate(note, 1, content: "<p>v1, since retracted</p>", updated: Date().addingTimeInterval(-600)),
                                   by: "alice")
        let current = try honest.prove(aliceUpdate(note, 2, content: "<p>v2, current</p>", updated: Date()), by: "alice")
        #expect(try await honest.send(current, as: "alice", to: blog.sharedInbox) == 202)
        #expect(try await eventually { try blog.store.comments.comment(id: id)?.contentHTML.contains("v2") == true })
        try await announced(old, 1)
        #expect(try blog.store.comments.comment(id: id)?.contentHTML.contains("v2") == true, "an older edit, announced, is stale")
        try await announced(current, 2)
        #expect(try blog.store.comments.comment(id: id)?.contentHTML.contains("v2") == true)
    }

    /// Only what a group shares (FEP-1b12: Create, Update, Delete, Like) is taken from an
    /// Announce: a replayed Follow does not make its author follow the blog again.
    @Test func anAnnouncedFollowIsNotTaken() async throws {
        defer { stop() }
        let follow: [String: Any] = ["@context": ["https://www.w3.org/ns/activitystreams", "https://w3id.org/security/data-integrity/v1"],
                                     "id": honest.actorID("alice") + "/follows/9", "type": "Follow",
                                     "actor": honest.actorID("alice"), "object": blog.actor]
        try await announced(try honest.prove(follow, by: "alice"), 1)
        #expect(try !blog.store.followers.isFollower(honest.actorID("alice")))
    }

    /// A relay's `Collection-Synchronization` (FEP-8fcf) speaks for the relay, not for the actor
    /// whose proven activity it carries: it starts no reconciliation of the actor's server.
    @Test func aRelaysSynchronizationHeaderIsNotTheActors() async throws {
        defer { stop() }
        let alice = honest.actorID("alice")
        try honest.serveActor("alice", ["followers": alice + "/followers"])
        try await blog.follow(by: honest, "alice")  // the blog knows her actor, then follows her back
        try blog.store.following.recordFollow(actorID: alice, followActivityID: blog.actor + "#follows/alice")
        _ = try blog.store.following.answerFollow(actorID: alice, followActivityID: blog.actor + "#follows/alice", accepted: true)
        let (_, _, note) = aliceNote("relayed-sync")
        var parts = try relay.signedPost(try honest.prove(blog.create(note, by: honest, "alice"), by: "alice"), as: "eve",
                                         to: blog.sharedInbox)
        parts.headers.append(("Collection-Synchronization", "collectionId=\"\(alice)/followers\", url=\"\(alice)/sync\", "
                              + "digest=\"\(String(repeating: "0", count: 64))\""))
        #expect(try await relay.post(parts) == 202)
        #expect(try await eventually { try blog.store.inbox.inboundBacklog() == 0 })
        try await Task.sleep(for: .milliseconds(300))
        #expect(honest.getCount("/users/alice/sync") == 0)
    }

    @Test func aRelayedActivityWithTheActorsProofIsTakenAsTheActors() async throws {
        defer { stop() }
        let (id, path, note) = aliceNote("relayed", content: "<p>Relayed.</p>")
        let create = try honest.prove(blog.create(note, by: honest, "alice"), by: "alice")
        #expect(try await relay.send(create, as: "eve", to: blog.sharedInbox) == 202)
        #expect(try await eventually { try blog.store.comments.comment(id: id)?.authorID == honest.actorID("alice") })
        #expect(honest.getCount(path) == 0)
        // Replayed, by the relay or anyone: the same activity id, taken once (the new sender's key
        // and signature are all that is recorded).
        let kept = ["comments", "received_activities", "inbox_queue", "mentions", "pending_replies"]
        #expect(try await eventually { try blog.store.inbox.inboundBacklog() == 0 })
        let before = try blog.store.rowCounts().filter { kept.contains($0.key) }
        #expect(try await relay.send(create, as: "group", to: blog.sharedInbox) == 202)
        #expect(try await eventually { try blog.store.inbox.inboundBacklog() == 0 })
        #expect(try blog.store.rowCounts().filter { kept.contains($0.key) } == before)
        #expect(honest.getCount(path) == 0)
        // A relay the blog blocked is not heard, whatever it carries.
        _ = try blog.store.blocks.block(.actor, relay.actorID("eve"))
        let (_, _, other) = aliceNote("relayed-by-blocked")
        #expect(try await relay.send(try honest.prove(blog.create(other, by: honest, "alice"), by: "alice"), as: "eve",
                                     to: blog.sharedInbox) == 403)
    }

    // MARK: outgoing

    @Test func everyActivityTheBlogSendsCarriesAProofByItsActorsKey() async throws {
        defer { stop() }
        try await blog.follow(by: honest, "alice")
        #expect(try await eventually { !honest.activities(type: "Accept").isEmpty })
        let actor = try await blog.getJSON("/actor")
        let listed = try #require((actor["assertionMethod"] as? [[String: Any]])?.first)
        #expect(listed["id"] as? String == blog.actor + "#ed25519-key")
        #expect(listed["type"] as? String == "Multikey" && listed["controller"] as? String == blog.actor)
        #expect((actor["@context"] as? [Any])?.contains { $0 as? String == "https://w3id.org/security/multikey/v1" } == true)
        #expect((actor["@context"] as? [Any])?.contains { $0 as? String == "https://w3id.org/security/data-integrity/v1" } == true)
        let multibase = try #require(listed["publicKeyMultibase"] as? String)
        #expect(multibase.hasPrefix("z6Mk"))
        let key = try PublicKey(rawEd25519: try #require(Multikey.ed25519PublicKey(multibase)))

        let accept = try #require(honest.activities(type: "Accept").first)
        #expect(accept.verifiedKeyID == blog.actor + "#main-key", "the HTTP signature is there too")
        let document = try CanonicalJSON.parse(Array(try JSONSerialization.data(withJSONObject: accept.activity))).members!
        let proofs = EddsaJcs2022.proofs(in: document)
        #expect(proofs.map(\.verificationMethod) == [blog.actor + "#ed25519-key"])
        #expect(EddsaJcs2022.verify(proofs[0], of: document, key: key))

        // A post's Create, through the publisher, signed too; and a rotation turns the key.
        try "---\ntitle: Signed\ndate: \(ISO8601DateFormatter().string(from: Date()))\n---\n\nA signed post.\n"
            .write(to: blog.root.appendingPathComponent("content/posts/signed.md"), atomically: true, encoding: .utf8)
        try blog.rebuild()
        #expect(try await eventually { !honest.activities(type: "Create").isEmpty })
        let create = try CanonicalJSON.parse(Array(try JSONSerialization.data(withJSONObject: honest.activities(type: "Create")[0].activity))).members!
        #expect(EddsaJcs2022.proofs(in: create).contains { EddsaJcs2022.verify($0, of: create, key: key) })

        let report = try blog.runtime.rotateActorKey()
        #expect(report.newKeyID != report.oldKeyID)
        #expect(try await eventually { !honest.activities(type: "Update").isEmpty })
        let update = try CanonicalJSON.parse(Array(try JSONSerialization.data(withJSONObject: honest.activities(type: "Update")[0].activity))).members!
        let rotated = try #require(update["object"]?["assertionMethod"]?.elements?.first)
        let newID = try #require(rotated["id"]?.string)
        #expect(newID.hasPrefix(blog.actor + "#ed25519-key-") && rotated["publicKeyMultibase"]?.string != multibase)
        let newKey = try PublicKey(rawEd25519: try #require(Multikey.ed25519PublicKey(rotated["publicKeyMultibase"]!.string!)))
        let updateProofs = EddsaJcs2022.proofs(in: update)
        #expect(updateProofs.map(\.verificationMethod) == [newID])
        #expect(EddsaJcs2022.verify(updateProofs[0], of: update, key: newKey))
        #expect(!FileManager.default.fileExists(atPath: blog.root.appendingPathComponent("data/keys/actor-ed25519.pem").path))
    }
}
