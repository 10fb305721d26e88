import Foundation
import OutboundHTTP
import HTTPSignatures
import LecternRuntime
import Storage
import Testing
@testable import WebServer

/// How the blog appears to other servers (issue 16): posts as Articles or Notes, quote requests
/// answered by policy, every id it hands out fetchable (by whom it may be), thread context and
/// counts, "reply from your own server", and moving the blog's followers to another account.
@Suite(.serialized) struct FediverseAppearanceTests {
    /// GET `url` as ActivityPub, signed as `name` on `remote` (as Mastodon fetches) or unsigned.
    func fetch(_ url: String, as name: String? = nil, on remote: FakeInstance) async throws -> (status: Int, json: [String: Any], response: IncomingResponse) {
        var request = HTTPRequestParts(method: "GET", url: url, headers: [("Accept", "application/activity+json")])
        if let name { try CavageSigner(keyId: remote.keyID(name), key: remote.keys[name]!).sign(&request) }
        let response = try await FetchClient(allowPrivateAddresses: true)
            .perform(OutgoingRequest(url: request.targetURI, headers: request.headers), on: testTransfers)
        return (response.status, (try? JSONSerialization.jsonObject(with: Data(response.body))) as? [String: Any] ?? [:], response)
    }

    func write(_ blog: BlogFixture, _ name: String, _ text: String) throws {
        try text.write(to: blog.root.appendingPathComponent("content/posts/\(name).md"), atomically: true, encoding: .utf8)
    }

    func created(_ remote: FakeInstance, _ id: String) -> FakeInstance.Received? {
        remote.activities(type: "Create").first { $0.object?["id"] as? String == id }
    }

    @Test func postsFederateAsArticlesThenAsNotesAndKeepTheirType() async throws {
        try await withBlog(follower: "alice") { remote, blog in
            // An Article (FEP-b2b8): title, plain summary, link, full text, preview, counts, context, quote policy.
            try write(blog, "long-read", "---\ntitle: A long read\ndate: \(dated())\nsummary: What it is about, <in> plain text.\ntags: [Swift, web]\n---\n"
                      + "First paragraph with **bold**.\n")
            try blog.rebuild()
            let articleID = blog.base + "/\(thisYear)/a-long-read/"
            try await served("Create of the Article") { created(remote, articleID) != nil }
            let create = try #require(created(remote, articleID))
            #expect(create.verifiedKeyID == blog.actor + "#main-key")
            #expect(create.objectFetchStatus == 200)
            let article = try #require(create.object)
            #expect(article["type"] as? String == "Article")
            // Title and summary under the site's language only: Mastodon reads `nameMap` and
            // `summaryMap`; GoToSocial and Misskey would take a plain `summary` (or `name`) for a
            // content warning. The text opens with the linked title; `contentMap` repeats it.
            #expect(article["name"] == nil && article["summary"] == nil)
            #expect(article["nameMap"] as? [String: String] == ["en": "A long read"])
            #expect(article["summaryMap"] as? [String: String] == ["en": "What it is about, <in> plain text."], "a plain-text summary")
            #expect(article["url"] as? String == articleID)
            let articleContent = try #require(article["content"] as? String)
            #expect(articleContent.hasPrefix("<p><strong><a href=\"\(articleID)\">A long read</a></strong></p>"))
            #expect(articleContent.contains("<strong>bold</strong>"))
            #expect(article["contentMap"] as? [String: String] == ["en": articleContent])
            let preview = try #require(article["preview"] as? [String: Any])
            #expect(preview["type"] as? String == "Note")
            #expect((preview["content"] as? String)?.contains(articleID) == true)
            #expect((article["likes"] as? [String: Any])?["totalItems"] as? Int == 0)
            #expect((article["shares"] as? [String: Any])?["totalItems"] as? Int == 0)
            #expect(article["context"] as? String == articleID + "context")
            let policy = try #require(((article["interactionPolicy"] as? [String: Any])?["canQuote"] as? [String: Any]))
            #expect(policy["automaticApproval"] as? [String] == ["https://www.w3.org/ns/activitystreams#Public"])

            // From now on posts federate as Notes; the Article stays an Article.
            let configFile = blog.root.appendingPathComponent("lectern.yml")
            let config = try String(contentsOf: configFile, encoding: .utf8)
            try config.replacingOccurrences(of: "  allowPrivateAddresses: true\n", with: "  allowPrivateAddresses: true\n  postsAs: Note\n")
                .write(to: configFile, atomically: true, encoding: .utf8)
            try blog.runtime.reloadSettings()
            try FileManager.default.createDirectory(at: blog.root.appendingPathComponent("static/images"), withIntermediateDirectories: true)
            try Data([0x89, 0x50, 0x4e, 0x47]).write(to: blog.root.appendingPathComponent("static/images/diagram.png"))
            try write(blog, "short-one", "---\ntitle: A short one\ndate: \(dated())\ntags: [Swift]\n---\nSee the picture.\n\n"
                      + "![A diagram of the flow](/images/diagram.png)\n")
            try blog.rebuild()
            let noteID = blog.base + "/\(thisYear)/a-short-one/"
            try await served("Create of the Note") { created(remote, noteID) != nil }
            let note = try #require(created(remote, noteID)?.object)
            #expect(note["type"] as? String == "Note")
            let content = note["content"] as? String ?? ""
            #expect(content.contains("A short one") && content.contains("href=\"\(noteID)\""), "title and link: \(content)")
            let tags = note["tag"] as? [[String: Any]] ?? []
            #expect(tags.contains { $0["type"] as? String == "Hashtag" && $0["name"] as? String == "#Swift"
                    && $0["href"] as? String == blog.base + "/tags/swift/" })
            let images = note["attachment"] as? [[String: Any]] ?? []
            #expect(images.count == 1)
            #expect(images.first?["url"] as? String == blog.base + "/images/diagram.png")
            #expect(images.first?["name"] as? String == "A diagram of the flow")
            #expect(note["context"] as? String == noteID + "context")
            #expect((note["likes"] as? [String: Any])?["totalItems"] as? Int == 0)

            #expect(try await fetch(noteID, on: remote).json["type"] as? String == "Note")
            #expect(try await fetch(articleID, on: remote).json["type"] as? String == "Article", "already federated: keeps its type")
            try write(blog, "long-read", "---\ntitle: A long read\ndate: \(dated())\nsummary: What it is about, <in> plain text.\ntags: [Swift, web]\n---\n"
                      + "First paragraph, edited.\n")
            try blog.rebuild()
            try await served("Update of the Article") { remote.activities(type: "Update").contains { $0.object?["id"] as? String == articleID } }
            #expect(remote.activities(type: "Update").first { $0.object?["id"] as? String == articleID }?.object?["type"] as? String == "Article")
        }
    }

    @Test func quoteRequestsAreAnsweredByPolicy() async throws {
        try await withBlog(extraConfig: "  quotePolicy: followers\n", follower: "alice") { remote, blog in
            let article = try await fetch(blog.postID, on: remote).json
            #expect(((article["interactionPolicy"] as? [String: Any])?["canQuote"] as? [String: Any])?["automaticApproval"] as? [String]
                    == [blog.actor + "/followers"])

            func request(_ name: String, _ status: String, quoting post: String? = nil, instrument: String? = nil) -> [String: Any] {
                let quoting = instrument ?? remote.actorID(name) + "/statuses/" + status
                return ["@context": ["https://www.w3.org/ns/activitystreams", ["QuoteRequest": "https://w3id.org/fep/044f#QuoteRequest"]],
                        "id": remote.actorID(name) + "/statuses/" + status + "/quote", "type": "QuoteRequest", "actor": remote.actorID(name),
                        "object": post ?? blog.postID, "instrument": quoting]
            }
            func answers(_ type: String) -> [FakeInstance.Received] {
                remote.activities(type: type).filter { $0.object?["type"] as? String == "QuoteRequest" }
            }

            // A follower may quote: Accept, with a QuoteAuthorization anyone can fetch.
            #expect(try await remote.send(request("alice", "1"), as: "alice", to: blog.sharedInbox) == 202)
            try await served("Accept of alice's quote") { !answers("Accept").isEmpty }
            let accept = try #require(answers("Accept").first)
            #expect(accept.verifiedKeyID == blog.actor + "#main-key")
            #expect(accept.object?["id"] as? String == remote.actorID("alice") + "/statuses/1/quote")
            let result = try #require(accept.activity["result"] as? String)
            #expect(result.hasPrefix(blog.actor + "/quotes/"))
            let stamp = try await fetch(result, on: remote)
            #expect(stamp.status == 200)
            #expect(stamp.json["type"] as? String == "QuoteAuthorization")
            #expect(stamp.json["attributedTo"] as? String == blog.actor)
            #expect(stamp.json["interactingObject"] as? String == remote.actorID("alice") + "/statuses/1")
            #expect(stamp.json["interactionTarget"] as? String == blog.postID)

            // Someone else may not: Reject, and no authorization.
            let kept = try blog.store.rowCounts()["sent_objects"]
            #expect(try await remote.send(request("carol", "2"), as: "carol", to: blog.sharedInbox) == 202)
            try await served("Reject of carol's quote") { !answers("Reject").isEmpty }
            #expect(answers("Reject").first?.object?["id"] as? String == remote.actorID("carol") + "/statuses/2/quote")
            #expect(try blog.store.rowCounts()["sent_objects"] == kept)

            // Asking for someone else's post, or for a post not on the asker's server: no answer at all.
            #expect(try await remote.send(request("alice", "3", instrument: "https://elsewhere.example/statuses/3"),
                                          as: "alice", to: blog.sharedInbox) == 202)
            #expect(try await remote.send(request("alice", "4", quoting: "https://elsewhere.example/posts/4"), as: "alice",
                                          to: blog.sharedInbox) == 202)
            #expect(try await eventually { try blog.store.inbox.inboundBacklog() == 0 })
            try await Task.sleep(for: .milliseconds(300))
            #expect(answers("Accept").count + answers("Reject").count == 2)
            #expect(try await fetch(blog.actor + "/quotes/no-such-token", on: remote).status == 404)
        }
    }

    @Test func directNotesAnswerOnlyTheirAddressee() async throws {
        try await withBlog { remote, blog in
            // A followers-only reply is answered by a direct note: its id must answer bob, and only bob.
            var reply = blog.note(remote.base.value + "/notes/private-1", by: remote, "bob", inReplyTo: blog.postID,
                                  content: "<p>Just for you.</p>", to: [remote.actorID("bob") + "/followers", blog.actor], cc: [])
            reply["url"] = reply["id"]
            #expect(try await remote.send(blog.create(reply, by: remote, "bob"), as: "bob", to: blog.sharedInbox) == 202)
            try await served("direct note to bob") { !remote.activities(type: "Create").isEmpty }
            let note = try #require(remote.activities(type: "Create").first?.object)
            let id = try #require(note["id"] as? String)
            #expect(id.hasPrefix(blog.actor + "/notes/"))
            #expect(note["to"] as? [String] == [remote.actorID("bob")])

            #expect(try await fetch(id, on: remote).status == 404, "unsigned: as if it did not exist")
            #expect(try await fetch(id, as: "alice", on: remote).status == 404, "not addressed to alice")
            let fetched = try await fetch(id, as: "bob", on: remote)
            #expect(fetched.status == 200)
            #expect(fetched.json["type"] as? String == "Note")
            #expect(fetched.json["content"] as? String == note["content"] as? String)
            #expect(fetched.response.header("cache-control")?.contains("private") == true, "no shared cache keeps it")
            #expect(try await fetch(id + "/activity", as: "bob", on: remote).status == 404)

            try blog.store.sentObjects.deleteSentObject(id: id)
            let gone = try await fetch(id, as: "bob", on: remote)
            #expect(gone.status == 410)
            #expect(gone.json["type"] as? String == "Tombstone")
        }
    }

    @Test func threadContextAndCountsAreCollections() async throws {
        try await withBlog { remote, blog in
            let comment = remote.base.value + "/notes/public-1"
            #expect(try await remote.send(blog.create(blog.note(comment, by: remote, "bob", inReplyTo: blog.postID, content: "<p>Hi.</p>"),
                                                      by: remote, "bob"), as: "bob", to: blog.sharedInbox) == 202)
            #expect(try await eventually { try blog.store.comments.comment(id: comment) != nil })
            #expect(try await remote.send(["id": remote.actorID("alice") + "/likes/1", "type": "Like", "actor": remote.actorID("alice"),
                                           "object": blog.postID], as: "alice", to: blog.sharedInbox) == 202)
            #expect(try await eventually { try blog.store.reactions.reactionCounts(postPath: blog.post).likes == 1 })

            let context = try await fetch(blog.postID + "context", on: remote).json
            #expect(context["type"] as? String == "OrderedCollection")
            #expect(context["attributedTo"] as? String == blog.actor)
            #expect(context["totalItems"] as? Int == 2)
            let first = try #require(context["first"] as? String)
            let items = try await fetch(first, on: remote).json["orderedItems"] as? [String]
            #expect(items == [blog.postID, comment], "the post, then its comments")

            let likes = try await fetch(blog.postID + "likes", on: remote).json
            #expect(likes["id"] as? String == blog.postID + "likes")
            #expect(likes["totalItems"] as? Int == 1)
            #expect(try await fetch(blog.postID + "shares", on: remote).json["totalItems"] as? Int == 0)
            #expect(try await fetch(blog.base + "/2025/no-such-post/context", on: remote).status == 404)
        }
    }

    @Test func readersReplyFromTheirOwnServer() async throws {
        try await withBlog { remote, blog in
            let page = try await blog.get(blog.post).body
            #expect(page.contains("action=\"/interact\""), "the form is on the page")
            #expect(page.contains("name=\"uri\" value=\"\(blog.postID)\""))

            func interact(_ instance: String, uri: String) async throws -> IncomingResponse {
                var allowed = CharacterSet.alphanumerics
                allowed.insert(charactersIn: "-._~")
                let query = "instance=\(instance.addingPercentEncoding(withAllowedCharacters: allowed)!)"
                    + "&uri=\(uri.addingPercentEncoding(withAllowedCharacters: allowed)!)"
                return try await HTTPClientForTests.get(blog.base + "/interact?" + query, accept: "text/html")
            }
            let redirected = try await interact(" @me@Mastodon.Social ", uri: blog.postID)
            #expect(redirected.status == 303)
            #expect(redirected.header("location") == "https://mastodon.social/authorize_interaction?uri="
                    + blog.postID.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(.init(charactersIn: "-._~")))!)
            let gets = remote.gets.value.values.reduce(0, +)
            for refused in ["127.0.0.1", "evil.example/path?x=1", "javascript:alert(1)", "mastodon.social:8443", "a b.example", ""] {
                let response = try await interact(refused, uri: blog.postID)
                #expect(response.status == 400, "\(refused)")
                #expect(response.header("location") == nil)
            }
            #expect(try await interact("mastodon.social", uri: "https://evil.example/x").status == 400, "only our own posts")
            #expect(remote.gets.value.values.reduce(0, +) == gets, "no request made for an anonymous reader")
        }
    }

    @Test func theBlogMovesItsFollowersToAnotherAccount() async throws {
        // Moving in: the blog names the owner's old account, which moves its followers here; they arrive and are accepted.
        try await withBlog(extraConfig: { "profile:\n  alsoKnownAs: [\"\($0.actorID("owner"))\"]\n" }) { remote, blog in
            #expect(try await fetch(blog.actor, on: remote).json["alsoKnownAs"] as? [String] == [remote.actorID("owner")],
                    "moving in: the old account is named, so servers carry out its Move")
            try await blog.follow(by: remote, "alice")
            try await served("Accept of the moved follower") { !remote.activities(type: "Accept").isEmpty }
            #expect(remote.activities(type: "Accept").first?.verifiedKeyID == blog.actor + "#main-key")

            // carol is the new account; until she names the blog as an alias, a move is refused.
            let carol = remote.actorID("carol")
            func serveCarol(aliases: [String]) throws {
                remote.serve("/users/carol", [
                    "@context": ["https://www.w3.org/ns/activitystreams", "https://w3id.org/security/v1"],
                    "id": carol, "type": "Person", "preferredUsername": "carol", "inbox": carol + "/inbox", "alsoKnownAs": aliases,
                    "publicKey": ["id": carol + "#main-key", "owner": carol, "publicKeyPem": try remote.keys["carol"]!.publicKey.pemSPKI()],
                ])
            }
            try serveCarol(aliases: [])
            let refused = try lectern(["move", "--to", carol], site: blog.root, expectSuccess: false)
            #expect(refused.contains("alsoKnownAs"), "\(refused)")
            #expect(try await fetch(blog.actor, on: remote).json["movedTo"] == nil)
            #expect(remote.activities(type: "Move").isEmpty)

            try serveCarol(aliases: [blog.actor])
            let moved = try lectern(["move", "--to", carol], site: blog.root)
            #expect(moved.contains("1 follower"), "\(moved)")
            try await served("Move delivered") { !remote.activities(type: "Move").isEmpty }
            let move = try #require(remote.activities(type: "Move").first)
            #expect(move.verifiedKeyID == blog.actor + "#main-key")
            #expect(move.activity["object"] as? String == blog.actor)
            #expect(move.activity["target"] as? String == carol)
            try await served("actor states movedTo") { try await fetch(blog.actor, on: remote).json["movedTo"] as? String == carol }

            try lectern(["move", "--cancel"], site: blog.root)
            try await served("movedTo withdrawn") { try await fetch(blog.actor, on: remote).json["movedTo"] == nil }
        }
    }
}
