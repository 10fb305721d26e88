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

/// An object the blog wrote that is not a post: a direct note, a quote authorization. A row of
/// `sent_objects`, its recipients a JSON array.
public struct SentObject: Sendable, Equatable, Codable, UnixTimeRecord {
    public static let databaseTableName = "sent_objects"
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

    enum CodingKeys: String, CodingKey {
        case id, type, json, recipients
        case createdAt = "created_at", deletedAt = "deleted_at"
    }

    public init(from decoder: any Decoder) throws {
        let row = try decoder.container(keyedBy: CodingKeys.self)
        (id, type, json) = (try row.decode(String.self, forKey: .id), try row.decode(String.self, forKey: .type),
                            try row.decode(String.self, forKey: .json))
        (createdAt, deletedAt) = (try row.decode(Date.self, forKey: .createdAt), try row.decodeIfPresent(Date.self, forKey: .deletedAt))
        // Read by hand: an unreadable list addresses nobody (never everybody: an addressed note
        // must not turn public because its row was damaged).
        recipients = try row.decodeIfPresent(String.self, forKey: .recipients).map(SentObjects.recipients)
    }

    public func encode(to encoder: any Encoder) throws {
        var row = encoder.container(keyedBy: CodingKeys.self)
        try row.encode(id, forKey: .id)
        try row.encode(type, forKey: .type)
        try row.encode(json, forKey: .json)
        try row.encode(try recipients.map { String(decoding: try JSONEncoder().encode($0), as: UTF8.self) }, forKey: .recipients)
        try row.encode(createdAt, forKey: .createdAt)
        try row.encode(deletedAt, forKey: .deletedAt)
    }
}

extension SentObjects {
    /// Keeps an object so that its id answers with it (see `sentObject`).
    public func keepSentObject(_ object: SentObject) throws {
        try write { db in try Self.keepSentObject(db, object) }
    }

    static func keepSentObject(_ db: Database, _ object: SentObject) throws {
        try object.insert(db, onConflict: .replace)
    }

    public func sentObject(id: String) throws -> SentObject? {
        try read { db in
            try SentObject.fetchOne(db, key: id)
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

    /// The stored recipients; an unreadable list addresses nobody.
    static func recipients(_ json: String) -> [String] {
        (try? JSONDecoder().decode([String].self, from: Data(json.utf8))) ?? []
    }
}
