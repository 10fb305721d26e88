import Foundation
import GRDB

/// The inbox queue: accepted activities waiting for the inbox worker, and the ids seen.
public struct InboxQueue: StoreFacade {
    let store: Store
    public init(_ store: Store) { self.store = store }
    /// The folder that holds the database (what `FullDiskBackoff` watches).
    public var databaseFolder: String { store.databaseFolder }
}

extension Store {
    public var inbox: InboxQueue { InboxQueue(self) }
}

/// An accepted activity waiting to be applied: a row of `inbox_queue`. Rows are written by the
/// prepared statements of `insertInbound` (the inbox's hot path, measured with `bench/inbox`).
public struct InboundActivity: Sendable, Equatable, Decodable, UnixTimeRow, TableRecord {
    public static let databaseTableName = "inbox_queue"
    public var seq: Int64
    public var activityID: String
    /// Who signed it (verified).
    public var actorID: String
    public var json: String
    public var receivedAt: Date
    public var attempts: Int
    public var nextAttemptAt: Date
    public var lastError: String?

    enum CodingKeys: String, CodingKey {
        case seq, json, attempts
        case activityID = "activity_id", actorID = "actor_id", receivedAt = "received_at"
        case nextAttemptAt = "next_attempt_at", lastError = "last_error"
    }
}

extension InboxQueue {
    /// What became of an activity the inbox accepted.
    public enum InboundResult: Sendable, Equatable {
        case queued
        /// Its id was seen before: accepted and ignored.
        case duplicate
        /// Its signature was seen before: a replay, refused.
        case replayed
    }

    /// Records an accepted activity for processing, and its signature until `signature.until`
    /// (so a replay is refused even after a restart). Duplicates of an activity id store nothing.
    /// Runs on the database's own writer, never on the caller's thread, and returns once
    /// committed; activities accepted at the same time share the transaction (`GroupCommit`).
    /// `repeatable`: queued even when its id was seen before (a Follow sent again, which must be
    /// answered again); a replayed signature is refused all the same.
    public func enqueueInbound(activityID: String, actorID: String, json: String,
                               signature: (fingerprint: String, until: Date)? = nil, repeatable: Bool = false,
                               now: Date = Date()) async throws -> InboundResult {
        try await store.inbound.write(InboundWrite(activityID: activityID, actorID: actorID, json: json, fingerprint: signature?.fingerprint,
                                             until: signature?.until, repeatable: repeatable, now: now), in: store)
    }

    struct InboundWrite: Sendable {
        let activityID, actorID, json: String
        let fingerprint: String?
        let until: Date?
        let repeatable: Bool
        let now: Date
    }

    /// One accepted activity's rows, in the group's transaction. A signature seen before is a
    /// replay; an activity id seen before, a duplicate (accepted, nothing stored).
    static func insertInbound(_ db: Database, _ write: InboundWrite) throws -> InboundResult {
        let now = write.now.timeIntervalSince1970
        if let fingerprint = write.fingerprint, let until = write.until {
            try db.cachedStatement(sql: "INSERT OR IGNORE INTO seen_signatures (fingerprint, expires_at) VALUES (?, ?)")
                .execute(arguments: [fingerprint, until.timeIntervalSince1970])
            guard db.changesCount == 1 else { return .replayed }
        }
        try db.cachedStatement(sql: "INSERT OR IGNORE INTO received_activities (id, received_at) VALUES (?, ?)")
            .execute(arguments: [write.activityID, now])
        guard db.changesCount == 1 || write.repeatable else { return .duplicate }
        try db.cachedStatement(sql: """
            INSERT INTO inbox_queue (activity_id, actor_id, json, received_at, next_attempt_at) VALUES (?, ?, ?, ?, ?)
            """).execute(arguments: [write.activityID, write.actorID, write.json, now, now])
        return .queued
    }

    /// Records an activity id as received (an activity taken from inside another, such as an
    /// `Announce`): false when it was seen before.
    public func recordReceived(activityID: String, now: Date = Date()) throws -> Bool {
        try write { db in
            try db.cachedStatement(sql: "INSERT OR IGNORE INTO received_activities (id, received_at) VALUES (?, ?)")
                .execute(arguments: [activityID, now.timeIntervalSince1970])
            return db.changesCount == 1
        }
    }

    /// Forgets signatures that can no longer pass the date checks.
    public func pruneSeenSignatures(now: Date = Date()) throws {
        try write { db in
            try db.execute(sql: "DELETE FROM seen_signatures WHERE expires_at < ?", arguments: [now.timeIntervalSince1970])
        }
    }

    /// Activities due for processing, oldest first.
    public func dueInbound(limit: Int, now: Date = Date()) throws -> [InboundActivity] {
        try read { db in
            try InboundActivity.fetchAll(db, sql: "SELECT * FROM inbox_queue WHERE next_attempt_at <= ? ORDER BY seq LIMIT ?",
                                         arguments: [now.timeIntervalSince1970, limit])
        }
    }

    /// Removes applied activities from the queue and adds their outcomes to the day's counts,
    /// in one transaction.
    public func completeInbound(seqs: [Int64], counts: [InboxOutcome: Int] = [:], now: Date = Date()) async throws {
        guard !seqs.isEmpty || !counts.isEmpty else { return }
        try await writeAsync { db in
            let statement = try db.makeStatement(sql: "DELETE FROM inbox_queue WHERE seq = ?")
            for seq in seqs { try statement.execute(arguments: [seq]) }
            try InboxCounts.count(db, counts, day: InboxCounts.day(now))
        }
    }

    /// Keeps a failed activity for another try at `retryAt`, or drops it after `maximumAttempts`.
    public func failInbound(seq: Int64, error: String, retryAt: Date, maximumAttempts: Int = 8) async throws {
        try await writeAsync { db in
            try db.execute(sql: """
                UPDATE inbox_queue SET attempts = attempts + 1, last_error = ?, next_attempt_at = ? WHERE seq = ?
                """, arguments: [error, retryAt.timeIntervalSince1970, seq])
            try db.execute(sql: "DELETE FROM inbox_queue WHERE seq = ? AND attempts >= ?", arguments: [seq, maximumAttempts])
        }
    }

    public func inboundBacklog() throws -> Int {
        try read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM inbox_queue") ?? 0 }
    }

    /// Received-activity ids older than `before` are forgotten (a week is far beyond any retry).
    public func pruneReceivedActivities(before: Date) throws {
        try write { db in
            try db.execute(sql: "DELETE FROM received_activities WHERE received_at < ?", arguments: [before.timeIntervalSince1970])
        }
    }
}
