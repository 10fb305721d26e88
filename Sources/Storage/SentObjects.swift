import Foundation
import GRDB

/// Objects the blog sent (replies and notes), served again at their ids.
public struct SentObjects: StoreFacade {
    let store: Store
    public init(_ store: Store) { self.store = store }
}

extension Store {
    public var sentObjects: SentObjects { SentObjects(self) }
}

/// An object the blog wrote that is not a post: a direct note, a quote authorization.
public struct SentObject: Sendable, Equatable {
    public var id: String
    public var type: String
    /// The object as served, `@context` included.
    public var json: String
    /// Who it is addressed to; nil when it is public.
    public var recipients: [String]?
    public var createdAt: Date
    public var deletedAt: Date?

    public init(id: String, type: String, json: String, recipients: [String]?, createdAt: Date, deletedAt: Date? = nil) {
        (self.id, self.type, self.json, self.recipients, self.createdAt, self.deletedAt) = (id, type, json, recipients, createdAt, deletedAt)
    }
}

extension SentObjects {
    /// Keeps an object so that its id answers with it (see `sentObject`).
    public func keepSentObject(_ object: SentObject) throws {
        try write { db in try Self.keepSentObject(db, object) }
    }

    static func keepSentObject(_ db: Database, _ object: SentObject) throws {
        let recipients = try object.recipients.map { String(decoding: try JSONEncoder().encode($0), as: UTF8.self) }
        try db.execute(sql: """
            INSERT OR REPLACE INTO sent_objects (id, type, json, recipients, created_at, deleted_at) VALUES (?, ?, ?, ?, ?, ?)
            """, arguments: [object.id, object.type, object.json, recipients, object.createdAt.timeIntervalSince1970,
                             object.deletedAt?.timeIntervalSince1970])
    }

    public func sentObject(id: String) throws -> SentObject? {
        try read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM sent_objects WHERE id = ?", arguments: [id]).map { row in
                SentObject(id: row["id"], type: row["type"], json: row["json"],
                           recipients: (row["recipients"] as String?).map(Self.recipients),
                           createdAt: Date(timeIntervalSince1970: row["created_at"]),
                           deletedAt: (row["deleted_at"] as Double?).map(Date.init(timeIntervalSince1970:)))
            }
        }
    }

    /// Marks an object deleted: its id answers 410 with a Tombstone from now on.
    @discardableResult
    public func deleteSentObject(id: String, now: Date = Date()) throws -> Bool {
        try write { db in
            try db.execute(sql: "UPDATE sent_objects SET deleted_at = ? WHERE id = ? AND deleted_at IS NULL",
                           arguments: [now.timeIntervalSince1970, id])
            return db.changesCount > 0
        }
    }

    /// The stored recipients; an unreadable list addresses nobody (never everybody: an addressed
    /// note must not turn public because its row was damaged).
    static func recipients(_ json: String) -> [String] {
        (try? JSONDecoder().decode([String].self, from: Data(json.utf8))) ?? []
    }
}
