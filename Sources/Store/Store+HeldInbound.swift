import Foundation
import GRDB

/// An inbox request kept until its signing key can be had (`held_inbound`).
public struct HeldInbound: Sendable, Equatable {
    public var seq: Int64
    /// The request as received, serialized by the caller.
    public var request: Data
    public var receivedAt: Date
    public var attempts: Int
}

extension Store {
    /// At most this many requests are held for one key host, and this many in all: a stranger who
    /// names a slow key server costs at most these rows (each at most the inbox's 256 KiB).
    public static let heldPerKeyHost = 20
    public static let heldInAll = 200

    /// Keeps a request whose key could not be had; false (nothing stored) when its key host or
    /// the whole table is at its bound.
    public func holdInbound(_ request: Data, keyHost: String, firstAttemptAt: Date, now: Date = Date()) throws -> Bool {
        try write { db in
            let forHost = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM held_inbound WHERE key_host = ?", arguments: [keyHost]) ?? 0
            let all = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM held_inbound") ?? 0
            guard forHost < Self.heldPerKeyHost, all < Self.heldInAll else { return false }
            try db.execute(sql: """
                INSERT INTO held_inbound (key_host, request, received_at, next_attempt_at) VALUES (?, ?, ?, ?)
                """, arguments: [keyHost, request, now.timeIntervalSince1970, firstAttemptAt.timeIntervalSince1970])
            return true
        }
    }

    /// Held requests due for another check, oldest first.
    public func dueHeldInbound(limit: Int, now: Date = Date()) throws -> [HeldInbound] {
        try read { db in
            try Row.fetchAll(db, sql: """
                SELECT seq, request, received_at, attempts FROM held_inbound WHERE next_attempt_at <= ?
                ORDER BY next_attempt_at, seq LIMIT ?
                """, arguments: [now.timeIntervalSince1970, limit]).map { row in
                HeldInbound(seq: row["seq"], request: row["request"], receivedAt: Date(timeIntervalSince1970: row["received_at"]),
                            attempts: row["attempts"])
            }
        }
    }

    /// When the next held request is due, if any.
    public func nextHeldInboundDue() throws -> Date? {
        try read { db in
            try Double.fetchOne(db, sql: "SELECT MIN(next_attempt_at) FROM held_inbound").map(Date.init(timeIntervalSince1970:))
        }
    }

    /// Its key still cannot be had: checked again at `next`.
    public func rescheduleHeldInbound(seq: Int64, next: Date) throws {
        try write { db in
            try db.execute(sql: "UPDATE held_inbound SET attempts = attempts + 1, next_attempt_at = ? WHERE seq = ?",
                           arguments: [next.timeIntervalSince1970, seq])
        }
    }

    /// Settled (queued, refused or given up): forgotten.
    public func releaseHeldInbound(seq: Int64) throws {
        try write { db in try db.execute(sql: "DELETE FROM held_inbound WHERE seq = ?", arguments: [seq]) }
    }

    public func heldInboundCount() throws -> Int {
        try read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM held_inbound") ?? 0 }
    }
}
