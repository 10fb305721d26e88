import Foundation
import GRDB

/// The change log between processes: a generation per kind of change (`lectern publish`,
/// `comments`, `blocks`, `keys`…) that a running server reads, and the deliveries held until it
/// serves the site generation that announces them.
public struct SiteChanges: StoreFacade {
    let store: Store
    public init(_ store: Store) { self.store = store }
}

extension Store {
    public var changes: SiteChanges { SiteChanges(self) }
}

/// Kinds of change another process can make to what a running server serves.
public enum ChangeKind: String, Sendable, CaseIterable {
    /// `public/` was rebuilt and swapped, posts were published: reload the files and the Articles.
    case site
    /// Comments were moderated: re-render the pages that show them.
    case discussions
    /// Actors or domains were blocked or unblocked (applies to what pages show too).
    case blocks
    /// Followers were removed.
    case followers
    /// The blog's keys were rotated or its account moved (`lectern move`): publish the actor anew.
    case keys
    /// Activities were queued: deliver them.
    case deliveries
}

/// A row of `changes`: a kind of change and its generation. The kind stays text: a kind this
/// build does not know (written by a newer one) is skipped, not an error.
struct ChangeRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "changes"
    var kind: String
    var generation: Int
}

extension SiteChanges {
    /// Bumps each kind's generation in one transaction; returns the new generations.
    @discardableResult
    public func recordChange(_ kinds: Set<ChangeKind>) throws -> [ChangeKind: Int] {
        try write { db in
            var result: [ChangeKind: Int] = [:]
            for kind in kinds {
                try db.execute(sql: """
                    INSERT INTO changes (kind, generation) VALUES (?, 1)
                    ON CONFLICT(kind) DO UPDATE SET generation = generation + 1
                    """, arguments: [kind.rawValue])
                result[kind] = try ChangeRecord.fetchOne(db, key: kind.rawValue)?.generation ?? 0
            }
            return result
        }
    }

    /// Every kind's generation (0 for kinds never changed).
    public func changeGenerations() throws -> [ChangeKind: Int] {
        try read { db in
            var result = Dictionary(uniqueKeysWithValues: ChangeKind.allCases.map { ($0, 0) })
            for change in try ChangeRecord.fetchAll(db) {
                if let kind = ChangeKind(rawValue: change.kind) { result[kind] = change.generation }
            }
            return result
        }
    }

    /// Deliveries held for a site generation the server now serves become due.
    @discardableResult
    public func releaseHeldDeliveries(upTo generation: Int, now: Date = Date()) throws -> Int {
        try write { db in
            try db.execute(sql: """
                UPDATE deliveries SET held_generation = NULL, next_attempt_at = ?
                WHERE held_generation IS NOT NULL AND held_generation <= ?
                """, arguments: [now.timeIntervalSince1970, generation])
            return db.changesCount
        }
    }

    /// Deliveries waiting for the server to serve what they name.
    public func heldDeliveryCount() throws -> Int {
        try read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM deliveries WHERE held_generation IS NOT NULL") ?? 0
        }
    }
}
