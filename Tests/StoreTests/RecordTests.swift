import Foundation
import GRDB
import LecternMigrations
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

    /// Every record written through its facade keeps its times as Unix seconds, and reads back
    /// what was written.
    @Test func queuesAndActorsStoreUnixSeconds() async throws {
        let store = try Store.inMemory()
        let now = Date(timeIntervalSince1970: 1_700_000_000.5)
        let author = "https://social.example/users/a"
        try await store.actors.saveRemoteActor(RemoteActor(id: author, name: "A", inbox: author + "/inbox"),
                                               keys: [(author + "#key", "PEM")], authoritativeKeyID: author + "#key",
                                               assertionKeys: [AssertionKey(keyID: author + "#ed", actorID: author, multibase: "z6Mk")], now: now)
        #expect(try store.actors.remoteActor(id: author) == RemoteActor(id: author, name: "A", inbox: author + "/inbox"))
        #expect(try store.actors.remoteKey(id: author + "#key") == RemoteKey(keyID: author + "#key", actorID: author, pem: "PEM", fetchedAt: now))
        #expect(try store.actors.assertionKey(id: author + "#ed")?.multibase == "z6Mk")

        try store.deliveries.enqueueActivity(id: "https://blog.example/a/1", type: "Create", objectID: nil, json: "{}",
                                             inboxes: [author + "/inbox"], now: now)
        let delivery = try store.deliveries.delivery(activityID: "https://blog.example/a/1", inbox: author + "/inbox")
        #expect(delivery.state == .queued && delivery.host == "social.example" && delivery.nextAttemptAt == now && delivery.kind == .activity)
        #expect(try store.deliveries.leaseDeliveries(limit: 5, now: now).map(\.createdAt) == [now])
        try store.deliveries.setAcceptsRFC9421(origin: "https://social.example", false, now: now)
        #expect(try store.deliveries.acceptsRFC9421(origin: "https://social.example", memory: 60, now: now.addingTimeInterval(59)) == false)
        #expect(try store.deliveries.acceptsRFC9421(origin: "https://social.example", memory: 60, now: now.addingTimeInterval(61)) == nil)

        try store.followers.addFollower(actorID: author, followActivityID: "f", now: now)
        #expect(try store.followers.followers().map(\.since) == [now])
        try store.following.recordFollow(actorID: author, followActivityID: "g", now: now)
        #expect(try store.following.followedAccounts(state: .pending).map(\.since) == [now])
        #expect(try store.following.followedAccounts(state: .accepted).isEmpty)
        _ = try store.posts.syncPosts([CurrentPost(record: PostRecord(path: "/p/", apID: "https://blog.example/p/", title: "P",
                                                                      contentHash: "h", publishedAt: now))])
        #expect(try store.reactions.addReaction(activityID: "l", kind: .like, postPath: "/p/", actorID: author, now: now))
        #expect(try !store.reactions.addReaction(activityID: "l2", kind: .like, postPath: "/p/", actorID: author, now: now), "once per actor")
        try store.digests.insertMention(id: "m", authorID: author, url: nil, contentHTML: "<p>m</p>", now: now)
        #expect(try store.digests.undigestedItems().map(\.receivedAt) == [now])
        try store.sentObjects.keepSentObject(SentObject(id: "o", type: "Note", json: "{}", recipients: [author], createdAt: now))
        #expect(try store.sentObjects.sentObject(id: "o")?.recipients == [author])
        #expect(try await store.heldInbound.holdInbound(Data("r".utf8), keyHost: "social.example", signature: "s",
                                                        firstAttemptAt: now, now: now) == .held)
        #expect(try store.heldInbound.dueHeldInbound(limit: 5, now: now).map(\.receivedAt) == [now])

        let kinds = try store.read { db in
            try String.fetchAll(db, sql: """
                SELECT typeof(fetched_at) FROM remote_actors UNION ALL SELECT typeof(fetched_at) FROM actor_keys
                UNION ALL SELECT typeof(fetched_at) FROM actor_assertion_keys UNION ALL SELECT typeof(next_attempt_at) FROM deliveries
                UNION ALL SELECT typeof(created_at) FROM outbound_activities UNION ALL SELECT typeof(learned_at) FROM signature_memory
                UNION ALL SELECT typeof(created_at) FROM reactions UNION ALL SELECT typeof(received_at) FROM mentions
                UNION ALL SELECT typeof(created_at) FROM sent_objects UNION ALL SELECT typeof(received_at) FROM held_inbound
                """)
        }
        #expect(kinds == Array(repeating: "real", count: 10))
    }

    /// The times the actor tables kept as text before their record types become Unix seconds.
    @Test func textTimesOfActorsBecomeUnixSeconds() throws {
        let queue = try DatabaseQueue()
        let before = Array(Migrations.all.prefix { $0.name != "0017_unix_seconds.sql" })
        _ = try Store(database: queue, migrations: before)
        try queue.write { db in
            try db.execute(sql: """
                INSERT INTO remote_actors (id, inbox, fetched_at) VALUES ('https://a.example/u', 'https://a.example/inbox', '2023-11-14 22:13:20.500');
                INSERT INTO actor_keys (key_id, actor_id, pem, fetched_at) VALUES ('k', 'https://a.example/u', 'PEM', '2023-11-14 22:13:20.500');
                """)
        }
        let store = try Store(database: queue)
        #expect(try store.actors.remoteKey(id: "k")?.fetchedAt == Date(timeIntervalSince1970: 1_700_000_000.5))
        #expect(try queue.read { db in try String.fetchOne(db, sql: "SELECT typeof(fetched_at) FROM remote_actors") } == "real")
        // An older build still running during an upgrade may write text again: read as the same time.
        try queue.write { db in try db.execute(sql: "UPDATE actor_keys SET fetched_at = '2023-11-14 22:13:21.250'") }
        #expect(try store.actors.remoteKey(id: "k")?.fetchedAt == Date(timeIntervalSince1970: 1_700_000_001.25))
    }
}
