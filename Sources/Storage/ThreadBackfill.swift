import Foundation
import GRDB

/// When to read each comment's `replies` collection next (`thread_backfill`): at once when it is
/// taken, then after `delays` (10 min, 1 h, 1 day), then no more unless a delivered reply joins it.
public struct ThreadBackfill: StoreFacade {
    let store: Store
    public init(_ store: Store) { self.store = store }
}

extension Store {
    public var threadBackfill: ThreadBackfill { ThreadBackfill(self) }
}

/// A comment whose replies are due to be read.
public struct BackfillDue: Sendable, Equatable {
    public var commentID: String
    public var postPath: String
    public var depth: Int
    public var round: Int
    public var host: String
}

extension ThreadBackfill {
    /// After the first reading: 10 minutes, an hour, a day.
    public static let delays: [TimeInterval] = [600, 3600, 86_400]

    /// Reads `commentID`'s replies from now on (nothing when it is already scheduled).
    public func schedule(commentID: String, postPath: String, depth: Int, host: String, now: Date = Date()) async throws {
        try await writeAsync { db in
            try db.execute(sql: """
                INSERT OR IGNORE INTO thread_backfill (comment_id, post_path, depth, round, next_at, host) VALUES (?, ?, ?, 0, ?, ?)
                """, arguments: [commentID, postPath, depth, now.timeIntervalSince1970, host])
        }
    }

    /// A delivered reply joined `commentID`'s thread: one more reading, soon (a thread read to
    /// its end, or not read yet, stays as it is).
    public func rearm(commentID: String, now: Date = Date()) async throws {
        try await writeAsync { db in
            try db.execute(sql: "UPDATE thread_backfill SET round = ?, next_at = ? WHERE comment_id = ? AND round > ?",
                           arguments: [Self.delays.count, now.timeIntervalSince1970 + 60, commentID, Self.delays.count])
        }
    }

    /// Up to `limit` comments due now, the earliest first, at most one per host (one host's
    /// threads never hold up another's).
    public func due(limit: Int, now: Date = Date()) throws -> [BackfillDue] {
        try read { db in
            try Row.fetchAll(db, sql: """
                SELECT comment_id, post_path, depth, round, host FROM thread_backfill
                WHERE next_at <= ? AND round <= ? AND rowid IN (SELECT min(rowid) FROM thread_backfill WHERE next_at <= ? AND round <= ? GROUP BY host)
                ORDER BY next_at LIMIT ?
                """, arguments: [now.timeIntervalSince1970, Self.delays.count, now.timeIntervalSince1970, Self.delays.count, limit])
                .map { BackfillDue(commentID: $0["comment_id"], postPath: $0["post_path"], depth: $0["depth"], round: $0["round"], host: $0["host"]) }
        }
    }

    /// The reading of `due` is done: the next is after the next delay, or never.
    public func advance(_ due: BackfillDue, now: Date = Date()) throws {
        try write { db in
            let next = due.round < Self.delays.count ? now.timeIntervalSince1970 + Self.delays[due.round] : Double.greatestFiniteMagnitude
            try db.execute(sql: "UPDATE thread_backfill SET round = round + 1, next_at = ? WHERE comment_id = ?", arguments: [next, due.commentID])
        }
    }

    /// The reading of `due` could not be finished (its server's budget is spent): again at `at`.
    public func postpone(_ due: BackfillDue, until at: Date) throws {
        try write { db in
            try db.execute(sql: "UPDATE thread_backfill SET next_at = ? WHERE comment_id = ?", arguments: [at.timeIntervalSince1970, due.commentID])
        }
    }

    /// When the next reading is due (nil: none).
    public func nextDue() throws -> Date? {
        try read { db in
            try Double.fetchOne(db, sql: "SELECT min(next_at) FROM thread_backfill WHERE round <= ?", arguments: [Self.delays.count])
                .map(Date.init(timeIntervalSince1970:))
        }
    }
}
