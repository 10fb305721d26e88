import Foundation
import OutboundHTTP
import HTTPSignatures
import Interactions
import Storage
import Testing
@testable import WebServer

/// What real servers need of the blog, each learned from a real one (docs/interop.md): GoToSocial
/// webfingers every actor that signs a request to it; Takahē sends a Follow again with an earlier
/// one's id and reads only NodeInfo 2.0; GoToSocial loses an activity it retries after a 503.
@Suite(.serialized) struct RealServerTests {
    func jrd(_ blog: BlogFixture, _ resource: String) async throws -> (status: Int, json: [String: Any]) {
        let encoded = resource.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? resource
        let (status, body) = try await blog.get("/.well-known/webfinger?resource=" + encoded, accept: "application/jrd+json")
        return (status, (try? JSONSerialization.jsonObject(with: Data(body.utf8))) as? [String: Any] ?? [:])
    }

    func selfLink(_ json: [String: Any]) -> String? {
        (json["links"] as? [[String: Any]])?.first { $0["rel"] as? String == "self" }?["href"] as? String
    }

    /// Every actor the blog signs with resolves both ways: its `preferredUsername@host` leads to
    /// its id, and its id to the same account (GoToSocial answers the blog's GETs with 500 otherwise).
    @Test func everySigningActorIsWebfingerableBothWays() async throws {
        try await withBlog { _, blog in
            let host = "127.0.0.1:\(blog.port)"
            for path in ["/actor", "/instance-actor"] {
                let actor = try await blog.getJSON(path)
                let username = try #require(actor["preferredUsername"] as? String)
                let account = "acct:\(username)@\(host)"
                let byAccount = try await jrd(blog, account)
                #expect(byAccount.status == 200, "\(account)")
                #expect(byAccount.json["subject"] as? String == account)
                #expect(selfLink(byAccount.json) == blog.base + path)
                let byID = try await jrd(blog, blog.base + path)
                #expect(byID.json["subject"] as? String == account, "the actor's id resolves to its account")
                #expect(actor["webfinger"] as? String == "\(username)@\(host)")
            }
            // The instance actor's collections answer (GoToSocial fetches them), empty.
            let instance = try await blog.getJSON("/instance-actor")
            for name in ["outbox", "followers", "following", "featured"] {
                let id = try #require(instance[name] as? String, "\(name)")
                #expect(id == blog.base + "/instance-actor/" + name)
                let collection = try await blog.getJSON("/instance-actor/" + name)
                #expect(collection["id"] as? String == id && collection["totalItems"] as? Int == 0, "\(name)")
            }
            #expect(try await jrd(blog, "acct:someone@\(host)").status == 404)
            #expect(try await jrd(blog, "acct:\(host)@elsewhere.example").status == 404)
        }
    }

    @Test func nodeInfoIsServedIn21And20() async throws {
        try await withBlog { _, blog in
            let links = try await blog.getJSON("/.well-known/nodeinfo")["links"] as? [[String: Any]] ?? []
            #expect(links.compactMap { $0["rel"] as? String }
                    == ["http://nodeinfo.diaspora.software/ns/schema/2.1", "http://nodeinfo.diaspora.software/ns/schema/2.0"])
            for version in ["2.1", "2.0"] {
                let href = try #require(links.first { ($0["rel"] as? String)?.hasSuffix(version) == true }?["href"] as? String)
                #expect(href == blog.base + "/nodeinfo/" + version)
                let document = try await blog.getJSON("/nodeinfo/" + version)
                #expect(document["version"] as? String == version)
                let software = try #require(document["software"] as? [String: Any])
                #expect(software["name"] as? String == "lectern")
                // 2.0's schema allows only a name and a version.
                #expect((software["homepage"] != nil) == (version == "2.1"))
            }
        }
    }

    /// The ids of the Accepts `remote` received for the Follow `followID`.
    func accepts(_ remote: FakeInstance, of followID: String) -> [String] {
        remote.activities(type: "Accept").filter { ($0.object?["id"] as? String) == followID }.compactMap { $0.activity["id"] as? String }
    }

    /// Takahē follows again after an unfollow with the first Follow's id; a follower's server may
    /// have lost the first Accept. Each gets an Accept of its own, and the follow holds.
    @Test func aFollowSentAgainWithItsOldIdIsAnsweredAgain() async throws {
        try await withBlog { (remote: FakeInstance, blog: BlogFixture) async throws -> Void in
            let alice = remote.actorID("alice")
            let follow: [String: Any] = ["id": alice + "/follows/takahe-1", "type": "Follow", "actor": alice, "object": blog.actor]
            // Each sent with a Date of its own: the same request in the same second would be the
            // same signature, a replay (the next test).
            func send(_ activity: [String: Any], secondsAgo: Double) async throws -> Int {
                try await remote.post(try remote.signedPost(activity, as: "alice", to: blog.sharedInbox,
                                                            date: Date().addingTimeInterval(-secondsAgo)))
            }
            #expect(try await send(follow, secondsAgo: 4) == 202)
            #expect(try await eventually { try blog.store.followers.isFollower(alice) && accepts(remote, of: alice + "/follows/takahe-1").count == 1 })
            let undo: [String: Any] = ["id": alice + "/follows/takahe-1/undo", "type": "Undo", "actor": alice, "object": follow]
            #expect(try await send(undo, secondsAgo: 3) == 202)
            #expect(try await eventually { try !blog.store.followers.isFollower(alice) })
            #expect(try await send(follow, secondsAgo: 2) == 202)
            #expect(try await eventually { try blog.store.followers.isFollower(alice) && accepts(remote, of: alice + "/follows/takahe-1").count == 2 }, "followed again")
            // A current follower asking again is answered again too.
            #expect(try await send(follow, secondsAgo: 1) == 202)
            #expect(try await eventually { accepts(remote, of: alice + "/follows/takahe-1").count == 3 })
            #expect(Set(accepts(remote, of: alice + "/follows/takahe-1")).count == 3, "each Accept has an id of its own")
            #expect(try blog.store.followers.isFollower(alice))
        }
    }

    /// The same request twice is still a replay: a Follow is taken again only with a signature of its own.
    @Test func aReplayedFollowIsStillRefused() async throws {
        try await withBlog { remote, blog in
            let alice = remote.actorID("alice")
            let request = try remote.signedPost(["id": alice + "/follows/r", "type": "Follow", "actor": alice, "object": blog.actor],
                                                as: "alice", to: blog.sharedInbox)
            #expect(try await remote.post(request) == 202)
            #expect(try await remote.post(request) == 401)
            #expect(try await eventually { remote.activities(type: "Accept").count == 1 })
        }
    }

    /// The blog meets `name` on `remote` (a like, whose key it fetches): their server is known.
    func meet(_ remote: FakeInstance, _ name: String, _ blog: BlogFixture) async throws {
        let like: [String: Any] = ["id": remote.actorID(name) + "/likes/hello", "type": "Like", "actor": remote.actorID(name),
                                   "object": blog.postID]
        #expect(try await remote.send(like, as: name, to: blog.sharedInbox) == 202)
        // The key is stored while the request is checked, before the 202; the Like itself leaves the
        // queue later, and callers count on an empty backlog.
        #expect(try await eventually {
            try blog.store.actors.remoteActor(id: remote.actorID(name)) != nil && blog.store.inbox.inboundBacklog() == 0
        })
    }

    /// A Follow whose key cannot be had when it arrives (its server answers 503) is held, not
    /// refused with a 503 (GoToSocial's retry after a 503 sends an empty body), and taken once the
    /// key can be had; a forged request held beside it is dropped then, leaving nothing.
    @Test func requestsWhoseKeyCannotBeHadNowAreHeldAndCheckedLater() async throws {
        try await withBlog { remote, blog in
            try await meet(remote, "bob", blog)
            let alice = remote.actorID("alice")
            remote.failingGets.value["/users/alice"] = 1
            let follow: [String: Any] = ["id": alice + "/follows/held", "type": "Follow", "actor": alice, "object": blog.actor]
            #expect(try await remote.send(follow, as: "alice", to: blog.sharedInbox) == 202)
            // Signed with mallory's key under alice's key id: it verifies as nobody.
            let like: [String: Any] = ["id": alice + "/likes/forged", "type": "Like", "actor": alice, "object": blog.postID]
            let forged = try remote.signedPost(like, as: "alice", to: blog.sharedInbox, key: "mallory", keyID: remote.keyID("alice"))
            #expect(try await remote.post(forged) == 202)
            #expect(try await remote.post(forged) == 202, "the same signature again: held once")
            #expect(try blog.store.heldInbound.heldInboundCount() == 2)
            #expect(try blog.store.inbox.inboundBacklog() == 0 && !blog.store.followers.isFollower(alice), "nothing applied before it verifies")
            let held = ContinuousClock.now
            #expect(try await eventually(within: 70) { try blog.store.followers.isFollower(alice) }, "taken once the key could be had")
            print("held Follow taken after \(ContinuousClock.now - held)")
            #expect(try await eventually { remote.activities(type: "Accept").count == 1 })
            #expect(try await eventually { try blog.store.heldInbound.heldInboundCount() == 0 })
            #expect(try blog.store.reactions.reactionCounts(postPath: blog.post).likes == 1, "bob's only: the forged Like was dropped")
        }
    }

    /// Held requests are bounded per key host: past it, 503 as before, and nothing stored. Only a
    /// server the blog has met, naming a key on the actor's own origin, is held at all.
    @Test func heldRequestsAreBounded() async throws {
        let unmet = try FakeInstance(names: ["dave"])
        try await unmet.start()
        defer { unmet.stop() }
        try await withBlog { (remote: FakeInstance, blog: BlogFixture) async throws -> Void in
            try await meet(remote, "alice", blog)
            // A key on another origin than its actor's: refused, nothing held.
            let stranger = "http://127.0.0.2:9/users/x"
            let elsewhere = try remote.signedPost(["id": stranger + "/likes/1", "type": "Like", "actor": stranger, "object": blog.postID],
                                                  as: "mallory", to: blog.sharedInbox)
            #expect(try await remote.post(elsewhere) != 202)
            // A server never met whose key cannot be had: 503, nothing held.
            unmet.failingGets.value["/users/dave"] = 1
            let first: [String: Any] = ["id": unmet.actorID("dave") + "/likes/first", "type": "Like", "actor": unmet.actorID("dave"),
                                        "object": blog.postID]
            #expect(try await unmet.send(first, as: "dave", to: blog.sharedInbox) == 503)
            #expect(try blog.store.heldInbound.heldInboundCount() == 0)
            remote.failingGets.value["/users/carol"] = 1_000
            var statuses: [Int] = []
            for n in 0...HeldInboundQueue.heldPerKeyHost {
                let like: [String: Any] = ["id": remote.actorID("carol") + "/likes/\(n)", "type": "Like", "actor": remote.actorID("carol"),
                                           "object": blog.postID]
                statuses.append(try await remote.send(like, as: "carol", to: blog.sharedInbox))
            }
            #expect(statuses.dropLast().allSatisfy { $0 == 202 })
            let heldNow = try blog.store.heldInbound.heldInboundCount()
            #expect(statuses.last == 503, "\(statuses), held \(heldNow)")
            #expect(try blog.store.heldInbound.heldInboundCount() == HeldInboundQueue.heldPerKeyHost)
        }
    }

    /// A post's `lang:` is its language on the fediverse (`contentMap`, `nameMap`) and on its page.
    @Test func aPostInAnotherLanguageSaysSo() async throws {
        try await withBlog { _, blog in
            try "---\ntitle: Ein Beitrag\ndate: 2025-03-01\nlang: de\nsummary: Kurz.\n---\nHallo Welt.\n"
                .write(to: blog.root.appendingPathComponent("content/posts/ein-beitrag.md"), atomically: true, encoding: .utf8)
            try blog.rebuild()
            #expect(try await eventually { try await blog.getJSON("/2025/ein-beitrag/")["nameMap"] != nil })
            let article = try await blog.getJSON("/2025/ein-beitrag/")
            #expect(article["nameMap"] as? [String: String] == ["de": "Ein Beitrag"])
            #expect(article["summaryMap"] as? [String: String] == ["de": "Kurz."])
            #expect((article["contentMap"] as? [String: String]).map { Array($0.keys) } == ["de"])
            #expect(try await blog.get("/2025/ein-beitrag/").body.contains(#"<article class="post h-entry" lang="de">"#))
            // The site's own posts carry the site's language.
            #expect((try await blog.getJSON(blog.post)["contentMap"] as? [String: String]).map { Array($0.keys) } == ["en"])
        }
    }

    /// One User-Agent, naming the blog, on every request it makes: key fetches and deliveries.
    @Test func everyRequestCarriesOneUserAgent() async throws {
        try await withBlog(follower: "alice") { (remote: FakeInstance, blog: BlogFixture) async throws -> Void in
            #expect(try await eventually { remote.activities(type: "Accept").count == 1 })
            #expect(remote.userAgents.value == ["Lectern/\(BlogActor.softwareVersion) (+\(blog.base)/)"])
        }
    }
}
