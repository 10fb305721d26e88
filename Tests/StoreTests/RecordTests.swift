import Foundation
import GRDB
import Testing
@testable import Storage

/// Rows read and written as GRDB records keep the tables' Unix-second times (`REAL`), so the
/// hand-written SQL beside them (orderings, `< ?` bounds) reads the same values.
@Suite struct RecordTests {
    @Test func commentsPendingRepliesAndBlocksStoreUnixSeconds() async throws {
        let store = try Store.inMemory()
        let author = "https://social.example/users/a"
        try await store.actors.saveRemoteActor(RemoteActor(id: author, inbox: author + "/inbox"), keys: [])
        let published = Date(timeIntervalSince1970: 1_700_000_000.25)
        _ = try store.posts.syncPosts([CurrentPost(record: PostRecord(path: "/2025/p/", apID: "https://blog.example/2025/p/", title: "P",
                                                                      contentHash: "h", publishedAt: published))])
        var comment = CommentRecord(id: author + "/notes/1", postPath: "/2025/p/", parentID: nil, authorID: author, url: nil,
                                    contentHTML: "<p>hi</p>", summary: nil, sensitive: false, language: "en", visibility: .unlisted,
                                    state: .approved, publishedAt: published, receivedAt: published.addingTimeInterval(1))
        comment.title = "T"
        #expect(try await store.comments.insertComment(comment))
        #expect(try await !store.comments.insertComment(comment), "a second copy is ignored")
        #expect(try store.comments.comment(id: comment.id) == comment)
        try store.pendingReplies.keepPendingReply(PendingReply(noteID: "n", parentID: "p", authorID: author, json: "{}", context: nil,
                                                               receivedAt: published))
        #expect(try store.pendingReplies.pendingReplies(receivedBefore: published.addingTimeInterval(1)).map(\.noteID) == ["n"])
        #expect(try store.pendingReplies.pendingReplies(receivedBefore: published).isEmpty)
        _ = try store.blocks.block(.domain, "bad.example", reason: "spam", now: published)
        #expect(try store.blocks.blocks() == [Block(kind: .domain, value: "bad.example", reason: "spam", createdAt: published)])
        let kinds = try store.read { db in
            try String.fetchAll(db, sql: """
                SELECT typeof(published_at) FROM comments UNION ALL SELECT typeof(received_at) FROM pending_replies
                UNION ALL SELECT typeof(created_at) FROM blocks
                """)
        }
        #expect(kinds == ["real", "real", "real"])
    }
}
