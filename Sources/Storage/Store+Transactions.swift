import GRDB
import Logging

/// Transactions whose `BEGIN` and `COMMIT` are compiled once per connection. GRDB's `read` and
/// `write` compile both for every call, and with the statements run through `execute(sql:)` an
/// activity in the inbox cost 24 compilations (`perf probe` on `sqlite3_prepare_v3` during
/// `bench/inbox`): SQLite's parser and GRDB's authorizer, called back for every column, were a
/// fifth of the server's time. The statements an activity runs come from the connection's
/// cache too (`Database.cachedStatement`).
extension Store {
    /// A read transaction: its statements see one snapshot.
    func read<T>(_ body: (Database) throws -> T) throws -> T {
        try database.unsafeRead { db in try Self.transaction(db, begin: "BEGIN DEFERRED TRANSACTION", body) }
    }

    /// A write transaction, waiting for the writer (and for another process's lock, up to the
    /// busy timeout).
    func write<T>(_ body: (Database) throws -> T) throws -> T {
        try database.writeWithoutTransaction { db in try Self.transaction(db, begin: "BEGIN IMMEDIATE TRANSACTION", body) }
    }

    /// The same without holding the caller's thread: the caller suspends while GRDB's writer (a
    /// serial queue of its own) does the work, so a slow commit or another process's lock never
    /// blocks Swift's cooperative pool. A lock held past the busy timeout throws
    /// `StoreError.busy` (the inbox answers 503, the sender retries).
    ///
    /// A write asked for is done even if the caller's task is cancelled, as a synchronous one
    /// would be: GRDB's async access gives up when the task is cancelled, and at shutdown the
    /// inbox worker would then leave a batch it had applied unrecorded, to apply it again.
    func writeAsync<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        do {
            return try await Task {
                try await database.writeWithoutTransaction { db in
                    try Self.transaction(db, begin: "BEGIN IMMEDIATE TRANSACTION", body)
                }
            }.value
        } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY || error.resultCode == .SQLITE_LOCKED {
            throw StoreError.busy
        }
    }

    /// `body` between `begin` and `COMMIT`; rolled back when it throws (or the commit fails).
    /// A write that failed for lack of room throws `StoreError.full`, wherever it failed.
    private static func transaction<T>(_ db: Database, begin: String, _ body: (Database) throws -> T) throws -> T {
        do { try db.cachedStatement(sql: begin).execute() } catch { throw StorageFull.translate(error, on: db) }
        do {
            let value = try body(db)
            try db.cachedStatement(sql: "COMMIT TRANSACTION").execute()
            return value
        } catch {
            // Read before the rollback, which makes system calls of its own.
            let translated = StorageFull.translate(error, on: db)
            // SQLite may have rolled back already (a full disk, an interrupt): nothing to end then.
            // The body's error is the one the caller gets; a failed rollback is logged beside it.
            if db.isInsideTransaction {
                do { try db.cachedStatement(sql: "ROLLBACK TRANSACTION").execute() } catch let rollback {
                    Logger(label: "lectern.store").error("could not roll back after \(error): \(rollback)")
                }
            }
            throw translated
        }
    }
}

/// One table's (or one queue's) view of the store: what the modules above take instead of the
/// whole `Store`, so each says which part of the state it touches. Facades share the store's
/// connections and its transactions.
protocol StoreFacade: Sendable {
    var store: Store { get }
}

extension StoreFacade {
    var database: any DatabaseWriter { store.database }

    func read<T>(_ body: (Database) throws -> T) throws -> T { try store.read(body) }

    func write<T>(_ body: (Database) throws -> T) throws -> T { try store.write(body) }

    func writeAsync<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await store.writeAsync(body)
    }
}
