import Foundation
import GRDB

/// The outbox: activities to deliver, one delivery per inbox, leased, retried and recorded.
public struct DeliveryQueue: StoreFacade {
    let store: Store
    public init(_ store: Store) { self.store = store }
    /// The folder that holds the database (what `FullDiskBackoff` watches).
    public var databaseFolder: String { store.databaseFolder }
}

extension Store {
    public var deliveries: DeliveryQueue { DeliveryQueue(self) }
}

/// One activity to deliver to one inbox, as leased by the delivery worker: a delivery joined
/// with its activity's JSON.
public struct DeliveryJob: Sendable, Equatable, Decodable, UnixTimeRow {
    public var id: Int64
    public var activityID: String
    public var inbox: String
    public var host: String
    public var attempts: Int
    public var json: String
    public var createdAt: Date

    enum CodingKeys: String, CodingKey {
        case id, inbox, host, attempts, json
        case activityID = "activity_id", createdAt = "created_at"
    }
}

/// What a delivery sends (`deliveries.kind`).
public enum DeliveryKind: String, Sendable, Codable {
    /// A signed POST of an activity's JSON to an inbox.
    case activity
    /// An unsigned form POST of `source` and `target` to the target's discovered endpoint.
    case webmention
}

/// Counts for `lectern deliveries`.
public struct DeliveryStats: Sendable, Equatable {
    public struct Host: Sendable, Equatable {
        public var host: String
        public var queued, delivered, failed: Int
        public var nextAttemptAt: Date?
        public var paused: Bool
        public var failingSince: Date?
    }
    public var queued = 0, delivered = 0, failed = 0
    public var oldestQueued: Date?
    public var hosts: [Host] = []
}

extension DeliveryQueue {
    /// Stores an activity and one delivery per distinct inbox, in one transaction. Queueing the
    /// same activity id again adds only inboxes it did not have.
    /// With `keeping`, the object the activity carries is kept in the same transaction, so its
    /// id answers (see `sentObject`) exactly when the activity is on its way.
    public func enqueueActivity(id: String, type: String, objectID: String?, json: String, inboxes: [String],
                                keeping object: SentObject? = nil, now: Date = Date()) throws {
        try write { db in
            if let object { try SentObjects.keepSentObject(db, object) }
            try Self.enqueue(db, id: id, type: type, objectID: objectID, json: json, inboxes: inboxes, now: now)
        }
    }

    /// Queues one delivery per distinct inbox (for a webmention, its target). With `heldFor`,
    /// they wait (far in the future) until `releaseHeldDeliveries(upTo:)` reaches that site generation.
    static func enqueue(_ db: Database, id: String, type: String, objectID: String?, json: String, inboxes: [String],
                        now: Date, heldFor generation: Int? = nil, kind: DeliveryKind = .activity) throws {
        try OutboundActivity(id: id, type: type, objectID: objectID, json: json, createdAt: now).insert(db, onConflict: .ignore)
        let due = generation == nil ? now : Self.heldUntil
        for inbox in Set(inboxes) {
            let host = URLComponents(string: inbox)?.host?.lowercased() ?? ""
            try Delivery(activityID: id, inbox: inbox, host: host, nextAttemptAt: due, createdAt: now, heldGeneration: generation, kind: kind)
                .insert(db, onConflict: .ignore)
        }
    }

    /// The due time of a held delivery: never, until it is released.
    static let heldUntil = Date(timeIntervalSince1970: 1e12)

    /// Leases up to `limit` due deliveries: their next attempt moves to `now + lease`, so a
    /// worker that dies holding them (even `kill -9`) gives them back when the lease runs out.
    /// Paused hosts are skipped. Hosts take turns: each host's first due delivery comes before
    /// any host's second, so one host with thousands of inboxes (followers without a shared
    /// inbox) fills no lease and slows nobody else's deliveries.
    /// `kind` is what the leasing worker sends: `activity` (the delivery worker) or `webmention`
    /// (`WebmentionSender`), each leased only by its own.
    public func leaseDeliveries(limit: Int, now: Date = Date(), lease: TimeInterval = 60,
                                kind: DeliveryKind = .activity) throws -> [DeliveryJob] {
        try write { db in
            let jobs = try DeliveryJob.fetchAll(db, sql: """
                SELECT * FROM (
                    SELECT d.id, d.activity_id, d.inbox, d.host, d.attempts, d.created_at, d.next_attempt_at, a.json,
                           ROW_NUMBER() OVER (PARTITION BY d.host ORDER BY d.next_attempt_at, d.id) AS turn
                    FROM deliveries d JOIN outbound_activities a ON a.id = d.activity_id
                    LEFT JOIN hosts h ON h.host = d.host
                    WHERE d.state = 'queued' AND d.next_attempt_at <= ? AND COALESCE(h.paused, 0) = 0 AND d.kind = ?
                ) ORDER BY turn, next_attempt_at, id LIMIT ?
                """, arguments: [now.timeIntervalSince1970, kind.rawValue, limit])
            let statement = try db.makeStatement(sql: "UPDATE deliveries SET next_attempt_at = ? WHERE id = ?")
            for job in jobs {
                try statement.execute(arguments: [now.timeIntervalSince1970 + lease, job.id])
            }
            return jobs
        }
    }

    /// When the next queued delivery is due (to sleep until then), if any.
    public func nextDeliveryDue() throws -> Date? {
        try read { db in
            try Double.fetchOne(db, sql: """
                SELECT MIN(d.next_attempt_at) FROM deliveries d LEFT JOIN hosts h ON h.host = d.host
                WHERE d.state = 'queued' AND COALESCE(h.paused, 0) = 0
                """).map(Date.init(timeIntervalSince1970:))
        }
    }

    /// What an attempt means, as the delivery policy decided it; the store saves it as it is.
    public struct DeliveryDecision: Sendable, Equatable {
        public enum Next: Sendable, Equatable {
            case delivered
            case retry(at: Date)
            /// Final: given up, or refused for good.
            case failed
        }
        public var next: Next
        /// The host did not answer usefully: its failure streak goes on (else it ends).
        public var hostDown: Bool
        /// The inbox said 410 Gone: the followers behind it are removed.
        public var removeFollowers: Bool
        /// A host down since before this is paused until heard from again.
        public var pauseHostIfDownSince: Date

        public init(next: Next, hostDown: Bool, removeFollowers: Bool, pauseHostIfDownSince: Date) {
            (self.next, self.hostDown, self.removeFollowers, self.pauseHostIfDownSince) = (next, hostDown, removeFollowers, pauseHostIfDownSince)
        }
    }

    /// One attempt and its decision, for `recordOutcomes`.
    public struct DeliveryOutcome: Sendable {
        public var id: Int64
        public var host: String
        public var inbox: String
        public var status: Int?
        public var error: String
        public var decision: DeliveryDecision

        public init(id: Int64, host: String, inbox: String, status: Int?, error: String, decision: DeliveryDecision) {
            (self.id, self.host, self.inbox, self.status, self.error, self.decision) = (id, host, inbox, status, error, decision)
        }
    }

    /// Records attempts in one transaction (the worker batches them: one commit per batch, not
    /// per request), exactly as decided.
    public func recordOutcomes(_ outcomes: [DeliveryOutcome], now: Date = Date()) throws {
        guard !outcomes.isEmpty else { return }
        try write { db in
            for outcome in outcomes {
                let decision = outcome.decision
                let state: String, next: Date
                switch decision.next {
                case .delivered: (state, next) = ("delivered", now)
                case .retry(let at): (state, next) = ("queued", at)
                case .failed: (state, next) = ("failed", now)
                }
                try db.execute(sql: """
                    UPDATE deliveries SET state = ?, attempts = attempts + 1, last_status = ?, last_error = ?, next_attempt_at = ?
                    WHERE id = ?
                    """, arguments: [state, outcome.status, decision.next == .delivered ? nil : outcome.error,
                                     next.timeIntervalSince1970, outcome.id])
                if decision.removeFollowers {
                    try db.execute(sql: "DELETE FROM followers WHERE actor_id IN (SELECT id FROM remote_actors WHERE inbox = ?)",
                                   arguments: [outcome.inbox])
                }
                if decision.hostDown {
                    try db.execute(sql: """
                        INSERT INTO hosts (host, failing_since) VALUES (?, ?)
                        ON CONFLICT(host) DO UPDATE SET failing_since = COALESCE(hosts.failing_since, excluded.failing_since)
                        """, arguments: [outcome.host, now.timeIntervalSince1970])
                    try db.execute(sql: "UPDATE hosts SET paused = 1 WHERE host = ? AND failing_since <= ?",
                                   arguments: [outcome.host, decision.pauseHostIfDownSince.timeIntervalSince1970])
                } else {
                    try db.execute(sql: "UPDATE hosts SET failing_since = NULL, paused = 0 WHERE host = ? AND failing_since IS NOT NULL",
                                   arguments: [outcome.host])
                }
            }
        }
    }

    /// Keeps leased deliveries with their worker until `until` (as their requests start).
    public func renewLeases(_ ids: [Int64], until: Date) throws {
        guard !ids.isEmpty else { return }
        try write { db in
            let statement = try db.makeStatement(sql: "UPDATE deliveries SET next_attempt_at = ? WHERE id = ? AND state = 'queued'")
            for id in ids { try statement.execute(arguments: [until.timeIntervalSince1970, id]) }
        }
    }

    /// An activity came from this host: it is up again; its paused deliveries are due now.
    public func hostIsBack(_ host: String, now: Date = Date()) throws {
        // Called for every inbox request: a read first, so healthy hosts cost no write.
        guard try isHostTroubled(host) else { return }
        try write { db in try Self.clearHostTrouble(db, host: host, now: now) }
    }

    /// The same, from the inbox: the write runs on the database's own thread.
    public func hostIsBack(_ host: String, now: Date = Date()) async throws {
        guard try isHostTroubled(host) else { return }
        try await writeAsync { db in try Self.clearHostTrouble(db, host: host, now: now) }
    }

    private func isHostTroubled(_ host: String) throws -> Bool {
        try read { db in
            guard let row = try DeliveryHost.fetchOne(db.cachedStatement(sql: "SELECT host, failing_since, paused FROM hosts WHERE host = ?"),
                                                      arguments: [host.lowercased()]) else { return false }
            return row.paused || row.failingSince != nil
        }
    }

    private static func clearHostTrouble(_ db: Database, host: String, now: Date) throws {
        try db.execute(sql: "UPDATE hosts SET paused = 0, failing_since = NULL WHERE host = ? AND (paused = 1 OR failing_since IS NOT NULL)",
                       arguments: [host.lowercased()])
        guard db.changesCount > 0 else { return }
        try db.execute(sql: "UPDATE deliveries SET next_attempt_at = ? WHERE host = ? AND state = 'queued'",
                       arguments: [now.timeIntervalSince1970, host.lowercased()])
    }

    /// Remembers that `origin` (`scheme://host:port`) takes only draft-cavage (`false`), as the
    /// double-knock learned it; `true` forgets it again (RFC 9421 first is the default, and a
    /// row is kept only where it changes what is sent).
    public func setAcceptsRFC9421(origin: String, _ accepts: Bool, now: Date = Date()) throws {
        try write { db in
            guard !accepts else {
                try db.execute(sql: "DELETE FROM signature_memory WHERE origin = ?", arguments: [origin])
                return
            }
            try SignatureMemory(origin: origin, rfc9421: accepts, learnedAt: now).upsert(db)
        }
    }

    /// Forgets what the double-knock learned before `cutoff` (it is not used after its memory
    /// runs out): the table holds at most the servers that refused RFC 9421 within that time.
    public func pruneSignatureMemory(before cutoff: Date) throws {
        try write { db in
            try db.execute(sql: "DELETE FROM signature_memory WHERE learned_at < ?", arguments: [cutoff.timeIntervalSince1970])
        }
    }

    /// What the double-knock learned about `origin` within `memory`: false (draft-cavage only),
    /// nil (nothing, or too long ago).
    public func acceptsRFC9421(origin: String, memory: TimeInterval, now: Date = Date()) throws -> Bool? {
        try read { db in
            try SignatureMemory.fetchOne(db, key: origin).flatMap { $0.learnedAt >= now.addingTimeInterval(-memory) ? $0.rfc9421 : nil }
        }
    }

    /// Makes failed (or, for one host, queued) deliveries due again now. Returns how many.
    public func retryDeliveries(host: String? = nil, now: Date = Date()) throws -> Int {
        try write { db in
            if let host {
                try db.execute(sql: "UPDATE hosts SET paused = 0, failing_since = NULL WHERE host = ?", arguments: [host])
                try db.execute(sql: "UPDATE deliveries SET state = 'queued', next_attempt_at = ? WHERE host = ? AND state != 'delivered'",
                               arguments: [now.timeIntervalSince1970, host])
            } else {
                try db.execute(sql: "UPDATE hosts SET paused = 0, failing_since = NULL")
                try db.execute(sql: "UPDATE deliveries SET state = 'queued', next_attempt_at = ? WHERE state != 'delivered'",
                               arguments: [now.timeIntervalSince1970])
            }
            return db.changesCount
        }
    }

    /// Forgets deliveries that arrived before `cutoff`, and the activities left without any: a
    /// post to 8,000 inboxes leaves 8,000 rows (about 4 MB), which `lectern deliveries` shows
    /// only while recent. Queued and failed rows stay (`retry`, `purge --failed`). Deleted in
    /// transactions of `batch` rows, so that a first prune of years of rows does not hold the
    /// writer for long. Returns how many deliveries went.
    public func pruneDelivered(before cutoff: Date, batch: Int = 5_000) throws -> Int {
        var pruned = 0
        while true {
            let removed = try write { db in
                try db.execute(sql: """
                    DELETE FROM deliveries WHERE id IN
                        (SELECT id FROM deliveries WHERE state = 'delivered' AND next_attempt_at < ? LIMIT ?)
                    """, arguments: [cutoff.timeIntervalSince1970, batch])
                return db.changesCount
            }
            pruned += removed
            if removed < batch { break }
        }
        try write { db in
            try db.execute(sql: """
                DELETE FROM outbound_activities WHERE created_at < ?
                    AND NOT EXISTS (SELECT 1 FROM deliveries d WHERE d.activity_id = outbound_activities.id)
                """, arguments: [cutoff.timeIntervalSince1970])
        }
        return pruned
    }

    /// Deletes deliveries that gave up. Returns how many.
    public func purgeFailedDeliveries() throws -> Int {
        try write { db in
            try db.execute(sql: "DELETE FROM deliveries WHERE state = 'failed'")
            return db.changesCount
        }
    }

    public func deliveryStats() throws -> DeliveryStats {
        try read { db in
            var stats = DeliveryStats()
            for row in try Row.fetchAll(db, sql: "SELECT state, COUNT(*) AS n FROM deliveries GROUP BY state") {
                switch row["state"] as String {
                case "queued": stats.queued = row["n"]
                case "delivered": stats.delivered = row["n"]
                default: stats.failed = row["n"]
                }
            }
            stats.oldestQueued = try Double.fetchOne(db, sql: "SELECT MIN(created_at) FROM deliveries WHERE state = 'queued'")
                .map(Date.init(timeIntervalSince1970:))
            stats.hosts = try Row.fetchAll(db, sql: """
                SELECT d.host, SUM(d.state = 'queued') AS q, SUM(d.state = 'delivered') AS ok, SUM(d.state = 'failed') AS ko,
                    MIN(CASE WHEN d.state = 'queued' THEN d.next_attempt_at END) AS next,
                    COALESCE(h.paused, 0) AS paused, h.failing_since
                FROM deliveries d LEFT JOIN hosts h ON h.host = d.host GROUP BY d.host ORDER BY q DESC, d.host
                """).map {
                DeliveryStats.Host(host: $0["host"], queued: $0["q"], delivered: $0["ok"], failed: $0["ko"],
                                   nextAttemptAt: ($0["next"] as Double?).map(Date.init(timeIntervalSince1970:)),
                                   paused: $0["paused"], failingSince: ($0["failing_since"] as Double?).map(Date.init(timeIntervalSince1970:)))
            }
            return stats
        }
    }
}

extension DeliveryQueue {
    /// One delivery as it stands.
    public func delivery(activityID: String, inbox: String) throws -> Delivery {
        try read { db in
            guard let delivery = try Delivery.filter(Column("activity_id") == activityID && Column("inbox") == inbox).fetchOne(db) else {
                throw StoreError.notFound("delivery of \(activityID) to \(inbox)")
            }
            return delivery
        }
    }
}
