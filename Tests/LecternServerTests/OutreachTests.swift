import Foundation
import LecternRuntime
import Testing

/// `lectern stats`: a post delivered to two servers, liked on one, boosted from the other and
/// replied to, through the real server; the report says exactly that.
@Suite(.serialized) struct OutreachTests {
    @Test func aPostsReachAndResponsesAreCountedExactly() async throws {
        let first = try FakeInstance(), second = try FakeInstance()
        try await first.start()
        try await second.start()
        defer { first.stop(); second.stop() }
        let blog = try await BlogFixture(remote: first)
        defer { blog.stop() }
        try await blog.follow(by: first, "alice")
        try await blog.follow(by: second, "bob")
        let now = ISO8601DateFormatter().string(from: Date().addingTimeInterval(-60))
        try "---\ntitle: Reach <test>\ndate: \(now)\n---\nHello, both servers.\n"
            .write(to: blog.root.appendingPathComponent("content/posts/reach.md"), atomically: true, encoding: .utf8)
        try blog.rebuild()
        let year = Calendar(identifier: .gregorian).component(.year, from: Date())
        let path = "/\(year)/reach-test/", post = blog.base + path
        #expect(try await eventually(within: 10) {
            [first, second].allSatisfy { $0.activities(type: "Create").contains { $0.objectTitle == "Reach <test>" } }
        })
        let alice = first.actorID("alice"), bob = second.actorID("bob")
        #expect(try await first.send(["id": alice + "/likes/1", "type": "Like", "actor": alice, "object": post], as: "alice",
                                     to: blog.sharedInbox) == 202)
        #expect(try await second.send(["id": bob + "/announces/1", "type": "Announce", "actor": bob, "object": post,
                                       "to": ["https://www.w3.org/ns/activitystreams#Public"]], as: "bob", to: blog.sharedInbox) == 202)
        let reply = blog.note(first.base.value + "/notes/r1", by: first, "alice", inReplyTo: post, content: "<p>Both of us read it.</p>")
        #expect(try await first.send(blog.create(reply, by: first, "alice"), as: "alice", to: blog.sharedInbox) == 202)
        #expect(try await eventually(within: 10) {
            let report = try blog.runtime.outreachReport(post: path).posts[0]
            return report.likes == 1 && report.boosts == 1 && report.replies.fediverse == 1 && report.inboxes.delivered == 2
        })
        let report = try blog.runtime.outreachReport(post: path)
        let numbers = try #require(report.posts.first)
        #expect(numbers.servers == 2 && numbers.inboxes.delivered == 2 && numbers.inboxes.failed == 0 && numbers.inboxes.pending == 0)
        #expect(Set(numbers.byServer.map(\.host)) == [first.host, second.host])
        #expect(numbers.likes == 1 && numbers.boosts == 1 && numbers.quotes == 0)
        #expect(numbers.replies.fediverse == 1 && numbers.replies.bluesky == 0 && numbers.replies.webmention == 0)
        #expect(numbers.firstResponse != nil && numbers.lastResponse! >= numbers.firstResponse!)
        #expect(report.followers.total == 2 && report.followers.byServer.map(\.count) == [2], "both on 127.0.0.1")
        // The page: charts as inline SVG, every title escaped.
        let page = OutreachPage.html(try blog.runtime.outreachReport())
        #expect(page.contains("<svg") && page.contains("Reach &lt;test&gt;") && !page.contains("Reach <test>"))
        #expect(try blog.runtime.outreachReport(post: post).posts.map(\.path) == [path], "a post is named by its URL too")
    }
}
