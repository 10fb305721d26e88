import Foundation
import GRDB
import LecternMigrations

extension Store {
    /// Copies the database to `path` with SQLite's online backup API: a consistent snapshot
    /// even while the server writes (readers and writers go on meanwhile), then checks the copy.
    public func backup(to path: String) throws {
        let copy = try DatabaseQueue(path: path)
        try database.backup(to: copy)
        try copy.close()
        try Self.checkIntegrity(path: path)
    }

    /// `PRAGMA integrity_check` of the database file at `path`, without migrating it; throws
    /// `StoreError.damaged` unless SQLite answers "ok".
    public static func checkIntegrity(path: String) throws {
        var configuration = Configuration()
        configuration.readonly = true
        let queue = try DatabaseQueue(path: path, configuration: configuration)
        let answers = try queue.read { db in try String.fetchAll(db, sql: "PRAGMA integrity_check") }
        try queue.close()
        guard answers == ["ok"] else { throw StoreError.damaged(path: path, reason: answers.prefix(5).joined(separator: "; ")) }
    }

    /// `PRAGMA integrity_check` of this store's database.
    public func integrityProblems() throws -> [String] {
        let answers = try read { db in try String.fetchAll(db, sql: "PRAGMA integrity_check") }
        return answers == ["ok"] ? [] : answers
    }
}

extension Store {
    /// Every migration this build knows, in order.
    public static var migrationNames: [String] { Migrations.all.map(\.name) }

    /// Migrations this build would apply to the database at `path`, read without changing it
    /// (`lectern doctor`); all of them when the file does not exist yet.
    public static func pendingMigrations(path: String) throws -> [String] {
        guard FileManager.default.fileExists(atPath: path) else { return migrationNames }
        var configuration = Configuration()
        configuration.readonly = true
        let queue = try DatabaseQueue(path: path, configuration: configuration)
        defer { try? queue.close() }
        let applied = Set(try queue.read { db in try appliedMigrations(db) })
        return migrationNames.filter { !applied.contains($0) }
    }
}
