import Foundation
import Logging
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// How one background loop lives through a full disk: it waits longer after each failed
/// attempt (1 s, doubling to 60 s), instead of trying again at once and logging each time (the
/// inbox worker did ~13 passes a second, a line per activity each); the log says so once a
/// minute, and once more when writing works again. The wait ends early when the disk has room
/// again, so the loop picks up within a second of it.
///
/// ```swift
/// let backoff = FullDiskBackoff("inbox", store: store, logger: logger)
/// do { try work(); backoff.succeeded() } catch where backoff.failed(error) { await backoff.wait() }
/// ```
public final class FullDiskBackoff: Sendable {
    public static let firstDelay: Duration = .seconds(1)
    public static let longestDelay: Duration = .seconds(60)
    /// The log says the disk is still full at most this often.
    public static let logInterval: Duration = .seconds(60)
    /// Freed bytes that count as "room again" (a WAL page, a page of HTML and their metadata).
    static let room: Int64 = 1 << 20

    /// Who waits, as the log names it (`inbox`, `deliveries`, `site`…).
    public let component: String
    /// A folder on the disk that filled: its free space tells when there is room again.
    let folder: String
    let logger: Logger

    private struct Episode {
        var since = ContinuousClock.now
        var attempts = 0
        var delay = FullDiskBackoff.firstDelay
        var lastLogged: ContinuousClock.Instant?
        /// Free bytes when the last attempt failed.
        var freeAtFailure: Int64 = 0
    }
    private let episode = Mutex<Episode?>(nil)

    public init(_ component: String, folder: String, logger: Logger) {
        (self.component, self.folder, self.logger) = (component, folder, logger)
    }

    /// Watching the disk that holds `store`'s database.
    public convenience init(_ component: String, store: Store, logger: Logger) {
        self.init(component, folder: store.databaseFolder, logger: logger)
    }

    /// Whether `error` is the disk being full. If it is, the attempt is counted, the next wait
    /// doubled, and the log told (at most once a minute); if not, nothing changes.
    public func failed(_ error: any Error) -> Bool {
        guard StorageFull.recognizes(error) else { return false }
        noRoom("\(error)")
        return true
    }

    /// An attempt that failed for lack of room, as `why` says (the error was reported elsewhere).
    public func noRoom(_ why: String) {
        let free = freeBytes()
        let line: String? = episode.withLock { episode in
            let now = ContinuousClock.now
            var current = episode ?? Episode()
            current.attempts += 1
            if current.attempts > 1 { current.delay = min(current.delay * 2, Self.longestDelay) }
            current.freeAtFailure = free
            defer { episode = current }
            if let last = current.lastLogged, now - last < Self.logInterval { return nil }
            current.lastLogged = now
            return "disk full: \(component) waits, trying again in \(Self.seconds(current.delay)) s "
                + "(attempts so far: \(current.attempts), over \(Self.seconds(now - current.since)) s): \(why)"
        }
        if let line { logger.error("\(line)") }
    }

    /// After a write worked: says, once, that the disk took writes again.
    public func succeeded() {
        guard let ended = episode.withLock({ episode in defer { episode = nil }; return episode }) else { return }
        logger.notice("disk full no more: \(component) writes again, after \(ended.attempts) attempts over \(Self.seconds(.now - ended.since)) s")
    }

    /// One pass of a loop: runs `body`; when it fails for lack of room, waits (`wait()`) and
    /// returns false, for the loop to try again at once. Any other failure goes to `otherwise`.
    public func pass(_ body: () async throws -> Void, otherwise: (any Error) -> Void) async -> Bool {
        do {
            try await body()
            succeeded()
        } catch where failed(error) {
            await wait()
            return false
        } catch {
            otherwise(error)
        }
        return true
    }

    /// Whether the last attempt failed for lack of room.
    public var isWaiting: Bool { episode.withLock { $0 != nil } }

    /// The wait before the next attempt (zero when the disk is not known to be full).
    public var delay: Duration { episode.withLock { $0?.delay } ?? .zero }

    /// Whether the disk has less than a megabyte left (`room`).
    public var hasNoRoom: Bool { freeBytes() < Self.room }

    /// Whether the disk has gained room since the last failed attempt.
    public func roomReturned() -> Bool {
        guard let before = episode.withLock({ $0?.freeAtFailure }) else { return true }
        return freeBytes() >= before + Self.room
    }

    /// The wait before the next attempt; over early when room returns (checked each second: a
    /// `statvfs`, as cheap as a `stat`) or the task is cancelled.
    public func wait() async {
        let until = ContinuousClock.now + delay
        while ContinuousClock.now < until, !Task.isCancelled, !roomReturned() {
            try? await Task.sleep(for: min(.seconds(1), until - .now))
        }
    }

    /// Bytes this process may still write on the folder's disk (root may use the blocks kept
    /// back for it, as SQLite running as root does).
    func freeBytes() -> Int64 {
        var stats = statvfs()
        guard statvfs(folder, &stats) == 0 else { return 0 }
        let blocks = geteuid() == 0 ? stats.f_bfree : stats.f_bavail
        return Int64(blocks) * Int64(stats.f_frsize)
    }

    static func seconds(_ duration: Duration) -> Int { Int(duration.components.seconds) }
}
