import Foundation
import GRDB
import LecternMigrations
import Testing
@testable import Storage

@Suite struct MigrationTests {
    private func temporaryPath() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("lectern-store-\(UUID().uuidString)/lectern.sqlite").path
    }

    @Test func everySQLFileIsRegisteredInOrder() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../migrations")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".sql") }.sorted()
        #expect(Migrations.all.map(\.name) == files)
        for (name, sql) in Migrations.all {
            #expect(sql == (try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)))
        }
    }

    @Test func fromEmptyThenReopenedWithoutReapplying() throws {
        let path = temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: URL(fileURLWithPath: path).deletingLastPathComponent().path) }
        let store = try Store(path: path)
        #expect(try store.appliedMigrations() == Migrations.all.map(\.name))
        #expect(try store.journalMode() == "wal")
        let tables = try store.database.read { db in
            try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'grdb%' AND name NOT LIKE 'sqlite%' ORDER BY name")
        }
        #expect(tables == ["actor_assertion_keys", "actor_keys", "automatic_replies", "blocks", "changes", "comments", "deliveries", "digest_numbers", "digest_state", "followers", "followers_sync", "following", "held_inbound", "hosts",
                           "inbox_counts", "inbox_queue", "mail_queue", "mentions", "outbound_activities", "pending_replies", "post_aliases", "posts", "reactions",
                           "received_activities", "remote_actors", "remote_tombstones", "search_posts", "search_posts_config", "search_posts_content",
                           "search_posts_data", "search_posts_docsize", "search_posts_idx", "search_state", "seen_signatures", "sent_objects",
                           "settings", "signature_memory", "subscribers", "thread_backfill", "webmention_links", "webmention_queue", "webmentions"])
        _ = try store.posts.syncPosts([CurrentPost(record: PostRecord(path: "/2025/a/", apID: "https://b.example/2025/a/", title: "A",
                                                                contentHash: "1", publishedAt: Date()))])
        let reopened = try Store(path: path)  // would fail on CREATE TABLE if re-applied
        #expect(try reopened.appliedMigrations() == Migrations.all.map(\.name))
        #expect(try reopened.posts.publishedPosts().count == 1)
        #expect(try reopened.database.read { db in try Bool.fetchOne(db, sql: "PRAGMA foreign_keys") } == true)
    }

    /// `lectern build` opens one connection, not a pool. On a new database it still sets up the
    /// write-ahead log (a server then reads while the build writes), and with a pool open on the
    /// same file, as a running server holds one, each sees what the other commits.
    @Test func oneConnectionBesideAPool() throws {
        let path = temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: URL(fileURLWithPath: path).deletingLastPathComponent().path) }
        let single = try Store(path: path, connections: .single)
        #expect(single.database is DatabaseQueue)
        #expect(try single.journalMode() == "wal")
        #expect(try single.appliedMigrations() == Migrations.all.map(\.name))
        #expect(try single.database.read { db in try Bool.fetchOne(db, sql: "PRAGMA foreign_keys") } == true)
        #expect(try single.database.read { db in try Int.fetchOne(db, sql: "PRAGMA wal_autocheckpoint") } == 100, "a short log")

        let server = try Store(path: path)
        #expect(server.database is DatabasePool)
        try single.values.setSetting("from_build", "1")
        #expect(try server.values.setting("from_build") == "1")
        // A read the server holds open does not stop the single connection's write.
        try server.database.read { _ in
            try single.values.setSetting("during_read", "2")
        }
        #expect(try server.values.setting("during_read") == "2")
        try server.values.setSetting("from_server", "3")
        #expect(try single.values.setting("from_server") == "3")
    }

    /// Closing leaves the write-ahead log for the next process instead of copying it into the
    /// database (two syncs, and a third for the next process's new log): every command paid
    /// them. Nothing is lost: the next connection reads the log.
    @Test func closingKeepsTheLogAndLosesNothing() throws {
        let path = temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: URL(fileURLWithPath: path).deletingLastPathComponent().path) }
        do {
            let store = try Store(path: path)
            _ = try store.posts.syncPosts([CurrentPost(record: PostRecord(path: "/2025/a/", apID: "https://b.example/2025/a/", title: "A",
                                                                    contentHash: "1", publishedAt: Date()))])
            try store.database.close()
        }
        let log = try FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int
        #expect((log ?? 0) > 0, "the log is kept, not checkpointed and deleted")
        let reopened = try Store(path: path)
        #expect(try reopened.posts.publishedPosts().map(\.title) == ["A"])
        #expect(try reopened.integrityProblems().isEmpty)
    }

    @Test func failingMigrationRollsBackAndNamesTheFile() throws {
        let queue = try DatabaseQueue()
        let broken = Migrations.all + [("0099_broken.sql", "CREATE TABLE extra (id INTEGER); INSERT INTO nowhere VALUES (1);")]
        do {
            _ = try Store(database: queue, migrations: broken)
            Issue.record("a broken migration must fail")
        } catch StoreError.migrationFailed(let file, let reason) {
            #expect(file == "0099_broken.sql")
            #expect(reason.contains("nowhere"))
        }
        let state = try queue.read { db in
            (try db.tableExists("extra"), try Store.appliedMigrations(db))
        }
        #expect(state.0 == false, "the failed file's statements were rolled back")
        #expect(state.1 == Migrations.all.map(\.name), "earlier migrations stay applied")
    }
}

@Suite struct PostSyncTests {
    let t0 = Date(timeIntervalSince1970: 1_700_000_000)

    private func record(_ path: String, hash: String = "h1", pinned: Bool = false, source: String? = nil) -> PostRecord {
        PostRecord(path: path, apID: "https://blog.example\(path)", title: "T \(path)", contentHash: hash,
                   publishedAt: t0, pinned: pinned, source: source)
    }

    @Test func createsUpdatesDeletesAndRestores() throws {
        let store = try Store.inMemory()
        func syncPosts(_ records: [PostRecord], now: Date) throws -> PostSync {
            try store.posts.syncPosts(records.map { CurrentPost(record: $0) }, now: now)
        }
        var sync = try syncPosts([record("/2025/a/"), record("/2025/b/")], now: t0)
        #expect(sync.created.map(\.path) == ["/2025/a/", "/2025/b/"])

        sync = try syncPosts([record("/2025/a/"), record("/2025/b/")], now: t0)
        #expect(sync == PostSync(), "no change, nothing to do")

        var edited = record("/2025/a/", hash: "h2")
        edited.apID = "https://elsewhere.example/ignored"
        sync = try syncPosts([edited, record("/2025/b/")], now: t0.addingTimeInterval(60))
        #expect(sync.updated.map(\.path) == ["/2025/a/"])
        let a = try #require(try store.posts.post(path: "/2025/a/"))
        #expect(a.apID == "https://blog.example/2025/a/", "the first id is kept")
        #expect(a.updatedAt == t0.addingTimeInterval(60))

        sync = try syncPosts([edited], now: t0.addingTimeInterval(120))
        #expect(sync.deleted.map(\.path) == ["/2025/b/"])
        #expect(try store.posts.publishedPosts().map(\.path) == ["/2025/a/"])
        #expect(try store.posts.post(apID: "https://blog.example/2025/b/")?.deletedAt == t0.addingTimeInterval(120))

        sync = try syncPosts([edited, record("/2025/b/")], now: t0.addingTimeInterval(180))
        #expect(sync.restored.map(\.path) == ["/2025/b/"])
        #expect(try store.posts.post(path: "/2025/b/")?.deletedAt == nil)
    }

    /// A post whose slug or date changes is the same post: same id, its comments and reactions
    /// follow it, its old path becomes an alias; a front matter `id` finds it across a rename.
    @Test func movedPostsKeepTheirIdentity() throws {
        let store = try Store.inMemory()
        _ = try store.posts.syncPosts([CurrentPost(record: record("/2025/old/", source: "content/posts/a.md"))], now: t0)
        try store.database.write { db in
            try db.execute(sql: "INSERT INTO remote_actors (id, inbox, fetched_at) VALUES ('https://r.example/u/x', 'https://r.example/inbox', 0)")
            try db.execute(sql: """
                INSERT INTO comments (id, post_path, author_id, content_html, visibility, state, published_at, received_at)
                VALUES ('https://r.example/n/1', '/2025/old/', 'https://r.example/u/x', '<p>hi</p>', 'public', 'approved', 0, 0)
                """)
            try db.execute(sql: "INSERT INTO reactions (activity_id, kind, post_path, actor_id, created_at) VALUES ('https://r.example/l/1', 'like', '/2025/old/', 'https://r.example/u/x', 0)")
        }
        var sync = try store.posts.syncPosts([CurrentPost(record: record("/2026/new/", hash: "h2", source: "content/posts/a.md"))], now: t0)
        #expect(sync.moved.map(\.from) == ["/2025/old/"] && sync.moved.map(\.post.path) == ["/2026/new/"])
        #expect(sync.created.isEmpty && sync.deleted.isEmpty)
        #expect(try store.posts.post(path: "/2026/new/")?.apID == "https://blog.example/2025/old/")
        #expect(try store.comments.comment(id: "https://r.example/n/1")?.postPath == "/2026/new/")
        #expect(try store.reactions.reactionCounts(postPath: "/2026/new/").likes == 1)
        #expect(try store.posts.postAliases() == ["/2025/old/": "/2026/new/"])
        // Renamed file and new slug: the declared id still finds it.
        let renamed = CurrentPost(record: record("/2026/newer/", hash: "h2", source: "content/posts/b.md"),
                                  declaredID: "https://blog.example/2025/old/")
        sync = try store.posts.syncPosts([renamed], now: t0)
        #expect(sync.moved.map(\.post.path) == ["/2026/newer/"])
        #expect(try store.posts.postAliases() == ["/2025/old/": "/2026/newer/", "/2026/new/": "/2026/newer/"])
        #expect(try store.comments.comment(id: "https://r.example/n/1")?.postPath == "/2026/newer/")
    }

    @Test func commentsAndFollowersQueries() throws {
        let store = try Store.inMemory()
        _ = try store.posts.syncPosts([CurrentPost(record: record("/2025/a/"))], now: t0)
        try store.database.write { db in
            try db.execute(sql: "INSERT INTO remote_actors (id, inbox, fetched_at) VALUES ('https://r.example/u/x', 'https://r.example/inbox', 0)")
            try db.execute(sql: "INSERT INTO followers (actor_id, follow_activity_id, created_at) VALUES ('https://r.example/u/x', 'https://r.example/f/1', 0)")
            for (id, state, time) in [("https://r.example/n/2", "approved", 20.0), ("https://r.example/n/1", "approved", 10.0),
                                      ("https://r.example/n/3", "pending", 5.0)] {
                try db.execute(sql: """
                    INSERT INTO comments (id, post_path, author_id, content_html, visibility, state, published_at, received_at)
                    VALUES (?, '/2025/a/', 'https://r.example/u/x', '<p>hi</p>', 'public', ?, ?, ?)
                    """, arguments: [id, state, time, time])
            }
        }
        #expect(try store.followers.followerCount() == 1)
        #expect(try store.followers.followerIDs(limit: 10, offset: 0) == ["https://r.example/u/x"])
        #expect(try store.comments.approvedComments(postPath: "/2025/a/").map(\.id) == ["https://r.example/n/1", "https://r.example/n/2"])
        // Foreign keys are enforced: a comment on an unknown post is refused.
        #expect(throws: (any Error).self) {
            try store.database.write { db in
                try db.execute(sql: """
                    INSERT INTO comments (id, post_path, author_id, content_html, visibility, state, published_at, received_at)
                    VALUES ('x', '/nope/', 'https://r.example/u/x', '', 'public', 'approved', 0, 0)
                    """)
            }
        }
    }
}

@Suite struct DeliveryQueueTests {
    /// Delivered rows older than the cutoff go, and activities left without rows; queued and
    /// failed rows stay whatever their age, and so do their activities.
    @Test func deliveredRowsArePrunedQueuedAndFailedOnesKept() throws {
        let store = try Store.inMemory()
        let old = Date(timeIntervalSince1970: 1_800_000_000), recent = old.addingTimeInterval(20 * 86_400)
        let inboxes = ["https://a.example/inbox", "https://b.example/inbox", "https://c.example/inbox"]
        try store.deliveries.enqueueActivity(id: "https://blog.example/done", type: "Create", objectID: nil, json: "{}", inboxes: inboxes, now: old)
        try store.deliveries.enqueueActivity(id: "https://blog.example/partly", type: "Create", objectID: nil, json: "{}", inboxes: inboxes, now: old)
        try store.deliveries.enqueueActivity(id: "https://blog.example/recent", type: "Create", objectID: nil, json: "{}", inboxes: inboxes, now: recent)
        func record(_ next: DeliveryQueue.DeliveryDecision.Next, _ jobs: [DeliveryJob], at now: Date) throws {
            try store.deliveries.recordOutcomes(jobs.map {
                .init(id: $0.id, host: $0.host, inbox: $0.inbox, status: 202, error: "",
                      decision: .init(next: next, hostDown: false, removeFollowers: false, pauseHostIfDownSince: now))
            }, now: now)
        }
        let oldJobs = try store.deliveries.leaseDeliveries(limit: 10, now: old)
        #expect(oldJobs.count == 6)
        try record(.delivered, oldJobs.filter { $0.activityID.hasSuffix("done") }, at: old)
        let partly = oldJobs.filter { $0.activityID.hasSuffix("partly") }
        try record(.delivered, [partly[0]], at: old)
        try record(.failed, [partly[1]], at: old)
        try record(.retry(at: recent.addingTimeInterval(86_400)), [partly[2]], at: old)
        try record(.delivered, try store.deliveries.leaseDeliveries(limit: 10, now: recent), at: recent)

        #expect(try store.deliveries.pruneDelivered(before: recent.addingTimeInterval(-86_400), batch: 2) == 4, "3 of done, 1 of partly")
        let states = try store.read { db in
            try Row.fetchAll(db, sql: "SELECT activity_id, state FROM deliveries ORDER BY activity_id, state").map { "\($0[0] as String) \($0[1] as String)" }
        }
        #expect(states == ["https://blog.example/partly failed", "https://blog.example/partly queued"]
                + Array(repeating: "https://blog.example/recent delivered", count: 3))
        let activities = try store.read { db in try String.fetchAll(db, sql: "SELECT id FROM outbound_activities ORDER BY id") }
        #expect(activities == ["https://blog.example/partly", "https://blog.example/recent"])
        #expect(try store.deliveries.deliveryStats().delivered == 3)
        #expect(try store.deliveries.pruneDelivered(before: recent.addingTimeInterval(-86_400)) == 0)
    }

    @Test func failingHostIsPausedThenResumedWhenHeardFrom() throws {
        let store = try Store.inMemory()
        let t0 = Date(timeIntervalSince1970: 1_800_000_000)
        try store.deliveries.enqueueActivity(id: "https://b.example/a/1", type: "Create", objectID: nil, json: "{}",
                                  inboxes: ["https://down.example/inbox", "https://down.example/inbox"], now: t0)
        let job = try #require(try store.deliveries.leaseDeliveries(limit: 10, now: t0).first)
        #expect(try store.deliveries.leaseDeliveries(limit: 10, now: t0).isEmpty, "leased rows are not handed out twice")
        func down(_ next: DeliveryQueue.DeliveryDecision.Next, at now: Date) -> DeliveryQueue.DeliveryDecision {
            DeliveryQueue.DeliveryDecision(next: next, hostDown: true, removeFollowers: false, pauseHostIfDownSince: now.addingTimeInterval(-7 * 86_400))
        }
        try store.deliveries.recordOutcomes([.init(id: job.id, host: job.host, inbox: job.inbox, status: 503, error: "HTTP 503",
                                        decision: down(.retry(at: t0.addingTimeInterval(30)), at: t0))], now: t0)
        #expect(try store.blocks.senderStatus(actorID: "https://down.example/users/x") == (false, true))
        // Still failing a week later: paused, nothing handed out even when due.
        try store.deliveries.recordOutcomes([.init(id: job.id, host: job.host, inbox: job.inbox, status: nil, error: "refused",
                                        decision: down(.retry(at: t0.addingTimeInterval(8 * 86_400)), at: t0.addingTimeInterval(7 * 86_400 + 1)))],
                                 now: t0.addingTimeInterval(7 * 86_400 + 1))
        #expect(try store.deliveries.deliveryStats().hosts.first?.paused == true)
        #expect(try store.deliveries.leaseDeliveries(limit: 10, now: t0.addingTimeInterval(9 * 86_400)).isEmpty)
        // An activity from the host: resumed and due at once.
        let back = t0.addingTimeInterval(9 * 86_400)
        try store.deliveries.hostIsBack("down.example", now: back)
        #expect(try store.deliveries.leaseDeliveries(limit: 10, now: back).count == 1)
        #expect(try store.blocks.senderStatus(actorID: "https://down.example/users/x") == (false, false))
        _ = try store.blocks.block(.domain, "down.example")
        #expect(try store.blocks.senderStatus(actorID: "https://social.down.example/users/x").blocked, "subdomains are blocked too")
        #expect(try !store.blocks.senderStatus(actorID: "https://up.example/users/x").blocked)
    }
}
