import Foundation
import HTTPSignatures
import Storage
import Testing
@testable import WebServer

/// Requests an inbox must refuse, or accept without effect. Each case checks the status and
/// that no table changed (cached remote actors and keys aside: looking a key up is allowed).
@Suite(.serialized) struct HostileInboxTests {
    /// Looking a key up is allowed, and counting what was refused is the inbox's log, not an effect.
    static let untouched: Set<String> = ["remote_actors", "actor_keys", "inbox_counts"]

    func counts(_ store: Store) throws -> [String: Int] {
        try store.rowCounts().filter { !Self.untouched.contains($0.key) }
    }

    @Test func refusedOrHarmless() async throws {
        let remote = try FakeInstance()
        try await remote.start()
        defer { remote.stop() }
        let blog = try await BlogFixture(remote: remote)
        defer { blog.stop() }
        let inbox = blog.sharedInbox
        let alice = remote.actorID("alice"), bob = remote.actorID("bob"), mallory = remote.actorID("mallory")

        // Setup: bob follows and has a comment; both must survive everything below.
        #expect(try await remote.send(["id": bob + "/follows/1", "type": "Follow", "actor": bob, "object": blog.actor],
                                      as: "bob", to: inbox) == 202)
        let bobNote = remote.base.value + "/notes/bob-1"
        #expect(try await remote.send(blog.create(blog.note(bobNote, by: remote, "bob", inReplyTo: blog.postID, content: "<p>Original</p>"),
                                                  by: remote, "bob"), as: "bob", to: inbox) == 202)
        #expect(try await eventually { try blog.store.comments.comment(id: bobNote) != nil && blog.store.inbox.inboundBacklog() == 0 })
        #expect(try await eventually { !remote.activities(type: "Accept").isEmpty })

        func like(_ n: Int, actor: String = alice) -> [String: Any] {
            ["id": "\(actor)/likes/hostile-\(n)", "type": "Like", "actor": actor, "object": blog.postID]
        }
        func raw(_ body: [UInt8], contentType: String = "application/activity+json", sign: Bool = true) throws -> HTTPRequestParts {
            var parts = HTTPRequestParts(method: "POST", url: inbox, headers: [("Content-Type", contentType)], body: body)
            if sign { try CavageSigner(keyId: remote.keyID("alice"), key: remote.keys["alice"]!).sign(&parts) }
            return parts
        }
        var deep: Any = ["x": 1]
        for _ in 0..<40 { deep = [deep] }
        let deepJSON = try JSONSerialization.data(withJSONObject: ["id": "x", "type": "Like", "actor": alice, "nested": deep])

        var cases: [(name: String, expected: Int, request: () throws -> HTTPRequestParts)] = [
            ("unsigned", 401, { try raw(Array(try JSONSerialization.data(withJSONObject: like(1))), sign: false) }),
            ("signed with another key", 401, { try remote.signedPost(like(2), as: "alice", to: inbox, key: "mallory") }),
            ("stale date, two hours old", 401, { try remote.signedPost(like(3), as: "alice", to: inbox, date: Date().addingTimeInterval(-7200)) }),
            ("date two hours ahead", 401, { try remote.signedPost(like(4), as: "alice", to: inbox, date: Date().addingTimeInterval(7200)) }),
            ("body changed after signing", 401, {
                var parts = try remote.signedPost(like(5), as: "alice", to: inbox)
                parts.body = Array(try JSONSerialization.data(withJSONObject: like(55)))
                return parts
            }),
            ("digest of another body", 401, {
                var parts = try remote.signedPost(like(6), as: "alice", to: inbox)
                parts.setHeader("Digest", BodyDigest.digestHeader(for: Array("{}".utf8)))
                return parts
            }),
            ("signed by bob, actor alice", 401, { try remote.signedPost(like(7), as: "bob", to: inbox) }),
            ("keyId of alice, signed by bob's key, actor bob", 401, {
                try remote.signedPost(like(8, actor: bob), as: "alice", to: inbox, key: "bob")
            }),
            ("Create whose note is attributed to someone else", 401, {
                var note = blog.note(remote.base.value + "/notes/spoof", by: remote, "bob", inReplyTo: blog.postID, content: "<p>spoof</p>")
                note["attributedTo"] = bob
                var create = blog.create(note, by: remote, "mallory")
                create["actor"] = mallory
                return try remote.signedPost(create, as: "mallory", to: inbox)
            }),
            ("signature headers without digest", 401, {
                var parts = try remote.signedPost(like(9), as: "alice", to: inbox)
                let header = try CavageSignatureHeader.parse(parts.field("signature")!)
                var weak = CavageSignatureHeader(keyId: header.keyId, algorithm: "rsa-sha256", headers: ["(request-target)", "host", "date"], signature: [])
                weak.signature = try remote.keys["alice"]!.sign(Array(try weak.signingString(for: parts).utf8), algorithm: .rsaV15SHA256)
                parts.setHeader("Signature", weak.serialized)
                return parts
            }),
            ("unknown algorithm", 401, {
                var parts = try remote.signedPost(like(10), as: "alice", to: inbox)
                parts.setHeader("Signature", parts.field("signature")!.replacingOccurrences(of: "rsa-sha256", with: "hmac-sha256"))
                return parts
            }),
            ("garbage Signature header", 401, {
                var parts = try remote.signedPost(like(11), as: "alice", to: inbox)
                parts.setHeader("Signature", "keyId=\"x\",,signature==")
                return parts
            }),
            ("no Date header", 401, {
                var parts = try remote.signedPost(like(12), as: "alice", to: inbox)
                parts.headers.removeAll { $0.name.lowercased() == "date" }
                return parts
            }),
            ("keyId at an unknown actor", 401, { try remote.signedPost(like(13), as: "alice", to: inbox, keyID: remote.base.value + "/users/nobody#main-key") }),
            ("keyId in a redirect loop", 401, { try remote.signedPost(like(14), as: "alice", to: inbox, keyID: remote.base.value + "/loop/0#key") }),
            ("body over 256 KiB", 413, {
                var big = like(15)
                big["padding"] = String(repeating: "a", count: 300 * 1024)
                return try remote.signedPost(big, as: "alice", to: inbox)
            }),
            ("JSON nested 40 deep", 400, { try raw(Array(deepJSON)) }),
            ("not JSON", 400, { try raw(Array("<html>hello</html>".utf8)) }),
            ("a JSON array", 400, { try raw(Array("[1,2,3]".utf8)) }),
            ("no id", 400, { try raw(Array(try JSONSerialization.data(withJSONObject: ["type": "Like", "actor": alice, "object": blog.postID]))) }),
            ("no actor", 400, { try raw(Array(try JSONSerialization.data(withJSONObject: ["id": "x", "type": "Like", "object": blog.postID]))) }),
            ("text/plain", 415, { try raw(Array(try JSONSerialization.data(withJSONObject: like(16))), contentType: "text/plain") }),
            ("form-encoded", 415, { try raw(Array("a=b".utf8), contentType: "application/x-www-form-urlencoded") }),
            // Valid, signed, and harmless: 202 with no effect.
            ("Delete of someone else's comment", 202, {
                try remote.signedPost(["id": mallory + "/deletes/1", "type": "Delete", "actor": mallory,
                                       "object": ["id": bobNote, "type": "Tombstone"]], as: "mallory", to: inbox)
            }),
            ("Update by a non-author", 202, {
                var note = blog.note(bobNote, by: remote, "bob", inReplyTo: blog.postID, content: "<p>Hijacked</p>")
                note["attributedTo"] = mallory
                return try remote.signedPost(["id": mallory + "/updates/1", "type": "Update", "actor": mallory, "object": note],
                                             as: "mallory", to: inbox)
            }),
            ("Delete of another actor", 202, {
                try remote.signedPost(["id": mallory + "/deletes/2", "type": "Delete", "actor": mallory, "object": bob],
                                      as: "mallory", to: inbox)
            }),
            ("Undo of someone else's Follow", 202, {
                try remote.signedPost(["id": mallory + "/undo/1", "type": "Undo", "actor": mallory,
                                       "object": ["id": bob + "/follows/1", "type": "Follow", "actor": bob, "object": blog.actor]],
                                      as: "mallory", to: inbox)
            }),
            ("Follow of another actor", 202, {
                try remote.signedPost(["id": mallory + "/follows/x", "type": "Follow", "actor": mallory, "object": alice],
                                      as: "mallory", to: inbox)
            }),
            ("Like of a post that does not exist", 202, {
                try remote.signedPost(["id": mallory + "/likes/x", "type": "Like", "actor": mallory, "object": blog.base + "/2099/nothing/"],
                                      as: "mallory", to: inbox)
            }),
            ("reply to something else, not mentioning the blog", 202, {
                var note = blog.note(remote.base.value + "/notes/elsewhere", by: remote, "mallory", inReplyTo: "https://elsewhere.example/notes/1",
                                     content: "<p>hi</p>", cc: [])
                note["tag"] = []
                return try remote.signedPost(blog.create(note, by: remote, "mallory"), as: "mallory", to: inbox)
            }),
        ]
        // The replay: the first copy is accepted (and has its effect, checked below), the second is refused.
        let original = try remote.signedPost(like(100, actor: alice), as: "alice", to: inbox)
        #expect(try await remote.post(original) == 202)
        #expect(try await eventually { try blog.store.reactions.reactionCounts(postPath: blog.post).likes == 1 && blog.store.inbox.inboundBacklog() == 0 })
        cases.append(("replayed request", 401, { original }))
        // Signed at another second: RSA signatures are deterministic, the same second would be a replay.
        cases.append(("same activity id, signed again", 202, {
            try remote.signedPost(like(100, actor: alice), as: "alice", to: inbox, date: Date().addingTimeInterval(-3))
        }))

        #expect(cases.count >= 30)
        for hostile in cases {
            let before = try counts(blog.store)
            let status = try await remote.post(try hostile.request())
            #expect(status == hostile.expected, "\(hostile.name): \(status)")
            #expect(try await eventually { try blog.store.inbox.inboundBacklog() == 0 })
            // An accepted activity is remembered (its id and signature), and nothing else.
            let remembered: Set<String> = hostile.expected == 202 ? ["received_activities", "seen_signatures"] : []
            let after = try counts(blog.store).filter { !remembered.contains($0.key) }
            #expect(after == before.filter { !remembered.contains($0.key) }, "\(hostile.name) stored nothing: \(before) → \(after)")
        }
        #expect(try blog.store.comments.comment(id: bobNote)?.contentHTML == "<p>Original</p>")
        #expect(try blog.store.followers.isFollower(bob))

        // Blocks: refused with 403, and applied to what is already there.
        _ = try blog.store.blocks.block(.actor, bob)
        #expect(try await remote.send(like(200, actor: bob), as: "bob", to: inbox) == 403)
        #expect(try blog.store.comments.comment(id: bobNote)?.state == .rejected)
        #expect(try !blog.store.followers.isFollower(bob))
        _ = try blog.store.blocks.block(.domain, "127.0.0.1")
        #expect(try await remote.send(like(201), as: "alice", to: inbox) == 403)
        #expect((try await blog.get("/inbox")).status == 405)
    }

    /// Without `allowPrivateAddresses`, a keyId may not make the blog reach an internal address.
    @Test func keyLookupsNeverReachPrivateAddresses() async throws {
        let remote = try FakeInstance()
        try await remote.start()
        defer { remote.stop() }
        let blog = try await BlogFixture(remote: remote, privateAddresses: false)
        defer { blog.stop() }
        let like: [String: Any] = ["id": "https://evil.example/likes/1", "type": "Like", "actor": "https://evil.example/users/e",
                                   "object": blog.postID]
        for keyID in ["https://127.0.0.1:\(blog.port)/actor#main-key", "https://10.0.0.1/key", "https://[::1]/key",
                      "https://169.254.169.254/latest/meta-data#key", "https://localhost/key", "https://0.0.0.0/key",
                      "\(remote.base.value)/users/alice#main-key"] {
            let before = try counts(blog.store)
            let start = Date()
            let parts = try remote.signedPost(like, as: "alice", to: blog.sharedInbox, keyID: keyID)
            #expect(try await remote.post(parts) == 401, "\(keyID)")
            #expect(Date().timeIntervalSince(start) < 2, "\(keyID) refused before any connection")
            let after = try counts(blog.store)
            #expect(after == before, "\(keyID): \(before) → \(after)")
            #expect(try blog.store.actors.remoteKey(id: keyID) == nil)
        }
    }
}
