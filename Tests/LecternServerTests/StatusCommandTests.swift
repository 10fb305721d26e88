import Foundation
import Testing

/// `lectern status` through the real executable, beside a running server.
@Suite(.serialized) struct StatusCommandTests {
    @Test func statusShowsTheBlogAsTextAndJSON() async throws {
        try await withBlog(follower: "alice") { remote, blog in
            #expect(try await remote.send(["id": remote.actorID("bob") + "/likes/x", "type": "Like", "actor": remote.actorID("bob"),
                                           "object": "https://elsewhere.example/post"], as: "bob", to: blog.sharedInbox) == 202)
            #expect(try await eventually { try blog.store.inbox.inboundBacklog() == 0 })
            try blog.runtime.inboxCounter.flush(to: blog.store.inboxCounts)
            let later = ISO8601DateFormatter().string(from: Date().addingTimeInterval(3 * 86_400))
            try "---\ntitle: Coming soon\ndate: \(later)\n---\nNot yet.\n"
                .write(to: blog.root.appendingPathComponent("content/posts/soon.md"), atomically: true, encoding: .utf8)

            let json = try lectern(["status", "--json"], site: blog.root)
            let status = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any], "\(json)")
            let posts = try #require(status["posts"] as? [String: Any])
            #expect(posts["published"] as? Int == 3, "the draft is not counted")
            let scheduled = posts["scheduled"] as? [[String: Any]] ?? []
            #expect(scheduled.map { $0["title"] as? String } == ["Coming soon"])
            #expect((status["followers"] as? [String: Any])?["total"] as? Int == 1)
            #expect((status["followers"] as? [String: Any])?["thisWeek"] as? Int == 1)
            let inbox = try #require(status["inbox"] as? [String: Any])
            #expect((inbox["applied"] as? [String: Int])?["follow"] == 1)
            #expect((inbox["ignored"] as? [String: Int])?.values.reduce(0, +) == 1, "the like of someone else's post")
            #expect((status["server"] as? [String: Any])?["running"] as? Bool == true)
            #expect(status["lastBuild"] is String)

            let text = try lectern(["status"], site: blog.root)
            #expect(text.contains("3 published, 1 scheduled"), "\(text)")
            #expect(text.contains("Coming soon"))
            #expect(text.contains("1 (+1 this week)"))
            #expect(text.contains("running on 127.0.0.1:\(blog.port)"))

            let missing = try lectern(["status"], site: blog.root.appendingPathComponent("nowhere"), expectSuccess: false)
            #expect(missing.contains("error:"), "\(missing)")
        }
    }

    /// `lectern followers`: a row per follower, its columns aligned under the header's, and
    /// no trailing spaces.
    @Test func followersAreListedInAlignedColumns() async throws {
        try await withBlog(follower: "alice") { remote, blog in
            try await blog.follow(by: remote, "mallory")
            let output = try lectern(["followers"], site: blog.root)
            let lines = output.split(separator: "\n").map(String.init)
            #expect(lines.allSatisfy { !$0.hasSuffix(" ") }, "\(output)")
            let header = try #require(lines.first { $0.hasPrefix("handle") }, "\(output)")
            let rows = lines.filter { $0.contains(remote.actorID("alice")) || $0.contains(remote.actorID("mallory")) }
            #expect(rows.count == 2, "\(output)")
            func column(_ line: String, _ range: Range<String.Index>?) -> Int? { range.map { line.distance(from: line.startIndex, to: $0.lowerBound) } }
            let since = column(header, header.range(of: "since"))
            for row in rows {
                #expect(column(row, row.firstRange(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ/)) == since, "\(output)")
            }
            #expect(lines.last?.hasPrefix("2 followers") == true, "\(output)")
        }
    }
}
