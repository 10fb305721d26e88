import Foundation
import GRDB

/// The newsletter's mails waiting to go to the relay (`mail_queue`): leased before each send, so
/// a crash mid-send sends that mail again and no other, and retried later and later.
public struct MailQueue: StoreFacade {
    let store: Store
    public init(_ store: Store) { self.store = store }
}

extension Store {
    public var mails: MailQueue { MailQueue(self) }
}

/// A mail to send: a row of `mail_queue`. Rows are queued by SQL that selects the subscribers
/// (`queuePost`) or keeps a confirmation's row (`Subscribers`).
public struct QueuedMail: Sendable, Equatable, Decodable, UnixTimeRow, TableRecord {
    public static let databaseTableName = "mail_queue"
    public enum Kind: String, Sendable, Decodable { case confirmation, post }
    public enum State: String, Sendable, Decodable { case queued, sent, failed }
    public var id: Int64
    public var email: String
    public var kind: Kind
    /// The post's path, for a post's mail ("" for a confirmation).
    public var postPath: String
    public var state: State
    /// Attempts made, this one included once leased.
    public var attempts: Int
    /// When it is due; while leased, when the lease runs out.
    public var nextAttemptAt: Date
    public var lastError: String?
    public var createdAt: Date

    enum CodingKeys: String, CodingKey {
        case id, email, kind, state, attempts
        case postPath = "post_path", nextAttemptAt = "next_attempt_at", lastError = "last_error", createdAt = "created_at"
    }
}

extension MailQueue {
    /// Queues the post at `path` for every confirmed subscriber (once per address: publishing
    /// it again, or an edit, sends nothing more). Returns the number queued.
    @discardableResult
    public func queuePost(path: String, now: Date = Date()) throws -> Int {
        try write { db in
            try db.execute(sql: """
                INSERT OR IGNORE INTO mail_queue (email, kind, post_path, state, attempts, next_attempt_at, created_at)
                SELECT email, 'post', ?, 'queued', 0, ?, ? FROM subscribers WHERE state = 'confirmed'
                """, arguments: [path, now.timeIntervalSince1970, now.timeIntervalSince1970])
            return db.changesCount
        }
    }

    /// Up to `limit` mails due now, each leased for `lease` seconds (its attempt counted). A
    /// post's mail goes only to an address still confirmed.
    public func lease(limit: Int, lease: TimeInterval = 120, now: Date = Date()) throws -> [QueuedMail] {
        let time = now.timeIntervalSince1970
        return try write { db in
            // Mails whose address changed state meanwhile (a post's to an address now bouncing, a
            // confirmation to one confirmed another way) are not for sending any more.
            try db.execute(sql: """
                UPDATE mail_queue SET state = 'failed', last_error = 'the address is no longer in the state this mail was for'
                WHERE state = 'queued' AND id IN (SELECT q.id FROM mail_queue q JOIN subscribers s ON s.email = q.email
                    WHERE q.state = 'queued' AND NOT ((q.kind = 'post' AND s.state = 'confirmed') OR (q.kind = 'confirmation' AND s.state = 'pending')))
                """)
            let due = try QueuedMail.fetchAll(db, sql: """
                SELECT q.* FROM mail_queue q JOIN subscribers s ON s.email = q.email
                WHERE q.state = 'queued' AND q.next_attempt_at <= ?
                  AND ((q.kind = 'post' AND s.state = 'confirmed') OR (q.kind = 'confirmation' AND s.state = 'pending'))
                ORDER BY q.next_attempt_at, q.id LIMIT ?
                """, arguments: [time, limit])
            return try due.map { mail in
                var leased = mail
                leased.attempts += 1
                leased.nextAttemptAt = Date(timeIntervalSince1970: time + lease)
                try db.execute(sql: "UPDATE mail_queue SET attempts = ?, next_attempt_at = ? WHERE id = ?",
                               arguments: [leased.attempts, time + lease, mail.id])
                return leased
            }
        }
    }

    /// The relay took the mail.
    public func sent(_ mail: QueuedMail) throws {
        try write { db in
            try db.execute(sql: "UPDATE mail_queue SET state = 'sent', last_error = NULL WHERE id = ?", arguments: [mail.id])
            try db.execute(sql: "UPDATE subscribers SET failures = 0 WHERE email = ? AND failures > 0", arguments: [mail.email])
        }
    }

    /// Try again at `at`.
    public func retry(_ mail: QueuedMail, at: Date, error: String) throws {
        try write { db in
            try db.execute(sql: "UPDATE mail_queue SET next_attempt_at = ?, last_error = ? WHERE id = ?",
                           arguments: [at.timeIntervalSince1970, error, mail.id])
        }
    }

    /// Given up. `permanent`: the relay refused the address itself (5xx); after
    /// `bouncingAfter` such refusals in a row the address is marked bouncing and mailed no more.
    public func failed(_ mail: QueuedMail, error: String, permanent: Bool, bouncingAfter: Int) throws {
        try write { db in
            try db.execute(sql: "UPDATE mail_queue SET state = 'failed', last_error = ? WHERE id = ?", arguments: [error, mail.id])
            guard permanent else { return }
            try db.execute(sql: "UPDATE subscribers SET failures = failures + 1 WHERE email = ?", arguments: [mail.email])
            try db.execute(sql: "UPDATE subscribers SET state = 'bouncing' WHERE email = ? AND state = 'confirmed' AND failures >= ?",
                           arguments: [mail.email, bouncingAfter])
        }
    }

    /// Deletes the mails sent or given up that were queued before `cutoff` (a post is queued once,
    /// when it is new: a pruned row is never sent again).
    @discardableResult
    public func pruneFinished(before cutoff: Date) throws -> Int {
        try write { db in
            try db.execute(sql: "DELETE FROM mail_queue WHERE state != 'queued' AND created_at < ?", arguments: [cutoff.timeIntervalSince1970])
            return db.changesCount
        }
    }

    /// When the next queued mail is due (nil: none queued).
    public func nextDue() throws -> Date? {
        try read { db in
            try Double.fetchOne(db, sql: "SELECT min(next_attempt_at) FROM mail_queue WHERE state = 'queued'").map(Date.init(timeIntervalSince1970:))
        }
    }

    /// Mails by state.
    public func counts() throws -> (queued: Int, sent: Int, failed: Int) {
        try read { db in
            let rows = try Row.fetchAll(db, sql: "SELECT state, count(*) AS n FROM mail_queue GROUP BY state")
            var counts: [String: Int] = [:]
            for row in rows { counts[row["state"]] = row["n"] }
            return (counts["queued"] ?? 0, counts["sent"] ?? 0, counts["failed"] ?? 0)
        }
    }
}
