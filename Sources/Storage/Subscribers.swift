import Foundation
import GRDB

/// The newsletter's email subscribers, and the queue of mails to them (`mail_queue`, reached as
/// `store.mails`). An address is kept for nothing else; removing it deletes every trace.
public struct Subscribers: StoreFacade {
    let store: Store
    public init(_ store: Store) { self.store = store }
}

extension Store {
    public var subscribers: Subscribers { Subscribers(self) }
}

/// A row of `subscribers`.
public struct Subscriber: Sendable, Equatable, Codable, UnixTimeRecord {
    public static let databaseTableName = "subscribers"
    public enum State: String, Sendable, Codable { case pending, confirmed, bouncing }
    /// How the address came: the form (double opt-in), `subscribers add`, or an import of
    /// addresses confirmed elsewhere (Ghost, Substack, WriteFreely).
    public enum Origin: String, Sendable, Codable { case form, added, imported }
    public var email: String
    public var state: State
    public var origin: Origin
    public var failures: Int
    public var createdAt: Date
    public var confirmedAt: Date?

    enum CodingKeys: String, CodingKey {
        case email, state, origin, failures, createdAt = "created_at", confirmedAt = "confirmed_at"
    }
}

extension Subscribers {
    /// What a request from the form did.
    public enum SubscribeOutcome: Equatable, Sendable {
        /// A confirmation mail is queued.
        case confirmationQueued
        /// Already subscribed: nothing is sent (the page says the same as for a new address).
        case alreadyConfirmed
        /// A confirmation went to this address less than a day ago.
        case tooSoon
        /// The hour's confirmations (all addresses) are spent.
        case capReached
    }

    /// The form's request for `email` (whose `mailbox` is it without a +tag): one confirmation
    /// per mailbox per day, `hourlyCap` in all. The cap is checked first, so its answer is the
    /// same for every address and tells nobody who is subscribed.
    public func subscribe(email: String, mailbox: String, unsubscribeHash: String, hourlyCap: Int, now: Date = Date()) throws -> SubscribeOutcome {
        let time = now.timeIntervalSince1970
        return try write { db in
            let lastHour = try Int.fetchOne(db, sql: "SELECT count(*) FROM mail_queue WHERE kind = 'confirmation' AND created_at > ?",
                                            arguments: [time - 3600]) ?? 0
            guard lastHour < hourlyCap else { return .capReached }
            let state = try String.fetchOne(db, sql: "SELECT state FROM subscribers WHERE email = ?", arguments: [email])
            if let state, state != "pending" { return .alreadyConfirmed }
            if let sent = try Double.fetchOne(db, sql: "SELECT max(confirmation_sent_at) FROM subscribers WHERE mailbox = ?", arguments: [mailbox]),
               time - sent < 86_400 { return .tooSoon }
            try db.execute(sql: """
                INSERT INTO subscribers (email, mailbox, state, origin, unsubscribe_hash, confirmation_sent_at, created_at)
                VALUES (?, ?, 'pending', 'form', ?, ?, ?)
                ON CONFLICT(email) DO UPDATE SET confirmation_sent_at = excluded.confirmation_sent_at, unsubscribe_hash = excluded.unsubscribe_hash
                """, arguments: [email, mailbox, unsubscribeHash, time, time])
            try db.execute(sql: """
                INSERT INTO mail_queue (email, kind, post_path, state, attempts, next_attempt_at, created_at)
                VALUES (?, 'confirmation', '', 'queued', 0, ?, ?)
                ON CONFLICT(email, kind, post_path) DO UPDATE SET state = 'queued', attempts = 0, last_error = NULL,
                    next_attempt_at = excluded.next_attempt_at, created_at = excluded.created_at
                """, arguments: [email, time, time])
            return .confirmationQueued
        }
    }

    /// Records the confirmation token just made for `email` (kept hashed, valid until `expires`).
    public func setConfirmation(email: String, tokenHash: String, expires: Date) throws {
        try write { db in
            try db.execute(sql: "UPDATE subscribers SET confirm_hash = ?, confirm_expires_at = ? WHERE email = ? AND state = 'pending'",
                           arguments: [tokenHash, expires.timeIntervalSince1970, email])
        }
    }

    /// The pending address a confirmation token belongs to, while it is valid.
    public func pendingAddress(confirmHash: String, now: Date = Date()) throws -> String? {
        try read { db in
            try String.fetchOne(db, sql: """
                SELECT email FROM subscribers WHERE confirm_hash = ? AND state = 'pending' AND confirm_expires_at > ?
                """, arguments: [confirmHash, now.timeIntervalSince1970])
        }
    }

    /// Confirms the address of a valid token; nil when the token is unknown or expired.
    public func confirm(confirmHash: String, now: Date = Date()) throws -> String? {
        try write { db in
            guard let email = try String.fetchOne(db, sql: """
                SELECT email FROM subscribers WHERE confirm_hash = ? AND state = 'pending' AND confirm_expires_at > ?
                """, arguments: [confirmHash, now.timeIntervalSince1970]) else { return nil }
            try db.execute(sql: """
                UPDATE subscribers SET state = 'confirmed', confirmed_at = ?, confirm_hash = NULL, confirm_expires_at = NULL
                WHERE email = ?
                """, arguments: [now.timeIntervalSince1970, email])
            return email
        }
    }

    /// Whether an unsubscribe token belongs to an address on the list.
    public func isSubscribed(unsubscribeHash: String) throws -> Bool {
        try read { db in
            try Bool.fetchOne(db, sql: "SELECT 1 FROM subscribers WHERE unsubscribe_hash = ?", arguments: [unsubscribeHash]) ?? false
        }
    }

    /// Removes the address of an unsubscribe token, with its mails; false when none has it.
    public func unsubscribe(unsubscribeHash: String) throws -> Bool {
        try write { db in
            try db.execute(sql: "DELETE FROM subscribers WHERE unsubscribe_hash = ?", arguments: [unsubscribeHash])
            return db.changesCount > 0
        }
    }

    /// Adds a confirmed address (`subscribers add`, `subscribers import`); false when it was
    /// already on the list (it is then confirmed).
    @discardableResult
    public func add(email: String, mailbox: String, origin: Subscriber.Origin, unsubscribeHash: String, now: Date = Date()) throws -> Bool {
        try write { db in
            let exists = try Bool.fetchOne(db, sql: "SELECT 1 FROM subscribers WHERE email = ?", arguments: [email]) ?? false
            try db.execute(sql: """
                INSERT INTO subscribers (email, mailbox, state, origin, unsubscribe_hash, created_at, confirmed_at)
                VALUES (?, ?, 'confirmed', ?, ?, ?, ?)
                ON CONFLICT(email) DO UPDATE SET state = 'confirmed', failures = 0, confirm_hash = NULL,
                    unsubscribe_hash = excluded.unsubscribe_hash, confirmed_at = coalesce(confirmed_at, excluded.confirmed_at)
                """, arguments: [email, mailbox, origin.rawValue, unsubscribeHash, now.timeIntervalSince1970, now.timeIntervalSince1970])
            return !exists
        }
    }

    /// Deletes an address and everything about it (its mails too); false when it was not there.
    public func remove(email: String) throws -> Bool {
        try write { db in
            try db.execute(sql: "DELETE FROM subscribers WHERE email = ?", arguments: [email])
            return db.changesCount > 0
        }
    }

    /// Deletes the addresses asked for before `cutoff` and never confirmed (their mails too).
    @discardableResult
    public func forgetUnconfirmed(before cutoff: Date) throws -> Int {
        try write { db in
            try db.execute(sql: "DELETE FROM subscribers WHERE state = 'pending' AND coalesce(confirmation_sent_at, created_at) < ?",
                           arguments: [cutoff.timeIntervalSince1970])
            return db.changesCount
        }
    }

    public func all() throws -> [Subscriber] {
        try read { db in try Subscriber.order(Column("created_at")).fetchAll(db) }
    }

    /// Subscribers by state.
    public func counts() throws -> (confirmed: Int, pending: Int, bouncing: Int) {
        try read { db in
            let rows = try Row.fetchAll(db, sql: "SELECT state, count(*) AS n FROM subscribers GROUP BY state")
            var counts: [String: Int] = [:]
            for row in rows { counts[row["state"]] = row["n"] }
            return (counts["confirmed"] ?? 0, counts["pending"] ?? 0, counts["bouncing"] ?? 0)
        }
    }
}
