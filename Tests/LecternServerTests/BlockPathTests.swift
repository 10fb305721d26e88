import ActivityPub
import BlogModel
import Foundation
import HTTPSignatures
import LecternCrypto
import Storage
import Testing
@testable import WebServer

/// A block holds on every path something can enter by, and a stranger cannot grow the blog's
/// rows, labels or outbound traffic with made-up input (docs/security.md).
@Suite(.serialized) struct BlockPathTests {
    static let publicAddress = "https://www.w3.org/ns/activitystreams#Public"
    /// A 1024-bit RSA key (made with `openssl genpkey`; Lectern itself makes none this small).
    static let rsa1024 = """
        -----BEGIN PRIVATE KEY-----
        MIICdgIBADANBgkqhkiG9w0BAQEFAASCAmAwggJcAgEAAoGBAM6Z5jx8OEnLzJJ1
        fE0bc2kLk+x3mzOWyl9nR29XPZ5nwSZ2sK6qbvX94+h71xtHuw3UoIELbh0ey4hd
        zrxz0DvXdfAh2TzCaL9mSqykr6xy1b/MdGeQHL0TNSoXIzZXZReYGUjrqi43FgfW
        AJJtEFiU8N5VBaZuhCNipL7wqboPAgMBAAECgYB+sxTmHQvr/casPs6G/wGs9wO1
        bbhJT/01usGtP2Qzg8+JBhreUvkPdK9TALdvLHNDTRVNbjQOObd6HoVNPv0Ay5kl
        FqbGBEoXyZ5LXi7I82alqM9MxBxADQliohc7VA3ZF4K80ZtKmleouzZj4IqCAbP7
        3rWByLJW3aVPlDqZIQJBAO9m4EJA9ra4NuzEO1d8RoKu3DS8nosJrwXEPbmWBD4k
        leRxW8Gc3g2cMlOJsBBhRIEqUpRi3UzLBJ3Z2SZF4ZECQQDc7Ni6Eo1668NtU672
        ZSTQc/rQMN+uISZWgPuuZswTPozdiX2N4Bz8F0iITFQVxnUq4Mw1UWK2wGQDOEFu
        yBGfAkEA6kmqxQwgplcH4ZR1YrvLoY8REEdbfURf1evkYGBxDIPvcV6C5qrnITiw
        g9KmzJD0YtgRcwiB/OpePUD6Y5tWEQJACRdyH84tplZXd4NPGvK0niN3ueOZAOh6
        VGsAcH/ofA5B68gBs7n6V2F56aoCd9bv8XDI1pTf1Bd8xiklgDKZjwJAAVl6JD+U
        RwW/mvguafX69S3QiVFcT/Wn987mz+tC05Ay+/3/AI5GB/aNnx07+1Ddov1hVuDW
        HUDLtx7TlzDXJg==
        -----END PRIVATE KEY-----
        """

    /// A blocked actor's note neither enters through an unblocked actor's boost nor is fetched
    /// and kept as the parent of someone's reply.
    @Test func aBlockedActorsNoteEntersByNoSideDoor() async throws {
        try await withBlog { remote, blog in
            let alice = remote.actorID("alice"), mallory = remote.actorID("mallory")
            _ = try blog.store.blocks.block(.actor, mallory)
            let blockedNote = remote.base.value + "/notes/mallory-1"
            remote.serve("/notes/mallory-1", blog.note(blockedNote, by: remote, "mallory", inReplyTo: blog.postID,
                                                       content: "<p>Blocked words</p>"))
            #expect(try await remote.send(["id": alice + "/announces/1", "type": "Announce", "actor": alice, "object": blockedNote,
                                           "to": [Self.publicAddress]], as: "alice", to: blog.sharedInbox) == 202)
            let reply = blog.note(remote.base.value + "/notes/alice-1", by: remote, "alice", inReplyTo: blockedNote,
                                  content: "<p>An answer</p>")
            #expect(try await remote.send(blog.create(reply, by: remote, "alice"), as: "alice", to: blog.sharedInbox) == 202)
            #expect(try await eventually { try blog.store.inbox.inboundBacklog() == 0 })
            #expect(try blog.store.comments.comment(id: blockedNote) == nil)
            #expect(try blog.store.actors.remoteActor(id: mallory) == nil, "a blocked actor is not even fetched")
            let page = try await blog.get(blog.post).body
            #expect(!page.contains("Blocked words"))
        }
    }

    /// A `keyId` on a blocked server is never fetched, even when the activity's actor is not
    /// blocked (a signature naming someone else's key is refused anyway; it must cost nothing).
    @Test func aKeyOnABlockedServerIsNotFetched() async throws {
        try await withBlog { remote, blog in
            _ = try blog.store.blocks.block(.domain, "localhost")
            let port = remote.base.value.split(separator: ":").last!
            let keyID = "http://localhost:\(port)/users/alice#main-key"
            let like: [String: Any] = ["id": remote.actorID("alice") + "/likes/blocked-key", "type": "Like",
                                       "actor": remote.actorID("alice"), "object": blog.postID]
            let before = remote.getCount("/users/alice")
            #expect(try await remote.post(try remote.signedPost(like, as: "alice", to: blog.sharedInbox, keyID: keyID)) == 401)
            #expect(remote.getCount("/users/alice") == before, "the blocked server was asked for the key")
        }
    }

    /// A WebFinger answer (the owner's handle, `lectern move`) naming a blocked actor is refused,
    /// and the actor is not fetched.
    @Test func aWebFingerAnswerNamingABlockedActorIsRefused() async throws {
        try await withBlog { remote, blog in
            let carol = remote.actorID("carol")
            _ = try blog.store.blocks.block(.actor, carol)
            let resolver = BlogOwnerResolver(fetcher: blog.runtime.activityPub.remoteKeys.fetcher, actors: blog.store.actors, blocks: blog.store.blocks, values: blog.store.values)
            let handle = "@carol@" + remote.base.value.dropFirst("http://".count)
            await #expect(throws: BlogOwnerResolver.ResolveError.self) { _ = try await resolver.lookUp(handle) }
            #expect(try blog.store.actors.remoteActor(id: carol) == nil)
        }
    }

    /// Activity types the blog never acts on are accepted and dropped: no queue row, and every
    /// made-up name counts as one reason, `unsupported-type:other`, in the counts and metrics.
    @Test func madeUpTypesStoreNothingAndFoldIntoOther() async throws {
        try await withBlog(admin: true) { remote, blog in
            let alice = remote.actorID("alice")
            let before = try blog.store.rowCounts()
            for n in 0..<30 {
                let activity: [String: Any] = ["id": "\(alice)/invented/\(n)", "type": "Invented\(n)x\(UUID().uuidString.prefix(8))",
                                               "actor": alice, "object": blog.postID]
                #expect(try await remote.send(activity, as: "alice", to: blog.sharedInbox) == 202)
            }
            let after = try blog.store.rowCounts()
            for table in ["inbox_queue", "received_activities", "seen_signatures"] {
                #expect(after[table] == before[table], "\(table): \(before[table] ?? 0) → \(after[table] ?? 0)")
            }
            #expect(!(try await blog.metrics()).contains("Invented"))
            try blog.runtime.inboxCounter.flush(to: blog.store.inboxCounts)
            let counts = try blog.store.inboxCounts.inboxCounts(since: Date().addingTimeInterval(-86_400))
            #expect(counts.keys.allSatisfy { !$0.reason.contains("Invented") }, "\(counts.keys.map(\.reason))")
            #expect(counts[InboxOutcome(.ignored, "unsupported-type:other")] == 30)
        }
    }

    /// A follower whose inbox is on another server would aim every post at a third party: the
    /// follow is dropped and no Accept goes out; a shared inbox elsewhere is not used.
    @Test func aFollowerMustReceiveOnItsOwnServer() async throws {
        try await withBlog { remote, blog in
            let alice = remote.actorID("alice")
            let document: [String: Any] = [
                "@context": ["https://www.w3.org/ns/activitystreams", "https://w3id.org/security/v1"],
                "id": alice, "type": "Person", "preferredUsername": "alice", "inbox": "https://victim.example/inbox/alice",
                "endpoints": ["sharedInbox": "https://victim.example/inbox"],
                "publicKey": ["id": alice + "#main-key", "owner": alice, "publicKeyPem": try remote.keys["alice"]!.publicKey.pemSPKI()],
            ]
            remote.serve("/users/alice", document)
            #expect(try await remote.send(["id": alice + "/follows/aimed", "type": "Follow", "actor": alice, "object": blog.actor],
                                          as: "alice", to: blog.sharedInbox) == 202)
            #expect(try await eventually { try blog.store.inbox.inboundBacklog() == 0 })
            #expect(try !blog.store.followers.isFollower(alice))
            #expect(try blog.store.deliveries.deliveryStats().queued == 0, "no Accept to a third party")
            #expect(try blog.store.actors.remoteActor(id: alice)?.sharedInbox == nil)
        }
    }

    /// Keys outside Mastodon's range (RSA 2048–4096 bits) are refused before any signature is
    /// checked with them.
    @Test func aWeakKeyIsRefused() async throws {
        try await withBlog { remote, blog in
            let weak = try PrivateKey(pem: Self.rsa1024)
            let id = remote.base.value + "/users/weak"
            remote.serve("/users/weak", [
                "@context": ["https://www.w3.org/ns/activitystreams", "https://w3id.org/security/v1"],
                "id": id, "type": "Person", "preferredUsername": "weak", "inbox": id + "/inbox",
                "publicKey": ["id": id + "#main-key", "owner": id, "publicKeyPem": try weak.publicKey.pemSPKI()],
            ])
            let like: [String: Any] = ["id": id + "/likes/1", "type": "Like", "actor": id, "object": blog.postID]
            var parts = HTTPRequestParts(method: "POST", url: blog.sharedInbox, headers: [("Content-Type", "application/activity+json")],
                                         body: Array(try JSONSerialization.data(withJSONObject: like)))
            try CavageSigner(keyId: id + "#main-key", key: weak).sign(&parts)
            #expect(try await remote.post(parts) == 401)
            #expect(try blog.store.reactions.reactionCounts(postPath: blog.post).likes == 0)
        }
    }

    /// Non-public replies get one automatic answer per actor and post a day, only to an inbox
    /// on the actor's own server.
    @Test func automaticAnswersAreBounded() async throws {
        try await withBlog { remote, blog in
            let before = remote.activities(type: "Create").count
            for n in 0..<5 {
                let note = blog.note(remote.base.value + "/notes/private-\(n)", by: remote, "carol", inReplyTo: blog.postID,
                                     content: "<p>Just for you</p>", to: [blog.actor], cc: [])
                #expect(try await remote.send(blog.create(note, by: remote, "carol"), as: "carol", to: blog.sharedInbox) == 202)
            }
            #expect(try await eventually { try blog.store.inbox.inboundBacklog() == 0 })
            #expect(try await eventually { remote.activities(type: "Create").count > before })
            try await Task.sleep(for: .seconds(1))  // time for more, if more were coming
            #expect(remote.activities(type: "Create").count - before == 1, "one automatic answer, not five")
        }
    }
}

@Suite struct HostNameTests {
    @Test func oneHostWhateverTheSpelling() {
        #expect(HostName.normalized("BAD.example.") == "bad.example")
        #expect(HostName.normalized("bad.example") == "bad.example")
        #expect(HostName.normalized("b\u{0430}d.example") == "xn--bd-7kc.example")
        #expect(HostName.of(url: "https://Bad.Example.:443/users/x") == "bad.example")
        #expect(HostName.of(url: "https://b\u{0430}d.example/users/x") == "xn--bd-7kc.example")
        // Percent-encoded: what a decoding URL parser would see.
        #expect(HostName.of(url: "https://b%61d.example/users/x") == "bad.example")
        #expect(Origin("https://b%61d.example/users/x") == nil, "an id disguising its host is no origin")
    }

    @Test func aDomainBlockMustBeADomain() throws {
        let store = try Store.inMemory()
        for bad in ["https://bad.example", "me@bad.example", "bad.example/path"] {
            #expect(throws: StoreError.self, "\(bad)") { _ = try store.blocks.block(.domain, bad) }
        }
        _ = try store.blocks.block(.domain, "BAD.Example.")
        #expect(try store.blocks.blocks().map(\.value) == ["bad.example"])
        #expect(try store.blocks.isBlocked(actorID: "https://sub.bad.example./users/x"))
        #expect(try store.blocks.isBlocked(actorID: "not a url"), "no readable host: blocked, never let in")
    }
}

@Suite struct HostDisplayTests {
    @Test func mixedScriptsShowAsPunycode() {
        #expect(HostName.display("b\u{0430}d.example") == "xn--bd-7kc.example")
        #expect(HostName.display("bücher.example") == "bücher.example")
        #expect(HostName.display("пример.рф") == "пример.рф")
        #expect(HostName.display("Social.Example") == "social.example")
    }
}
