import Foundation
import GRDB

/// Activities held until their signer's key can be fetched again.
public struct HeldInboundQueue: StoreFacade {
    let store: Store
    public init(_ store: Store) { self.store = store }
}

extension Store {
    public var heldInbound: HeldInboundQueue { HeldInboundQueue(self) }
}

/// An inbox request kept until its signing key can be had: a row of `held_inbound`.
public struct HeldInbound: Sendable, Equatable, Codable, UnixTimeRecord {
    public static let databaseTableName = "held_inbound"
    public var seq: Int64?
    /// The host of the signature's keyId (= the actor's): what the per-host bound counts.
    public var keyHost: String
    /// The signature's replay key (key id and bytes), base64: one row per signature.
    public var signature: String
    /// The request as received, serialized by the caller.
    public var request: Data
    public var receivedAt: Date
    public var attempts = 0
    public var nextAttemptAt: Date

    enum CodingKeys: String, CodingKey {
        case seq, signature, request, attempts
        case keyHost = "key_host", receivedAt = "received_at", nextAttemptAt = "next_attempt_at"
    }
}

extension HeldInboundQueue {
    /// At most this many requests are held for one key host, and this many in all: a stranger who
    /// names a slow key server costs at most these rows (each at most the inbox's 256 KiB as
    /// base64 in JSON, about 342 KiB).
    public static let heldPerKeyHost = 20
    public static let heldInAll = 200

    public enum HoldResult: Sendable, Equatable {
        case held
        /// The same signature is held already (a sender's retry, or a replay): nothing more kept.
        case alreadyHeld
        /// Its key host, or the whole table, is at its bound: nothing kept.
        case full
    }

    /// Keeps a request whose key could not be had, known by its signature's replay key. Runs on
    /// the database's own writer, never on the caller's thread.
    public func holdInbound(_ request: Data, keyHost: String, signature: String, firstAttemptAt: Date,
                            now: Date = Date()) async throws -> HoldResult {
        try await writeAsync { db in
            if try Bool.fetchOne(db, sql: "SELECT 1 FROM held_inbound WHERE signature = ?", arguments: [signature]) == true {
                return .alreadyHeld
            }
            let forHost = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM held_inbound WHERE key_host = ?", arguments: [keyHost]) ?? 0
            let all = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM held_inbound") ?? 0
            guard forHost < Self.heldPerKeyHost, all < Self.heldInAll else { return .full }
            try HeldInbound(keyHost: keyHost, signature: signature, request: request, receivedAt: now, nextAttemptAt: firstAttemptAt)
                .insert(db)
            return .held
        }
    }

    /// Whether the blog has met an actor on `origin` (`https://host[:port]`) before: only such
    /// servers' requests are held, so a stranger's fresh domains take no room.
    public func knowsActors(onOrigin origin: String) throws -> Bool {
        try read { db in
            // Ids on the origin sort between "origin/" and "origin0" ("0" follows "/").
            try Bool.fetchOne(db, sql: "SELECT 1 FROM remote_actors WHERE id >= ? AND id < ? LIMIT 1",
                              arguments: [origin + "/", origin + "0"]) == true
        }
    }

    /// Held requests due for another check, oldest first.
    public func dueHeldInbound(limit: Int, now: Date = Date()) throws -> [HeldInbound] {
        try read { db in
            try HeldInbound.fetchAll(db, sql: """
                SELECT * FROM held_inbound WHERE next_attempt_at <= ? ORDER BY next_attempt_at, seq LIMIT ?
                """, arguments: [now.timeIntervalSince1970, limit])
        }
    }

    /// When the next held request is due, if any.
    public func nextHeldInboundDue() throws -> Date? {
        try read { db in
            try Double.fetchOne(db, sql: "SELECT MIN(next_attempt_at) FROM held_inbound").map(Date.init(timeIntervalSince1970:))
        }
    }

    /// Its key still cannot be had: checked again at `next`.
    public func rescheduleHeldInbound(_ held: HeldInbound, next: Date) async throws {
        try await writeAsync { db in
            try db.execute(sql: "UPDATE held_inbound SET attempts = attempts + 1, next_attempt_at = ? WHERE seq = ?",
                           arguments: [next.timeIntervalSince1970, held.seq])
        }
    }

    /// Settled (queued, refused or given up): forgotten.
    public func releaseHeldInbound(_ held: HeldInbound) async throws {
        _ = try await writeAsync { db in try held.delete(db) }
    }

    public func heldInboundCount() throws -> Int {
        try read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM held_inbound") ?? 0 }
    }
}
