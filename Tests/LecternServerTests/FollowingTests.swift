@testable import ActivityPub
import Foundation
import HTTPSignatures
@testable import Interactions
import Site
import Storage
import Testing
@testable import LecternRuntime

/// The blog follows accounts (`lectern follow`), end to end through the real server and a fake
/// instance that verifies every signature: Follow, Accept, forged and replayed answers, the
/// `following` collection, Undo, Move, the blogroll, FEP-8fcf reconciliation, and Bridgy Fed.
@Suite(.serialized) struct FollowingTests {
    /// Every table's rows, but key lookups, the refusal counts and the replay memory (accepted
    /// activities are remembered, and nothing else).
    func counts(_ store: Store) throws -> [String: Int] {
        try store.rowCounts().filter { !["remote_actors", "actor_keys", "inbox_counts", "received_activities", "seen_signatures"].contains($0.key) }
    }

    /// The blog's follow of `name`, as recorded.
    func follow(_ blog: BlogFixture, _ actorID: String) throws -> FollowedAccount? { try blog.store.following.followedAccount(actorID: actorID) }

    /// `name` on `remote` answers the blog's last Follow (by id, embedded as Mastodon does).
    func answer(_ type: String, from remote: FakeInstance, _ name: String, to blog: BlogFixture, followID: String,
                id: String? = nil) async throws -> Int {
        try await remote.send(["@context": "https://www.w3.org/ns/activitystreams", "id": id ?? remote.actorID(name) + "#answers/\(UUID())",
                               "type": type, "actor": remote.actorID(name),
                               "object": ["id": followID, "type": "Follow", "actor": blog.actor, "object": remote.actorID(name)]],
                              as: name, to: blog.actor + "/inbox")
    }

    @Test func followAcceptForgedAnswersCollectionAndUnfollow() async throws {
        try await withBlog(extraConfig: "following:\n  page: true\n") { remote, blog in
            // The command, while the server runs: it queues the Follow and hands it to the server.
            let output = try lectern(["follow", "@alice@\(remote.host)"], site: blog.root)
            #expect(output.contains("following @alice@\(remote.host)"))
            #expect(try await eventually { !remote.activities(at: "/users/alice/inbox", type: "Follow").isEmpty })
            let sent = try #require(remote.activities(at: "/users/alice/inbox", type: "Follow").first)
            #expect(sent.verifiedKeyID == blog.actor + "#main-key", "alice's server verified the Follow's signature")
            #expect(sent.activity["object"] as? String == remote.actorID("alice"))
            let followID = try #require(sent.activity["id"] as? String)
            #expect(try follow(blog, remote.actorID("alice"))?.state == .pending)
            #expect(try follow(blog, remote.actorID("alice"))?.followActivityID == followID)

            // An Accept signed by someone else (bob, on the same server), naming our Follow: refused
            // at the gate (the blog does not follow bob), nothing stored.
            let before = try counts(blog.store), remembered = try blog.store.rowCounts()["received_activities"] ?? 0
            #expect(try await answer("Accept", from: remote, "bob", to: blog, followID: followID) == 202)
            // An Accept from alice for a Follow the blog never sent.
            #expect(try await answer("Accept", from: remote, "alice", to: blog, followID: blog.actor + "#follows/made-up") == 202)
            // An Accept claiming alice's name but signed with mallory's key: refused outright.
            let forged = try remote.signedPost(["id": remote.actorID("alice") + "#accepts/forged", "type": "Accept",
                                                "actor": remote.actorID("alice"), "object": followID],
                                               as: "alice", to: blog.actor + "/inbox", key: "mallory")
            #expect(try await remote.post(forged) == 401)
            // An Accept by alice, but its id on another server (not her origin).
            #expect(try await answer("Accept", from: remote, "alice", to: blog, followID: followID,
                                     id: "https://elsewhere.example/accepts/1") == 401)
            try await Task.sleep(for: .milliseconds(300))
            #expect(try await eventually { try blog.store.inbox.inboundBacklog() == 0 })
            #expect(try follow(blog, remote.actorID("alice"))?.state == .pending, "no forged answer moved the follow")
            #expect(try counts(blog.store) == before, "nothing was stored")
            #expect(try blog.store.rowCounts()["received_activities"] == remembered + 1,
                    "only alice's Accept (of a Follow never sent) was queued; bob's was not even stored")

            // alice's own Accept.
            #expect(try await answer("Accept", from: remote, "alice", to: blog, followID: followID) == 202)
            #expect(try await eventually { try follow(blog, remote.actorID("alice"))?.state == .accepted })
            let collection = try await blog.getJSON("/actor/following?page=1")
            #expect(collection["orderedItems"] as? [String] == [remote.actorID("alice")])
            #expect(try await blog.getJSON("/actor/following")["totalItems"] as? Int == 1)
            #expect(try await eventually { try await blog.get("/following/").body.contains(remote.base.value + "/@alice") },
                    "the blogroll lists alice, with her profile link")

            // Following again an account that accepted sends nothing.
            let followsSent = remote.activities(at: "/users/alice/inbox", type: "Follow").count
            #expect(try lectern(["follow", remote.actorID("alice")], site: blog.root).contains("already following"))
            #expect(try follow(blog, remote.actorID("alice"))?.state == .accepted)
            #expect(remote.activities(at: "/users/alice/inbox", type: "Follow").count == followsSent)
            let listed = try lectern(["following", "--json"], site: blog.root)
            #expect(listed.contains("\"state\" : \"accepted\""))

            // bob rejects; a replay of that Reject after the blog follows him again changes nothing.
            _ = try await blog.runtime.follow(remote.actorID("bob"))
            #expect(try await eventually { !remote.activities(at: "/users/bob/inbox", type: "Follow").isEmpty })
            let firstBobFollow = try #require(try follow(blog, remote.actorID("bob"))?.followActivityID)
            let reject = try remote.signedPost(["id": remote.actorID("bob") + "#rejects/1", "type": "Reject", "actor": remote.actorID("bob"),
                                                "object": ["id": firstBobFollow, "type": "Follow", "actor": blog.actor,
                                                           "object": remote.actorID("bob")]],
                                               as: "bob", to: blog.actor + "/inbox")
            #expect(try await remote.post(reject) == 202)
            #expect(try await eventually { try follow(blog, remote.actorID("bob"))?.state == .rejected })
            _ = try await blog.runtime.follow(remote.actorID("bob"), now: Date().addingTimeInterval(1))
            #expect(try follow(blog, remote.actorID("bob"))?.state == .pending)
            #expect(try await remote.post(reject) == 401, "the same signed Reject again: a replay")
            #expect(try await answer("Reject", from: remote, "bob", to: blog, followID: firstBobFollow) == 202, "a new Reject of the old Follow")
            try await Task.sleep(for: .milliseconds(300))
            #expect(try follow(blog, remote.actorID("bob"))?.state == .pending, "answers to an earlier Follow change nothing")

            // Unfollow: Undo(Follow) naming the Follow, signed; the collection and the blogroll drop alice.
            let unfollowed = try lectern(["unfollow", "@alice@\(remote.host)"], site: blog.root)
            #expect(unfollowed.contains("unfollowed"))
            #expect(try await eventually { !remote.activities(at: "/users/alice/inbox", type: "Undo").isEmpty })
            let undo = try #require(remote.activities(at: "/users/alice/inbox", type: "Undo").first)
            #expect(undo.verifiedKeyID == blog.actor + "#main-key")
            #expect(undo.object?["id"] as? String == followID)
            #expect(undo.object?["type"] as? String == "Follow")
            #expect(try follow(blog, remote.actorID("alice")) == nil)
            #expect(try await blog.getJSON("/actor/following")["totalItems"] as? Int == 0)
            #expect(try await eventually { try await !blog.get("/following/").body.contains(remote.base.value + "/@alice") })

            // A blocked account cannot be followed.
            _ = try blog.runtime.block([(kind: .actor, value: remote.actorID("mallory"), reason: "test")])
            let refused = try lectern(["follow", remote.actorID("mallory")], site: blog.root, expectSuccess: false)
            #expect(refused.contains("blocked"))
            #expect(try follow(blog, remote.actorID("mallory")) == nil)
            #expect(remote.activities(at: "/users/mallory/inbox").isEmpty)
        }
    }

    @Test func blogrollEscapesNamesAndChecksURLs() async throws {
        try await withBlog(extraConfig: "following:\n  page: true\n  title: Blogroll\n  menu: 5\n") { remote, blog in
            try remote.serveActor("carol", ["name": "<script>alert(1)</script>Carol", "url": "javascript:alert(2)"])
            let followed = try await blog.runtime.follow("@carol@\(remote.host)")
            #expect(try await eventually { !remote.activities(at: "/users/carol/inbox", type: "Follow").isEmpty })
            #expect(try await answer("Accept", from: remote, "carol", to: blog, followID: followed.followActivityID) == 202)
            #expect(try await eventually { try await blog.get("/following/").body.contains("Carol") })
            let page = try await blog.get("/following/").body
            #expect(page.contains("Blogroll"))
            #expect(try await blog.get("/").body.contains("href=\"/following/\""), "in the navigation (menu: 5)")
            #expect(!page.contains("<script>alert(1)"))
            #expect(page.contains("&lt;script&gt;"))
            #expect(!page.contains("javascript:"), "a profile URL that is not http(s) is not linked")
            #expect(page.contains("href=\"\(remote.actorID("carol"))\""), "the actor id stands in for it")
            _ = try blog.runtime.block([(kind: .actor, value: remote.actorID("carol"), reason: "test")])
            #expect(try await eventually { !remote.activities(at: "/users/carol/inbox", type: "Undo").isEmpty },
                    "the blog unfollows an account it blocks")
            #expect(try follow(blog, remote.actorID("carol")) == nil)
            #expect(try await eventually { try await !blog.get("/following/").body.contains("Carol") })
        }
    }

    @Test func blogrollIsOffUnlessEnabled() async throws {
        try await withBlog { _, blog in
            let status = try await blog.get("/following/").status
            #expect(status == 404)
        }
    }

    /// `name` moves to `target` (a signed Move to the blog's inbox).
    func move(_ remote: FakeInstance, _ name: String, to target: String, blog: BlogFixture) async throws -> Int {
        try await remote.send(["id": remote.actorID(name) + "#moves/\(UUID())", "type": "Move", "actor": remote.actorID(name),
                               "object": remote.actorID(name), "target": target], as: name, to: blog.actor + "/inbox")
    }

    /// Follows `name` and has it accept, once the Follow has arrived (so that counts of Follows
    /// taken afterwards are not raced by it).
    func followAccepted(_ remote: FakeInstance, _ name: String, blog: BlogFixture) async throws {
        let followsBefore = remote.activities(at: "/users/\(name)/inbox", type: "Follow").count
        let followed = try await blog.runtime.follow(remote.actorID(name))
        #expect(try await eventually { remote.activities(at: "/users/\(name)/inbox", type: "Follow").count > followsBefore })
        #expect(try await answer("Accept", from: remote, name, to: blog, followID: followed.followActivityID) == 202)
        #expect(try await eventually { try follow(blog, remote.actorID(name))?.state == .accepted })
    }

    @Test func moveOfAFollowedAccount() async throws {
        try await withBlog { remote, blog in
            try await followAccepted(remote, "alice", blog: blog)
            try await followAccepted(remote, "bob", blog: blog)
            // carol does not list bob as an alias: the move is not followed.
            #expect(try await move(remote, "bob", to: remote.actorID("carol"), blog: blog) == 202)
            try await Task.sleep(for: .milliseconds(500))
            #expect(try follow(blog, remote.actorID("carol")) == nil)
            #expect(try follow(blog, remote.actorID("bob"))?.state == .accepted)
            // A Move sent by someone the blog does not follow is not even stored.
            #expect(try await remote.send(["id": remote.actorID("mallory") + "#moves/1", "type": "Move", "actor": remote.actorID("mallory"),
                                           "object": remote.actorID("mallory"), "target": remote.actorID("carol")],
                                          as: "mallory", to: blog.actor + "/inbox") == 202)
            // carol says she is also alice: the blog follows carol and unfollows alice.
            try remote.serveActor("carol", ["alsoKnownAs": [remote.actorID("alice")]])
            #expect(try await move(remote, "alice", to: remote.actorID("carol"), blog: blog) == 202)
            #expect(try await eventually { !remote.activities(at: "/users/carol/inbox", type: "Follow").isEmpty })
            #expect(try await eventually { !remote.activities(at: "/users/alice/inbox", type: "Undo").isEmpty })
            #expect(try follow(blog, remote.actorID("carol"))?.state == .pending)
            #expect(try follow(blog, remote.actorID("alice")) == nil)
            #expect(remote.activities(at: "/users/carol/inbox", type: "Follow").first?.verifiedKeyID == blog.actor + "#main-key")
        }
    }

    /// Two accounts naming each other in `alsoKnownAs` cannot bounce the blog between them (each
    /// bounce a signed Follow and Undo, kept in the delivery queue), a Move's target must have
    /// its inbox on its own origin, and a followed account's Moves cost one fetch an hour.
    @Test func movesAreBounded() async throws {
        try await withBlog { remote, blog in
            try await followAccepted(remote, "alice", blog: blog)
            try remote.serveActor("alice", ["alsoKnownAs": [remote.actorID("bob")]])
            try remote.serveActor("bob", ["alsoKnownAs": [remote.actorID("alice")]])
            #expect(try await move(remote, "alice", to: remote.actorID("bob"), blog: blog) == 202)
            #expect(try await eventually { try follow(blog, remote.actorID("bob")) != nil && follow(blog, remote.actorID("alice")) == nil })
            #expect(try await eventually { try blog.store.inbox.inboundBacklog() == 0 })
            let before = try counts(blog.store)
            let followsToAlice = remote.activities(at: "/users/alice/inbox", type: "Follow").count
            // bob moves straight back: ignored, nothing queued.
            #expect(try await move(remote, "bob", to: remote.actorID("alice"), blog: blog) == 202)
            try await Task.sleep(for: .milliseconds(300))
            #expect(try await eventually { try blog.store.inbox.inboundBacklog() == 0 })
            try await Task.sleep(for: .milliseconds(300))
            #expect(try follow(blog, remote.actorID("bob")) != nil)
            #expect(try follow(blog, remote.actorID("alice")) == nil)
            #expect(try counts(blog.store) == before, "no Follow or Undo queued")
            #expect(remote.activities(at: "/users/alice/inbox", type: "Follow").count == followsToAlice)
            #expect(remote.activities(at: "/users/bob/inbox", type: "Undo").isEmpty)

            // carol lists mallory but her inbox is on a third server: the blog sends it nothing.
            try await followAccepted(remote, "mallory", blog: blog)
            try remote.serveActor("carol", ["alsoKnownAs": [remote.actorID("mallory")], "inbox": "https://third.example/users/carol/inbox"])
            #expect(try await move(remote, "mallory", to: remote.actorID("carol"), blog: blog) == 202)
            try await Task.sleep(for: .milliseconds(500))
            #expect(try follow(blog, remote.actorID("carol")) == nil)
            #expect(try follow(blog, remote.actorID("mallory"))?.state == .accepted)

            // owner moves to five made-up accounts: one fetch at most.
            try await followAccepted(remote, "owner", blog: blog)
            for n in 1...5 {
                remote.serve("/users/target\(n)", FakeInstance.actorDocument("target\(n)", base: remote.base.value, pem: "x"))
                #expect(try await move(remote, "owner", to: remote.actorID("target\(n)"), blog: blog) == 202)
            }
            try await Task.sleep(for: .milliseconds(500))
            #expect(try await eventually { try blog.store.inbox.inboundBacklog() == 0 })
            let fetches = (1...5).map { remote.getCount("/users/target\($0)") }.reduce(0, +)
            #expect(fetches == 1, "\(fetches) fetches")
            #expect(try follow(blog, remote.actorID("owner"))?.state == .accepted)
        }
    }

    @Test func followersSynchronizationReconciles() async throws {
        try await withBlog { remote, blog in
            let alice = try await blog.runtime.follow(remote.actorID("alice"))
            #expect(try await eventually { !remote.activities(at: "/users/alice/inbox", type: "Follow").isEmpty })
            #expect(try await answer("Accept", from: remote, "alice", to: blog, followID: alice.followActivityID) == 202)
            #expect(try await eventually { try follow(blog, remote.actorID("alice"))?.state == .accepted })
            let followers = remote.actorID("alice") + "/followers", syncURL = remote.actorID("alice") + "/followers_synchronization"
            try remote.serveActor("alice", ["followers": followers])
            // alice's server lost the blog's follow: its partial collection does not list the blog.
            remote.serve("/users/alice/followers_synchronization",
                         ["id": syncURL, "type": "OrderedCollection", "orderedItems": [remote.actorID("someone")]])
            func deliver(digest: String, n: Int) async throws -> Int {
                let note = blog.note(remote.base.value + "/notes/sync-\(n)", by: remote, "alice", inReplyTo: "https://elsewhere.example/1",
                                     content: "<p>not for the blog</p>")
                var parts = try remote.signedPost(blog.create(note, by: remote, "alice"), as: "alice", to: blog.sharedInbox)
                parts.headers.append(("Collection-Synchronization",
                                      "collectionId=\"\(followers)\", url=\"\(syncURL)\", digest=\"\(digest)\""))
                return try await remote.post(parts)
            }
            // The digests agree: nothing is fetched.
            #expect(try await deliver(digest: CollectionSynchronization.digest(of: [blog.actor]), n: 1) == 202)
            try await Task.sleep(for: .milliseconds(300))
            #expect(remote.getCount("/users/alice/followers_synchronization") == 0)
            // They differ: the collection is fetched, the follow is pending again and re-sent.
            let followsBefore = remote.activities(at: "/users/alice/inbox", type: "Follow").count
            #expect(try await deliver(digest: CollectionSynchronization.digest(of: []), n: 2) == 202)
            #expect(try await eventually { remote.activities(at: "/users/alice/inbox", type: "Follow").count == followsBefore + 1 })
            #expect(remote.getCount("/users/alice/followers_synchronization") == 1)
            #expect(try follow(blog, remote.actorID("alice"))?.state == .pending)
            // Within the hour, another mismatch fetches nothing.
            #expect(try await deliver(digest: CollectionSynchronization.digest(of: []), n: 3) == 202)
            try await Task.sleep(for: .milliseconds(300))
            #expect(remote.getCount("/users/alice/followers_synchronization") == 1)
            // The Create that carried the header was not for the blog: nothing of it is kept.
            #expect(try blog.store.comments.comments(state: nil, limit: 10).isEmpty)
        }
    }

    @Test func followersSynchronizationUndoesAFollowTheBlogDoesNotHave() async throws {
        try await withBlog { remote, blog in
            // The blog follows alice; bob's server (the same one) believes the blog follows bob too.
            _ = try await blog.runtime.follow(remote.actorID("alice"))
            let followers = remote.actorID("bob") + "/followers", syncURL = remote.actorID("bob") + "/followers_synchronization"
            try remote.serveActor("bob", ["followers": followers])
            remote.serve("/users/bob/followers_synchronization", ["id": syncURL, "type": "OrderedCollection", "orderedItems": [blog.actor]])
            let note = blog.note(remote.base.value + "/notes/sync-bob", by: remote, "bob", inReplyTo: "https://elsewhere.example/1",
                                 content: "<p>hello</p>")
            var parts = try remote.signedPost(blog.create(note, by: remote, "bob"), as: "bob", to: blog.sharedInbox)
            parts.headers.append(("Collection-Synchronization", "collectionId=\"\(followers)\", url=\"\(syncURL)\", "
                                  + "digest=\"\(CollectionSynchronization.digest(of: [blog.actor]))\""))
            #expect(try await remote.post(parts) == 202)
            #expect(try await eventually { !remote.activities(at: "/users/bob/inbox", type: "Undo").isEmpty })
            let undo = try #require(remote.activities(at: "/users/bob/inbox", type: "Undo").first)
            #expect(undo.verifiedKeyID == blog.actor + "#main-key")
            #expect(undo.object?["type"] as? String == "Follow")
            #expect(undo.object?["object"] as? String == remote.actorID("bob"))
        }
    }

    @Test func followersSynchronizationHeaderForAnotherCollectionIsIgnored() async throws {
        try await withBlog { remote, blog in
            let alice = try await blog.runtime.follow(remote.actorID("alice"))
            #expect(try await answer("Accept", from: remote, "alice", to: blog, followID: alice.followActivityID) == 202)
            #expect(try await eventually { try follow(blog, remote.actorID("alice"))?.state == .accepted })
            // mallory (same server) names alice's collection: her actor document says otherwise.
            try remote.serveActor("mallory", ["followers": remote.actorID("mallory") + "/followers"])
            remote.serve("/evil/sync", ["id": remote.base.value + "/evil/sync", "type": "OrderedCollection", "orderedItems": []])
            let note = blog.note(remote.base.value + "/notes/evil", by: remote, "mallory", inReplyTo: "https://elsewhere.example/1",
                                 content: "<p>x</p>")
            var parts = try remote.signedPost(blog.create(note, by: remote, "mallory"), as: "mallory", to: blog.sharedInbox)
            parts.headers.append(("Collection-Synchronization", "collectionId=\"\(remote.actorID("alice"))/followers\", "
                                  + "url=\"\(remote.base.value)/evil/sync\", digest=\"\(CollectionSynchronization.digest(of: []))\""))
            #expect(try await remote.post(parts) == 202)
            try await Task.sleep(for: .milliseconds(500))
            #expect(remote.getCount("/evil/sync") == 0)
            #expect(try follow(blog, remote.actorID("alice"))?.state == .accepted)
        }
    }

    /// `name` delivers to the blog's shared inbox a Create (not for the blog) carrying a
    /// `Collection-Synchronization` header naming `name`'s followers collection.
    func deliverSynchronization(_ remote: FakeInstance, _ name: String, to blog: BlogFixture, url: String, digest: [String]) async throws {
        let note = blog.note(remote.base.value + "/notes/sync-\(UUID())", by: remote, name, inReplyTo: "https://elsewhere.example/1",
                             content: "<p>x</p>")
        var parts = try remote.signedPost(blog.create(note, by: remote, name), as: name, to: blog.sharedInbox)
        parts.headers.append(("Collection-Synchronization", "collectionId=\"\(remote.actorID(name))/followers\", url=\"\(url)\", "
                              + "digest=\"\(CollectionSynchronization.digest(of: digest))\""))
        #expect(try await remote.post(parts) == 202)
    }

    /// An account the blog does not follow cannot use up the hour's reconciliation of its
    /// server: a followed account's mismatched header right after still reconciles.
    @Test func followersSynchronizationOfAFollowedAccountIsNotUsedUpByAnother() async throws {
        try await withBlog { remote, blog in
            try await followAccepted(remote, "alice", blog: blog)
            for name in ["alice", "bob"] {
                try remote.serveActor(name, ["followers": remote.actorID(name) + "/followers"])
                remote.serve("/users/\(name)/followers_synchronization", ["type": "OrderedCollection", "orderedItems": [String]()])
            }
            // bob (not followed) says his server lists the blog: a mismatch.
            try await deliverSynchronization(remote, "bob", to: blog, url: remote.actorID("bob") + "/followers_synchronization",
                                             digest: [blog.actor])
            #expect(try await eventually { remote.getCount("/users/bob/followers_synchronization") == 1 })
            // alice's server lost the blog's follow: reconciled all the same.
            let followsBefore = remote.activities(at: "/users/alice/inbox", type: "Follow").count
            try await deliverSynchronization(remote, "alice", to: blog, url: remote.actorID("alice") + "/followers_synchronization",
                                             digest: [])
            #expect(try await eventually { remote.getCount("/users/alice/followers_synchronization") == 1 })
            #expect(try await eventually { remote.activities(at: "/users/alice/inbox", type: "Follow").count == followsBefore + 1 })
            // Another unfollowed account of that server within the hour: nothing read.
            try remote.serveActor("mallory", ["followers": remote.actorID("mallory") + "/followers"])
            remote.serve("/users/mallory/followers_synchronization", ["type": "OrderedCollection", "orderedItems": [blog.actor]])
            try await deliverSynchronization(remote, "mallory", to: blog, url: remote.actorID("mallory") + "/followers_synchronization",
                                             digest: [blog.actor])
            try await Task.sleep(for: .milliseconds(500))
            #expect(remote.getCount("/users/mallory/followers_synchronization") == 0)
        }
    }

    /// The header's `url` must be the signer's followers collection itself (plus a query, as in
    /// `…/followers?domain=HOST`) or Mastodon's `…/followers_synchronization` next to it: no other
    /// document of the signer's server is read.
    @Test func followersSynchronizationReadsOnlyThePartialCollection() async throws {
        try await withBlog { remote, blog in
            try await followAccepted(remote, "alice", blog: blog)
            let followers = remote.actorID("alice") + "/followers"
            try remote.serveActor("alice", ["followers": followers])
            let listing: [String: Any] = ["type": "OrderedCollection", "orderedItems": [blog.actor]]
            for path in ["/users/bob/followers", "/users/alice/outbox", "/users/alice/followers"] { remote.serve(path, listing) }
            try await deliverSynchronization(remote, "alice", to: blog, url: remote.actorID("bob") + "/followers", digest: [])
            try await deliverSynchronization(remote, "alice", to: blog, url: remote.actorID("alice") + "/outbox?domain=127.0.0.1", digest: [])
            try await deliverSynchronization(remote, "alice", to: blog, url: followers + "/../../bob/followers", digest: [])
            try await deliverSynchronization(remote, "alice", to: blog, url: remote.actorID("alice") + "/followersx", digest: [])
            try await Task.sleep(for: .milliseconds(500))
            #expect(remote.getCount("/users/bob/followers") == 0)
            #expect(remote.getCount("/users/alice/outbox") == 0)
            #expect(remote.getCount("/users/alice/followersx") == 0)
            // The collection itself, with Mastodon's query: read (the hour's reconciliation was not used up).
            try await deliverSynchronization(remote, "alice", to: blog, url: followers + "?domain=127.0.0.1", digest: [])
            #expect(try await eventually { remote.getCount("/users/alice/followers") == 1 })
        }
    }

    /// A fake Bridgy Fed, behaving as its docs say: the blog follows its bot, the bot accepts,
    /// then sends a direct note with the blog's Bluesky handle; a reply from a bridged Bluesky
    /// account (a `bsky.brid.gy`-style actor whose `url` is its bsky.app profile) is a comment.
    @Test func blueskyBridgeThroughAFakeBridgyFed() async throws {
        let bridge = try FakeInstance(names: ["bsky.brid.gy", "alice.bsky.social"])
        try await bridge.start()
        defer { bridge.stop() }
        try await withBlog { _, blog in
            let bot = bridge.actorID("bsky.brid.gy")
            try bridge.serveActor("bsky.brid.gy", ["type": "Application", "name": "Bridgy Fed for Bluesky"])
            let followed = try await blog.runtime.bridgeBluesky(bot: "@bsky.brid.gy@\(bridge.host)")
            #expect(followed.actor.id == bot)
            #expect(try await eventually { !bridge.activities(at: "/users/bsky.brid.gy/inbox", type: "Follow").isEmpty })
            #expect(bridge.activities(at: "/users/bsky.brid.gy/inbox", type: "Follow").first?.verifiedKeyID == blog.actor + "#main-key")
            #expect(try lectern(["status"], site: blog.root).contains("bridge pending, no handle yet"))

            #expect(try await answer("Accept", from: bridge, "bsky.brid.gy", to: blog, followID: followed.followActivityID) == 202)
            #expect(try await eventually { try blog.runtime.blueskyBridge().follow == "accepted" })
            let handle = "blog.127.0.0.1.ap.brid.gy"
            let dm: [String: Any] = [
                "id": bridge.base.value + "/notes/welcome", "type": "Note", "attributedTo": bot, "to": [blog.actor], "cc": [],
                "published": "2026-11-27T10:00:00Z",
                "content": "<p><span class=\"h-card\"><a href=\"\(blog.actor)\" class=\"u-url mention\">@blog</a></span> Welcome to Bridgy Fed! "
                    + "Your account will soon be bridged to Bluesky at <a href=\"https://bsky.app/profile/\(handle)\">@\(handle)</a>. "
                    + "See https://fed.brid.gy/docs for more.</p>",
                "tag": [["type": "Mention", "href": blog.actor, "name": "@blog@127.0.0.1"]],
            ]
            #expect(try await bridge.send(["id": bridge.base.value + "/notes/welcome/activity", "type": "Create", "actor": bot,
                                           "to": [blog.actor], "object": dm], as: "bsky.brid.gy", to: blog.actor + "/inbox") == 202)
            #expect(try await eventually { try blog.runtime.blueskyBridge().handle == handle })
            #expect(try blog.runtime.blueskyBridge().message?.contains("Welcome to Bridgy Fed!") == true)
            #expect(try lectern(["bridge", "bluesky"], site: blog.root).contains("bridged as @\(handle)"))
            #expect(try lectern(["status"], site: blog.root).contains("bluesky     @\(handle)"))

            // Bridgy Fed's own notifications (a Bluesky user replied or mentioned the blog) link that
            // user's profile first: the handle stays, and control characters are not kept.
            func botSays(_ html: String, tag: [[String: Any]] = []) async throws {
                let id = bridge.base.value + "/notes/\(UUID())"
                let note: [String: Any] = ["id": id, "type": "Note", "attributedTo": bot, "to": [blog.actor], "cc": [], "content": html, "tag": tag]
                #expect(try await bridge.send(["id": id + "/activity", "type": "Create", "actor": bot, "to": [blog.actor], "object": note],
                                              as: "bsky.brid.gy", to: blog.actor + "/inbox") == 202)
            }
            try await botSays("<p><a href=\"https://bsky.app/profile/mallory.bsky.social\">@mallory.bsky.social</a> replied to your post: "
                              + "hi. Bridged to Bluesky at mallory.bsky.social</p>",
                              tag: [["type": "Mention", "href": "https://bsky.app/profile/evil.example", "name": "@evil.example"]])
            try await botSays("<p>Your account is bridged to Bluesky at <a href=\"https://bsky.app/profile/evil.ap.brid.gy\">x</a></p>")
            try await botSays("<p>\u{1b}[2J\u{1b}]0;pwned\u{07}Hello\u{9b}31m\nworld</p>")
            #expect(try await eventually { try blog.runtime.blueskyBridge().message?.contains("Hello") == true })
            let kept = try #require(try blog.runtime.blueskyBridge().message)
            #expect(!kept.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" || (0x7f...0x9f).contains($0.value) }, "\(kept.debugDescription)")
            #expect(try blog.runtime.blueskyBridge().handle == handle, "notifications do not change the handle")

            // A DM from anyone else naming a handle changes nothing.
            let profile = "https://bsky.app/profile/alice.bsky.social"
            try bridge.serveActor("alice.bsky.social", ["url": profile, "name": "Alice on Bluesky"])
            let other: [String: Any] = ["id": bridge.base.value + "/notes/fake", "type": "Note",
                                        "attributedTo": bridge.actorID("alice.bsky.social"), "to": [blog.actor], "cc": [],
                                        "content": "<p>You are bridged at evil.ap.brid.gy</p>"]
            #expect(try await bridge.send(["id": bridge.base.value + "/notes/fake/activity", "type": "Create",
                                           "actor": bridge.actorID("alice.bsky.social"), "to": [blog.actor], "object": other],
                                          as: "alice.bsky.social", to: blog.actor + "/inbox") == 202)

            // A reply from Bluesky, through the bridge: a comment linking the Bluesky profile.
            let reply = blog.note(bridge.base.value + "/notes/from-bluesky", by: bridge, "alice.bsky.social", inReplyTo: blog.postID,
                                  content: "<p>Replying from Bluesky!</p>")
            #expect(try await bridge.send(blog.create(reply, by: bridge, "alice.bsky.social"), as: "alice.bsky.social",
                                          to: blog.sharedInbox) == 202)
            #expect(try await eventually { try await blog.get(blog.post).body.contains("Replying from Bluesky!") })
            let page = try await blog.get(blog.post).body
            #expect(page.contains("href=\"\(profile)\""), "the comment links the author's Bluesky profile")
            #expect(page.contains("Alice on Bluesky"))
            #expect(try blog.runtime.blueskyBridge().handle == handle, "still the bot's handle")

            // A custom domain: the bot is sent `username DOMAIN`; its answer names the new handle.
            #expect(try lectern(["bridge", "bluesky", "--handle", "Blog.Example"], site: blog.root).contains("asked Bridgy Fed"))
            #expect(try await eventually { !bridge.activities(at: "/users/bsky.brid.gy/inbox", type: "Create").isEmpty })
            let command = try #require(bridge.activities(at: "/users/bsky.brid.gy/inbox", type: "Create").first)
            #expect(command.verifiedKeyID == blog.actor + "#main-key")
            let commandNote = try #require(command.object)
            #expect((commandNote["content"] as? String)?.contains("username blog.example") == true)
            #expect(commandNote["to"] as? [String] == [bot], "a direct message to the bot alone")
            let answer: [String: Any] = [
                "id": bridge.base.value + "/notes/username", "type": "Note", "attributedTo": bot, "to": [blog.actor], "cc": [],
                "inReplyTo": commandNote["id"] as? String ?? "",
                "content": "<p>Your username in Bluesky is now <a href=\"https://bsky.app/profile/blog.example\">@blog.example</a>.</p>",
            ]
            #expect(try await bridge.send(["id": bridge.base.value + "/notes/username/activity", "type": "Create", "actor": bot,
                                           "to": [blog.actor], "object": answer], as: "bsky.brid.gy", to: blog.actor + "/inbox") == 202)
            #expect(try await eventually { try blog.runtime.blueskyBridge().handle == "blog.example" })
            #expect(try lectern(["bridge", "bluesky", "--handle", "not a domain"], site: blog.root, expectSuccess: false).contains("error:"))

            // Off: the bot is told `stop` and unfollowed (Undo), the handle forgotten.
            #expect(try lectern(["bridge", "bluesky", "--off"], site: blog.root).contains("unfollowed"))
            // Both are queued at once and delivered concurrently, so either may arrive first.
            #expect(try await eventually { !bridge.activities(at: "/users/bsky.brid.gy/inbox", type: "Undo").isEmpty })
            func lastCommand() -> String? {
                bridge.activities(at: "/users/bsky.brid.gy/inbox", type: "Create").last?.object?["content"] as? String
            }
            #expect(try await eventually { lastCommand()?.contains("stop") == true }, "\(lastCommand() ?? "no command")")
            #expect(try blog.runtime.blueskyBridge() == BlueskyBridge.Status())
        }
    }

    /// Without a running server the command delivers the Follow itself (the queue is durable:
    /// what it could not send waits for `lectern serve` or `lectern deliver`).
    @Test func followWithoutARunningServer() async throws {
        let remote = try FakeInstance()
        try await remote.start()
        defer { remote.stop() }
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("lectern-follow-\(UUID().uuidString)")
        try SiteScaffold.create(at: root)
        defer { try? FileManager.default.removeItem(at: root) }
        let config = root.appendingPathComponent("lectern.yml")
        try (try String(contentsOf: config, encoding: .utf8) + "\nfederation:\n  allowPrivateAddresses: true\n")
            .write(to: config, atomically: true, encoding: .utf8)
        let output = try lectern(["follow", "@alice@\(remote.host)"], site: root)
        #expect(output.contains("1 delivered"), "\(output)")
        let follow = try #require(remote.activities(at: "/users/alice/inbox", type: "Follow").first)
        #expect(follow.activity["object"] as? String == remote.actorID("alice"))
        let listed = try lectern(["following"], site: root)
        #expect(listed.contains("@alice@\(remote.host)") && listed.contains("pending"), "\(listed)")
        let unknown = try lectern(["unfollow", "@nobody@\(remote.host)"], site: root, expectSuccess: false)
        #expect(unknown.contains("error:"), "\(unknown)")
    }
}
