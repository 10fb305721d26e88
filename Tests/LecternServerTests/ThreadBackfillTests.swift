import Foundation
import Interactions
import LecternRuntime
import Testing

/// Whole threads: a reply to a comment that does not mention the blog, and a reply to that
/// reply, reach the page through the `replies` collections their servers serve; a copy a
/// collection embeds is never what shows; a collection of thousands costs its server a bounded
/// number of fetches.
@Suite(.serialized) struct ThreadBackfillTests {
    static let publicAddress = "https://www.w3.org/ns/activitystreams#Public"

    /// A note as a server serves it at its id, with its `replies` collection's URL.
    func note(_ remote: FakeInstance, _ name: String, _ id: String, inReplyTo: String, content: String, to: [String]) -> [String: Any] {
        ["@context": "https://www.w3.org/ns/activitystreams", "id": id, "type": "Note", "attributedTo": remote.actorID(name),
         "inReplyTo": inReplyTo, "content": content, "published": "2026-11-22T10:00:00Z", "to": [Self.publicAddress], "cc": to,
         "url": id, "replies": id + "/replies"]
    }

    /// A collection whose first page is embedded (as Mastodon serves them).
    func collection(_ id: String, items: [Any], next: String? = nil) -> [String: Any] {
        var page: [String: Any] = ["id": id + "?page=1", "type": "CollectionPage", "partOf": id, "items": items]
        if let next { page["next"] = next }
        return ["@context": "https://www.w3.org/ns/activitystreams", "id": id, "type": "Collection", "first": page]
    }

    /// Two fake servers and a blog that reads threads, stopped after `body`.
    func withTwoServers(_ body: (FakeInstance, FakeInstance, BlogFixture) async throws -> Void) async throws {
        let first = try FakeInstance(), second = try FakeInstance()
        try await first.start()
        try await second.start()
        defer { first.stop(); second.stop() }
        let blog = try await BlogFixture(remote: first, threads: true)
        defer { blog.stop() }
        try await body(first, second, blog)
    }

    @Test func repliesNotAddressedToTheBlogJoinTheThreadFromTheirOwnServers() async throws {
        try await withTwoServers { first, second, blog in try await wholeThread(first, second, blog) }
    }

    func wholeThread(_ first: FakeInstance, _ second: FakeInstance, _ blog: BlogFixture) async throws {
        let (a, b) = (first.base.value, second.base.value)
        // Alice (first) comments on the post; Bob (second) answers her without the blog's mention;
        // Alice answers Bob. Bob's server also lists a "reply" whose embedded copy is forged.
        let n1 = a + "/notes/n1", n2 = b + "/notes/n2", n3 = a + "/notes/n3", forged = b + "/notes/f"
        var delivered = blog.note(n1, by: first, "alice", inReplyTo: blog.postID, content: "<p>First comment.</p>")
        delivered["replies"] = n1 + "/replies"
        first.serve("/notes/n1", delivered)
        first.serve("/notes/n1/replies", collection(n1 + "/replies", items: [
            n2, ["id": forged, "type": "Note", "inReplyTo": n1, "attributedTo": second.actorID("bob"), "content": "<p>FORGED words</p>"],
        ]))
        second.serve("/notes/n2", note(second, "bob", n2, inReplyTo: n1, content: "<p>Bob answers Alice.</p>", to: [first.actorID("alice")]))
        second.serve("/notes/n2/replies", collection(n2 + "/replies", items: [n3]))
        second.serve("/notes/f", note(second, "bob", forged, inReplyTo: n1, content: "<p>What Bob really wrote.</p>", to: []))
        second.serve("/notes/f/replies", collection(forged + "/replies", items: []))
        first.serve("/notes/n3", note(first, "alice", n3, inReplyTo: n2, content: "<p>Alice answers Bob.</p>", to: [second.actorID("bob")]))
        first.serve("/notes/n3/replies", collection(n3 + "/replies", items: []))
        #expect(try await first.send(blog.create(delivered, by: first, "alice"), as: "alice", to: blog.sharedInbox) == 202)

        #expect(try await eventually(within: 60) {
            let page = try await blog.get(blog.post).body
            return page.contains("Bob answers Alice.") && page.contains("Alice answers Bob.") && page.contains("What Bob really wrote.")
        }, "the whole thread shows")
        let page = try await blog.get(blog.post).body
        #expect(!page.contains("FORGED"), "read from its own server, never from the list")
        #expect(try blog.store.comments.comment(id: n2)?.parentID == n1 && blog.store.comments.comment(id: n3)?.parentID == n2, "nested in place")
        // Every collection read: no fetch of it is under way when the fake servers stop.
        #expect(try await eventually(within: 20) { try blog.store.threadBackfill.nextDue().map { $0 > Date().addingTimeInterval(60) } ?? true })
    }

    /// A thread of 5,000 replies over 500 pages: a reading takes at most `maximumPages` pages
    /// and `maximumItems` replies, and its server is asked at most `perHost` times a minute.
    @Test func aHugeCollectionCostsItsServerABoundedNumberOfFetches() async throws {
        try await withTwoServers { first, second, blog in try await hugeCollection(first, second, blog) }
    }

    func hugeCollection(_ first: FakeInstance, _ second: FakeInstance, _ blog: BlogFixture) async throws {
        let (a, b) = (first.base.value, second.base.value)
        let n1 = a + "/notes/big"
        var delivered = blog.note(n1, by: first, "alice", inReplyTo: blog.postID, content: "<p>A popular comment.</p>")
        delivered["replies"] = n1 + "/replies"
        first.serve("/notes/big", delivered)
        for page in 1...500 {
            let items = (0..<10).map { b + "/notes/r\(page)-\($0)" }  // on another server, never served
            let id = n1 + "/replies"
            var document: [String: Any] = ["id": id + "/p\(page)", "type": "CollectionPage", "partOf": id, "items": items]
            if page < 500 { document["next"] = id + "/p\(page + 1)" }
            first.serve("/notes/big/replies/p\(page)", document)
        }
        first.serve("/notes/big/replies", ["id": n1 + "/replies", "type": "Collection", "totalItems": 5000, "first": n1 + "/replies/p1"])
        #expect(try await first.send(blog.create(delivered, by: first, "alice"), as: "alice", to: blog.sharedInbox) == 202)
        let pagesRead = { (1...500).reduce(0) { $0 + first.getCount("/notes/big/replies/p\($1)") } }
        #expect(try await eventually(within: 30) { pagesRead() >= RepliesBackfill.maximumPages })
        // The reading is over once the next one is scheduled; then no page more may be asked.
        #expect(try await eventually(within: 20) { try blog.store.threadBackfill.nextDue().map { $0 > Date().addingTimeInterval(30) } ?? true })
        try await Task.sleep(for: .seconds(1))
        #expect(pagesRead() == RepliesBackfill.maximumPages, "\(pagesRead()) pages")
        let repliesAsked = (1...500).reduce(0) { total, page in (0..<10).reduce(total) { $0 + second.getCount("/notes/r\(page)-\($1)") } }
        #expect(repliesAsked <= min(RepliesBackfill.maximumItems, ThreadBackfillService.perHost), "\(repliesAsked) replies fetched")
        // The blog still answers at once meanwhile.
        let start = ContinuousClock.now
        #expect(try await blog.get("/").status == 200 && ContinuousClock.now - start < .seconds(1))
    }
}
