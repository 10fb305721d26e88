import Foundation
import Testing

/// Blocks that scale: keyword filters, and shared domain blocklists in Mastodon's CSV format,
/// through the real CLI against a running server.
@Suite(.serialized) struct ModerationTests {
    @Test func keywordFiltersAndSharedBlocklists() async throws {
        try await withBlog(extraConfig: "comments:\n  hold: [casino]\n  drop: [\"cheap pills\"]\n", follower: "alice") { remote, blog in
            var n = 0
            func comment(_ text: String, by name: String = "bob") async throws -> String {
                n += 1
                let id = remote.base.value + "/notes/moderated-\(n)"
                #expect(try await remote.send(blog.create(blog.note(id, by: remote, name, inReplyTo: blog.postID, content: "<p>\(text)</p>"),
                                                          by: remote, name), as: name, to: blog.sharedInbox) == 202)
                #expect(try await eventually { try blog.store.inbox.inboundBacklog() == 0 })
                return id
            }
            // Keywords: held for approval, or not kept at all.
            let held = try await comment("Try the Casino tonight")
            #expect(try blog.store.comments.comment(id: held)?.state == .pending)
            let dropped = try await comment("Cheap, pills! Buy now")
            #expect(try blog.store.comments.comment(id: dropped) == nil)
            let fine = try await comment("A fine comment about casinos")
            #expect(try blog.store.comments.comment(id: fine)?.state == .approved, "whole words only")

            // A shared list silencing the fake instance's domain: bob's next comment waits.
            let list = blog.root.appendingPathComponent("list.csv")
            try """
                #domain,#severity,#reject_media,#reject_reports,#public_comment,#obfuscate
                127.0.0.1,silence,false,false,"noisy, sometimes",false
                b*d.example,suspend,false,false,,true
                fine.example,noop,false,false,,false
                """.write(to: list, atomically: true, encoding: .utf8)
            let imported = try lectern(["blocks", "import", list.path], site: blog.root)
            #expect(imported.contains("0 domains blocked, 1 silenced, 2 lines skipped"), "\(imported)")
            let quiet = try await comment("Silenced but kept")
            #expect(try blog.store.comments.comment(id: quiet)?.state == .pending)
            #expect(try blog.store.followers.isFollower(remote.actorID("alice")), "silence is not a block")
            let exported = try lectern(["blocks", "export"], site: blog.root)
            #expect(exported.contains("127.0.0.1,silence,false,false,\"noisy, sometimes\",false"), "\(exported)")

            // Suspended by a list: retroactive, like any block.
            try "127.0.0.1,suspend\n".write(to: list, atomically: true, encoding: .utf8)
            try lectern(["blocks", "import", list.path], site: blog.root)
            #expect(try blog.store.comments.comment(id: fine)?.state == .rejected)
            #expect(try !blog.store.followers.isFollower(remote.actorID("alice")))
            try await served("blocked comment gone from the page") { try await !blog.get(blog.post).body.contains("A fine comment") }
            let refused = try await remote.send(blog.create(blog.note(remote.base.value + "/notes/after", by: remote, "bob",
                                                                      inReplyTo: blog.postID, content: "<p>after</p>"), by: remote, "bob"),
                                                as: "bob", to: blog.sharedInbox)
            #expect(refused == 403 || refused == 202, "blocked senders are turned away or ignored: \(refused)")
            #expect(try blog.store.comments.comment(id: remote.base.value + "/notes/after") == nil)
            try blog.runtime.inboxCounter.flush(to: blog.store.inboxCounts)
            #expect(try blog.store.inboxCounts.inboxCounts(since: Date().addingTimeInterval(-60)).keys.contains { $0.reason == "filtered" })
        }
    }
}
