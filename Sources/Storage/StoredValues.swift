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

extension StoredValues {
    public func setting(_ key: String) throws -> String? {
        try read { db in try String.fetchOne(db, sql: "SELECT value FROM settings WHERE key = ?", arguments: [key]) }
    }

    /// The value stored under `key`, storing `value` first when there is none: two processes
    /// asking at once get the same answer.
    public func settingOrInsert(_ key: String, _ value: String) throws -> String {
        try write { db in
            try db.execute(sql: "INSERT OR IGNORE INTO settings (key, value) VALUES (?, ?)", arguments: [key, value])
            return try String.fetchOne(db, sql: "SELECT value FROM settings WHERE key = ?", arguments: [key]) ?? value
        }
    }

    /// Several settings in one transaction (nil deletes one).
    public func setSettings(_ values: [(String, String?)]) throws {
        try write { db in
            for (key, value) in values {
                if let value {
                    try db.execute(sql: "INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                                   arguments: [key, value])
                } else {
                    try db.execute(sql: "DELETE FROM settings WHERE key = ?", arguments: [key])
                }
            }
        }
    }

    public func setSetting(_ key: String, _ value: String?) throws { try setSettings([(key, value)]) }
}
