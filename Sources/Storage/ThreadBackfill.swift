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

/// A comment whose replies are read on a schedule: a row of `thread_backfill`.
public struct BackfillDue: Sendable, Equatable, Codable, UnixTimeRecord {
    public static let databaseTableName = "thread_backfill"
    public var commentID: String
    public var postPath: String
    /// The comment's depth in the page's thread (0: a reply to the post).
    public var depth: Int
    /// How many readings were made (the next waits `delays[round - 1]`).
    public var round = 0
    public var nextAt: Date
    /// The comment's server, whose budget the reading spends.
    public var host: String
    /// When a delivered reply last asked for one more reading (at most hourly).
    public var rearmedAt: Date?

    enum CodingKeys: String, CodingKey {
        case depth, round, host
        case commentID = "comment_id", postPath = "post_path", nextAt = "next_at", rearmedAt = "rearmed_at"
    }
}

extension ThreadBackfill {
    /// After the first reading: 10 minutes, an hour, a day.
    public static let delays: [TimeInterval] = [600, 3600, 86_400]

    /// Reads `commentID`'s replies from now on (nothing when it is already scheduled).
    public func schedule(commentID: String, postPath: String, depth: Int, host: String, now: Date = Date()) async throws {
        try await writeAsync { db in
            try BackfillDue(commentID: commentID, postPath: postPath, depth: depth, nextAt: now, host: host).insert(db, onConflict: .ignore)
        }
    }

    /// An approved reply was delivered into `commentID`'s thread: a thread already read to its end
    /// is read once more, a minute later, at most once an hour (one still being read is left as it is).
    public func rearm(commentID: String, now: Date = Date()) async throws {
        let time = now.timeIntervalSince1970
        try await writeAsync { db in
            try db.execute(sql: """
                UPDATE thread_backfill SET round = ?, next_at = ?, rearmed_at = ?
                WHERE comment_id = ? AND round > ? AND (rearmed_at IS NULL OR rearmed_at < ?)
                """, arguments: [Self.delays.count, time + 60, time, commentID, Self.delays.count, time - 3600])
        }
    }

    /// Rows due, of approved comments only.
    static let dueRows = """
        SELECT b.rowid AS rowid, b.* FROM thread_backfill b JOIN comments c ON c.id = b.comment_id
        WHERE b.round <= ? AND c.state = 'approved'
        """

    /// Up to `limit` approved comments due now, the earliest first, at most one per host (one
    /// host's threads never hold up another's).
    public func due(limit: Int, now: Date = Date()) throws -> [BackfillDue] {
        try read { db in
            try BackfillDue.fetchAll(db, sql: """
                SELECT comment_id, post_path, depth, round, next_at, host, rearmed_at FROM (\(Self.dueRows)) due
                WHERE next_at <= ? AND rowid IN (SELECT min(rowid) FROM (\(Self.dueRows)) WHERE next_at <= ? GROUP BY host)
                ORDER BY next_at LIMIT ?
                """, arguments: [Self.delays.count, now.timeIntervalSince1970, Self.delays.count, now.timeIntervalSince1970, limit])
        }
    }

    /// The reading of `due` is done: the next is after the next delay, or never.
    public func advance(_ due: BackfillDue, now: Date = Date()) throws {
        try write { db in
            let next = due.round < Self.delays.count ? now.timeIntervalSince1970 + Self.delays[due.round] : Double.greatestFiniteMagnitude
            try db.execute(sql: "UPDATE thread_backfill SET round = round + 1, next_at = ? WHERE comment_id = ?", arguments: [next, due.commentID])
        }
    }

    /// When the next reading of an approved comment is due (nil: none).
    public func nextDue() throws -> Date? {
        try read { db in
            try Double.fetchOne(db, sql: "SELECT min(next_at) FROM (\(Self.dueRows))", arguments: [Self.delays.count])
                .map(Date.init(timeIntervalSince1970:))
        }
    }
}
