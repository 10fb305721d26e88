import BlogModel
import Foundation
import Hummingbird
import Logging
import ServiceLifecycle
import Site
import Storage
import Synchronization

/// `lectern serve` on a disk too full to open the database (SQLite cannot make its shared-memory
/// file, after a reboot say): the site already built in `public/` is served as it is, and
/// everything else (ActivityPub, the inbox, search) answers 503 with `Retry-After`, so other
/// servers try again later and lose nothing. Once the disk has room again the read-only server
/// stops and `lectern serve` opens the blog as usual, in the same process.
public enum ReadOnlyServer {
    /// What the log and every 503 say.
    public static func reason(_ error: any Error) -> String {
        "the disk is full, so the database cannot be opened (\(error)); make room and the blog starts in full"
    }

    /// Serves `root`'s built site until the disk holding `data/` has room again (true) or a
    /// signal stops the server (false). Throws when there is no built site to serve.
    public static func serveUntilRoom(root: URL, host: String, port: Int, why: String, logger: Logger,
                                      onServerRunning: @escaping @Sendable (_ port: Int, _ files: Int) async -> Void) async throws -> Bool {
        let site = try ServedFiles(publicFolder: root.appendingPathComponent("public"))
        guard site.fileCount > 0 else { throw SiteError.io(path: "public/", message: "nothing built to serve (\(why))") }
        let app = LecternServer.makeApplication(site: site, unavailable: why, host: host, port: port, logger: logger) { port in
            await onServerRunning(port, site.fileCount)
        }
        let watcher = RoomWatcher(folder: root.appendingPathComponent("data").path, why: why, logger: logger)
        let group = ServiceGroup(configuration: .init(
            services: [.init(service: app), .init(service: watcher, successTerminationBehavior: .gracefullyShutdownGroup)],
            gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
        try await group.run()
        return watcher.roomReturned.withLock { $0 }
    }

    /// Returns once the disk has a megabyte more than when the database could not be opened
    /// (`FullDiskBackoff`'s measure, checked each second).
    private final class RoomWatcher: Service, Sendable {
        let backoff: FullDiskBackoff
        let why: String
        let roomReturned = Mutex(false)

        init(folder: String, why: String, logger: Logger) {
            backoff = FullDiskBackoff("server", folder: folder, logger: logger)
            self.why = why
        }

        func run() async throws {
            backoff.noRoom(why)
            do {
                while !backoff.roomReturned() {
                    try await cancelWhenGracefulShutdown { try await Task.sleep(for: .seconds(1)) }
                }
            } catch {
                return  // stopped by a signal: the server stops with the group
            }
            roomReturned.withLock { $0 = true }
            backoff.succeeded()
        }
    }
}
