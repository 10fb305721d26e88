import CSQLiteShim
import Foundation
import GRDB
import LecternMigrations

/// Lectern's state in SQLite (through GRDB): the only module that speaks SQL.
///
/// ```swift
/// let store = try Store(path: site.appendingPathComponent("data/lectern.sqlite").path)
/// let posts = try store.posts.publishedPosts()
/// ```
/// Opening applies any migration not applied yet. The database runs in WAL mode with foreign
/// keys on and a busy timeout, so the server and a CLI command can use it at the same time.
public final class Store: Sendable {
    let database: any DatabaseWriter
    /// Activities the inbox accepts at once share a transaction (see `enqueueInbound`).
    let inbound = GroupCommit<InboxQueue.InboundWrite, InboxQueue.InboundResult>(InboxQueue.insertInbound)

    /// How a process connects to the database.
    public enum Connections: Sendable {
        /// A writer and readers beside it (GRDB's pool): reads never wait for a write. For a server
        /// and for commands that read and write from several threads at once (deliveries).
        case pool
        /// One connection for reads and writes alike. For a short command that uses the database
        /// a few times, one thing at a time (`lectern build`): the pool opens a second connection
        /// for the first read, which reads the schema again, and its set-up asks Foundation for
        /// the log's size, which looks up the file owner's name (with the actor's date read by
        /// `stat`, a one-post rebuild went from 36.2 to 34.1 ms, `bench/ab-build`).
        case single
    }

    /// Opens (creating if needed) the database file and migrates it. A write waits at most
    /// `busyTimeout` seconds for another process's lock before failing with `StoreError.busy`.
    public convenience init(path: String, busyTimeout: TimeInterval = 5, connections: Connections = .pool) throws {
        try FileManager.default.createDirectory(at: URL(fileURLWithPath: path).deletingLastPathComponent(),
                                                withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        // Created private (SQLite would make it 0644, and its -wal and -shm files after it).
        if !FileManager.default.fileExists(atPath: path) {
            _ = FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o600])
        }
        let database: any DatabaseWriter
        do {
            switch connections {
            case .pool:
                // The writer leaves checkpoints to a thread of their own (see `Checkpointer`).
                let checkpointer = Checkpointer(path: path, configuration: Self.configuration(busyTimeout: busyTimeout))
                var configuration = Self.configuration(busyTimeout: busyTimeout)
                configuration.prepareDatabase { db in
                    guard !db.configuration.readonly else { return }
                    try checkpointer.watch(db)
                    // A burst grows the log (the checkpointer cannot catch up while the writer
                    // appends); once copied and reused, it is cut back to this size.
                    try db.execute(sql: "PRAGMA journal_size_limit = \(64 << 20)")
                }
                database = try DatabasePool(path: path, configuration: configuration)
            case .single:
                let queue = try DatabaseQueue(path: path, configuration: Self.configuration(busyTimeout: busyTimeout))
                // What the pool sets up: the log, which lets a server read while this writes.
                let mode = try queue.writeWithoutTransaction { db in
                    // The first process to open the database reads the whole log back (SQLite's
                    // recovery: 2,400 instructions and a read per page); a command that commits
                    // copies it into the database once it reaches 100 pages, not SQLite's 1,000.
                    // A one-post rebuild adds 15.
                    try db.execute(sql: "PRAGMA wal_autocheckpoint = 100")
                    return try String.fetchOne(db, sql: "PRAGMA journal_mode = WAL")
                }
                guard mode == "wal" else { throw DatabaseError(message: "could not switch to WAL mode (journal mode: \(mode ?? "none"))") }
                database = queue
            }
        } catch {
            throw StoreError.cannotOpen(path: path, reason: "\(error)")
        }
        try self.init(database: database)
    }

    /// Whether a read waits for a write in progress (one connection, `.single`): a read made
    /// while this process holds a write transaction would wait for itself.
    /// The folder that holds the database (what `FullDiskBackoff` watches).
    public var databaseFolder: String { URL(fileURLWithPath: database.path).deletingLastPathComponent().path }

    public var readsWaitForWrites: Bool { !(database is DatabasePool) }

    /// A private in-memory database, for tests and dry runs.
    public static func inMemory() throws -> Store {
        try Store(database: DatabaseQueue(configuration: configuration()))
    }

    init(database: any DatabaseWriter, migrations: [(name: String, sql: String)] = Migrations.all) throws {
        self.database = database
        try Self.migrate(database, migrations)
    }

    static func configuration(busyTimeout: TimeInterval = 5) -> Configuration {
        var configuration = Configuration()
        configuration.foreignKeysEnabled = true
        configuration.busyMode = .timeout(busyTimeout)
        configuration.prepareDatabase { db in
            // In WAL mode NORMAL survives any process crash (kill -9 included); only a power loss
            // can drop the last commits. FULL would fsync every delivery's outcome.
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
            // The last connection to close would copy the log into the database and delete it
            // (two syncs), and the next process would sync a new log's header: three syncs per
            // `lectern` command, 0.6 ms each on this disk and now and then 100 ms (`strace -T`
            // of a one-post rebuild). The log stays instead, checkpointed as it grows (every
            // 1,000 pages; by `Checkpointer` for a pool); a restore removes a stale one (SiteBackup).
            let result = ResultCode(rawValue: lectern_sqlite_no_checkpoint_on_close(UnsafeMutableRawPointer(db.sqliteConnection)))
            guard result == .SQLITE_OK else { throw DatabaseError(resultCode: result) }
        }
        configuration.label = "lectern"
        return configuration
    }

    /// Applies, in order, each migration not yet recorded. Each runs in its own transaction,
    /// so a failing file leaves the database as it was before that file.
    static func migrate(_ database: any DatabaseWriter, _ migrations: [(name: String, sql: String)]) throws {
        var migrator = DatabaseMigrator()
        for migration in migrations {
            migrator.registerMigration(migration.name) { db in
                do {
                    try db.execute(sql: migration.sql)
                } catch {
                    throw StoreError.migrationFailed(file: migration.name, reason: "\(error)")
                }
            }
        }
        do {
            try migrator.migrate(database)
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError.migrationFailed(file: "(migrations)", reason: "\(error)")
        }
    }

    /// Names of the migrations applied so far, in order (`lectern migrate` prints them).
    public func appliedMigrations() throws -> [String] {
        try read { db in try Self.appliedMigrations(db) }
    }

    /// GRDB records applied migrations in `grdb_migrations` (its own `appliedMigrations` only
    /// reports those registered in the asking migrator).
    static func appliedMigrations(_ db: Database) throws -> [String] {
        guard try db.tableExists("grdb_migrations") else { return [] }
        return try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations ORDER BY rowid")
    }

    /// The journal mode in force (`wal` for files; `memory` for in-memory databases).
    public func journalMode() throws -> String {
        try read { db in try String.fetchOne(db, sql: "PRAGMA journal_mode") ?? "" }
    }
}
