import Foundation
import Testing

/// The admin listener: `/healthz` and Prometheus `/metrics` on a loopback port of their own,
/// counting what the blog did (and absent from the public port).
@Suite(.serialized) struct MetricsTests {
    @Test func adminListenerReportsHealthAndCounts() async throws {
        try await withBlog(admin: true) { remote, blog in
            let admin = "http://127.0.0.1:\(try #require(blog.adminPort))"
            #expect(try await eventually { (try? await HTTPClientForTests.get(admin + "/healthz", accept: "*/*"))?.status == 200 })
            let health = try await HTTPClientForTests.get(admin + "/healthz", accept: "*/*")
            #expect(String(decoding: health.body, as: UTF8.self) == "ok\n")

            try await blog.follow(by: remote, "alice")
            let buildsBefore = metricValue(try await blog.metrics(), "lectern_build_duration_seconds_count") ?? 0
            let note = remote.base.value + "/notes/m1"
            #expect(try await remote.send(blog.create(blog.note(note, by: remote, "bob", inReplyTo: blog.postID, content: "<p>Counted.</p>"),
                                                      by: remote, "bob"), as: "bob", to: blog.sharedInbox) == 202)
            #expect(try await eventually { try blog.store.comments.comment(id: note) != nil })
            #expect(try await blog.get("/").status == 200)
            #expect(try await blog.get("/no-such-page/").status == 404)
            // A forged request: refused, and counted by reason.
            var forged = try remote.signedPost(["id": remote.actorID("bob") + "/x", "type": "Like", "actor": remote.actorID("bob"),
                                                "object": blog.postID], as: "bob", to: blog.sharedInbox)
            forged.body = Array(#"{"id":"x","type":"Like","actor":"y","object":"z"}"#.utf8)
            let refused = try await remote.post(forged)
            #expect((400..<500).contains(refused), "a body that is not the one signed: \(refused)")
            try await served("Accept delivered") { !remote.activities(type: "Accept").isEmpty }

            let value = metricValue
            try await served("delivery counted") { value(try await blog.metrics(), #"lectern_deliveries_total{outcome="delivered"}"#) ?? 0 >= 1 }
            // The inbox worker counts a batch after it has stored it, and the page is re-rendered
            // after that: wait for both before reading the rest.
            try await served("comment counted") {
                value(try await blog.metrics(), #"lectern_inbox_activities_total{outcome="applied",reason="comment"}"#) == 1
            }
            try await served("comment's page re-rendered") {
                value(try await blog.metrics(), "lectern_build_duration_seconds_count") ?? 0 > buildsBefore
            }
            let text = try await blog.metrics()
            #expect((value(text, #"lectern_http_requests_total{status="200"}"#) ?? 0) >= 1, "\(text)")
            #expect((value(text, #"lectern_http_requests_total{status="404"}"#) ?? 0) >= 1)
            #expect(value(text, #"lectern_inbox_activities_total{outcome="applied",reason="comment"}"#) == 1)
            #expect(value(text, #"lectern_inbox_activities_total{outcome="applied",reason="follow"}"#) == 1)
            #expect(text.contains(#"lectern_inbox_activities_total{outcome="refused""#), "refusals are counted by reason")
            #expect(value(text, "lectern_comments_received_total") == 1)
            #expect(value(text, "lectern_delivery_queue_depth") != nil)
            #expect(value(text, "lectern_inbox_backlog") == 0)
            // What memory is held by: the pages served from memory, SQLite's caches; the whole heap
            // only when asked for (a walk of it).
            let site = try #require(value(text, #"lectern_memory_bytes{held_by="site"}"#))
            let sqlite = try #require(value(text, #"lectern_memory_bytes{held_by="sqlite"}"#))
            #expect(value(text, #"lectern_memory_bytes{held_by="heap_in_use"}"#) == nil, "not walked on every scrape")
            let heapText = String(decoding: try await HTTPClientForTests.get(admin + "/metrics/heap", accept: "*/*").body, as: UTF8.self)
            let heap = try #require(value(heapText, #"lectern_memory_bytes{held_by="heap_in_use"}"#), "\(heapText)")
            let home = try await blog.get("/")
            #expect(site >= Double(home.body.count), "the home page alone is held in memory")
            #expect(sqlite > 0 && heap > site + sqlite, "\(text)")

            #expect(try await blog.get("/metrics").status == 404, "not on the public port")
            #expect(try await blog.get("/healthz").status == 404)
        }
    }
}
