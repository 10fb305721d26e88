import CSQLiteShim
import Dispatch
import Foundation
import GRDB
import Logging
import Synchronization

/// Copies the write-ahead log into the database on a connection and a thread of its own.
/// SQLite checkpoints on the connection whose commit leaves 1,000 pages in the log: for a
/// server, the one writer, which then waits for two syncs of the disk (0.6 ms each on the
/// project disk, now and then 100 ms) while every write queued behind it waits too. Under
/// `bench/inbox` those syncs were the writer's longest waits (`perf record -e sched:sched_switch`).
///
/// A passive checkpoint runs beside the writer without stopping it. If this thread falls far
/// behind (`limit` pages), the writer checkpoints itself, as SQLite would, so the log stays
/// bounded. Durability is unchanged: commits were not synced before either (`synchronous =
/// NORMAL`); the log is synced here, before its pages are copied.
final class Checkpointer: Sendable {
    static let pages: Int32 = 1000
    static let limit: Int32 = 20_000

    private let path: String
    private let configuration: Configuration
    private let queue = DispatchQueue(label: "lectern.checkpoint", qos: .utility)
    /// A commit past the mark since the last checkpoint began.
    private let requested = Atomic<Bool>(false)
    private let running = Atomic<Bool>(false)
    /// The last checkpoint failed for a reason other than another checkpoint: logged once, and
    /// again when checkpoints work again, not at every commit in between.
    private let failing = Atomic<Bool>(false)
    private static let logger = Logger(label: "lectern.store")
    /// Opened at the first checkpoint (a server that writes little never needs it).
    private let connection = Mutex<DatabaseQueue?>(nil)

    init(path: String, configuration: Configuration) {
        self.path = path
        self.configuration = configuration
    }

    /// Makes `db` (the writer) wake this checkpointer instead of checkpointing itself.
    func watch(_ db: Database) throws {
        // The hook holds the checkpointer weakly (it must not keep the store alive); its box,
        // a few bytes per writer connection, lives as long as the process.
        let box = Unmanaged.passRetained(WeakCheckpointer(self)).toOpaque()
        let result = lectern_sqlite_wal_wake(UnsafeMutableRawPointer(db.sqliteConnection), Self.pages, Self.limit, { context in
            guard let context else { return }
            Unmanaged<WeakCheckpointer>.fromOpaque(context).takeUnretainedValue().checkpointer?.logFilled()
        }, box)
        guard ResultCode(rawValue: result) == .SQLITE_OK else {
            Unmanaged<WeakCheckpointer>.fromOpaque(box).release()
            throw DatabaseError(resultCode: ResultCode(rawValue: result))
        }
    }

    /// Called on the writer's thread after a commit that left `pages` or more in the log: only
    /// schedules the work. Commits during a checkpoint ask for one more after it, so the last
    /// pages of a burst are copied too.
    private func logFilled() {
        requested.store(true, ordering: .releasing)
        guard !running.exchange(true, ordering: .acquiringAndReleasing) else { return }
        queue.async { self.checkpointWhileRequested() }
    }

    private func checkpointWhileRequested() {
        repeat {
            while requested.exchange(false, ordering: .acquiringAndReleasing) { checkpoint() }
            running.store(false, ordering: .releasing)
            // A request that came after the last look and found `running` still set is ours.
        } while requested.load(ordering: .acquiring) && !running.exchange(true, ordering: .acquiringAndReleasing)
    }

    private func checkpoint() {
        do {
            let connection = try self.connection.withLock { connection in
                if let connection { return connection }
                let opened = try DatabaseQueue(path: path, configuration: configuration)
                connection = opened
                return opened
            }
            // Passive: copies what no reader still needs, never waits for the writer or readers.
            _ = try connection.writeWithoutTransaction { db in try db.checkpoint(.passive) }
            if failing.exchange(false, ordering: .acquiringAndReleasing) {
                Self.logger.notice("the database's log is copied into it again")
            }
        } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY {
            // Another connection or process checkpoints: the next commit past the mark retries.
        } catch {
            // The writer takes over past `limit` pages, so nothing is lost; the owner should know.
            if !failing.exchange(true, ordering: .acquiringAndReleasing) {
                Self.logger.error("could not copy the database's log into it (the log grows until the writer does): \(error)")
            }
        }
    }

    private final class WeakCheckpointer {
        weak var checkpointer: Checkpointer?
        init(_ checkpointer: Checkpointer) { self.checkpointer = checkpointer }
    }
}
