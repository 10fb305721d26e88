import Foundation
import GRDB
import Testing
@testable import Storage

/// Activities accepted at once share a transaction, and each caller still gets its own answer,
/// only after the commit that holds its rows; a transaction that fails keeps none of its writes.
@Suite struct GroupCommitTests {
    private func temporaryStore() throws -> (Store, cleanup: () -> Void) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lectern-group-\(UUID().uuidString)")
        let store = try Store(path: folder.appendingPathComponent("lectern.sqlite").path)
        return (store, { try? FileManager.default.removeItem(at: folder) })
    }

    @Test func concurrentActivitiesEachGetTheirOwnAnswer() async throws {
        let (store, cleanup) = try temporaryStore()
        defer { cleanup() }
        let commits = CommitCounter()
        store.database.add(transactionObserver: commits)
        let until = Date().addingTimeInterval(3600)
        // 300 distinct activities, each id sent twice, and a replayed signature, all at once.
        let results = try await withThrowingTaskGroup(of: (String, InboxQueue.InboundResult).self) { group in
            for n in 0..<300 {
                for copy in 0..<2 {
                    group.addTask {
                        let result = try await store.inbox.enqueueInbound(activityID: "https://remote.example/activities/\(n)",
                                                                    actorID: "https://remote.example/users/a", json: "{\"n\":\(n)}",
                                                                    signature: ("signature-\(n)-\(copy)", until))
                        return ("\(n)", result)
                    }
                }
            }
            group.addTask {
                ("replay", try await store.inbox.enqueueInbound(activityID: "https://remote.example/activities/replay",
                                                          actorID: "https://remote.example/users/a", json: "{}",
                                                          signature: ("signature-0-0", until)))
            }
            return try await group.reduce(into: [:]) { $0[$1.0, default: []].append($1.1) }
        }
        for n in 0..<300 { #expect(results["\(n)"]?.sorted { "\($0)" < "\($1)" } == [.duplicate, .queued], "activity \(n)") }
        #expect(results["replay"] == [.replayed])
        let queued = try store.inbox.dueInbound(limit: 1000)
        #expect(queued.count == 300)
        #expect(Set(queued.map(\.activityID)).count == 300)
        // 601 writes in far fewer transactions (how many share one depends on the timing), and
        // none holds more than 256.
        #expect(commits.count < 300)
        #expect(commits.count >= 3)
    }

    @Test func aFailedTransactionFailsEveryWriteInItAndKeepsNone() async throws {
        let (store, cleanup) = try temporaryStore()
        defer { cleanup() }
        struct Refused: Error {}
        // A write that fails takes the transaction down with the writes that shared it.
        let commit = GroupCommit<Int, Int> { db, n in
            try db.execute(sql: "INSERT INTO received_activities (id, received_at) VALUES (?, 0)", arguments: ["id-\(n)"])
            if n == 7 { throw Refused() }
            return n
        }
        let outcomes = await withTaskGroup(of: Int.self) { group in
            for n in 0..<50 {
                group.addTask { (try? await commit.write(n, in: store)) ?? -1 }
            }
            return await group.reduce(into: [Int]()) { $0.append($1) }
        }
        let kept = try await store.database.read { db in try String.fetchAll(db, sql: "SELECT id FROM received_activities") }
        let succeeded = outcomes.filter { $0 >= 0 }
        // Exactly the writes that answered success are stored; write 7 is neither.
        #expect(Set(kept) == Set(succeeded.map { "id-\($0)" }))
        #expect(!succeeded.contains(7))
        #expect(!kept.contains("id-7"))
    }
}

/// Counts the commits of the database it observes.
private final class CommitCounter: TransactionObserver, @unchecked Sendable {
    private let lock = NSLock()
    private var commits = 0
    var count: Int { lock.withLock { commits } }

    func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool { true }
    func databaseDidChange(with event: DatabaseEvent) {}
    func databaseDidCommit(_ db: Database) { lock.withLock { commits += 1 } }
    func databaseDidRollback(_ db: Database) {}
}
