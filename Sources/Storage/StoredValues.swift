import Foundation
import GRDB

/// Small named values the blog keeps in the `settings` table: its key ring, when it first
/// published, the Bluesky bridge, the account it moved to.
public struct StoredValues: StoreFacade {
    let store: Store
    public init(_ store: Store) { self.store = store }
}

extension Store {
    public var values: StoredValues { StoredValues(self) }
}

/// A row of `settings`.
struct StoredValue: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "settings"
    var key: String
    var value: String
}

extension StoredValues {
    public func setting(_ key: String) throws -> String? {
        try read { db in try StoredValue.fetchOne(db, key: key)?.value }
    }

    /// The value stored under `key`, storing `value` first when there is none: two processes
    /// asking at once get the same answer.
    public func settingOrInsert(_ key: String, _ value: String) throws -> String {
        try write { db in
            try StoredValue(key: key, value: value).insert(db, onConflict: .ignore)
            return try StoredValue.fetchOne(db, key: key)?.value ?? value
        }
    }

    /// Several settings in one transaction (nil deletes one).
    public func setSettings(_ values: [(String, String?)]) throws {
        try write { db in
            for (key, value) in values {
                if let value {
                    try StoredValue(key: key, value: value).upsert(db)
                } else {
                    _ = try StoredValue.deleteOne(db, key: key)
                }
            }
        }
    }

    public func setSetting(_ key: String, _ value: String?) throws { try setSettings([(key, value)]) }
}
