import Foundation
import Interactions
import Site
import Storage

extension Blog {
    /// What `publish` did.
    public struct Publication: Sendable {
        public var build: BuildReport
        public var report: Publisher.Report
        /// True when a running server will send the deliveries once it serves the new pages.
        public var heldForServer: Bool
    }

    /// Builds, syncs the posts with the store and queues Create/Update/Delete for what changed,
    /// in the order that keeps followers from fetching what is not served yet: when a server
    /// runs, the deliveries are held for the site generation this build becomes, and the server
    /// releases them once it serves it (`ChangeKind.site`); when none runs, they are due now.
    @discardableResult
    public func publish(announce: Bool = true, now: Date = Date()) throws -> Publication {
        try withBuildLock {
            // Synced first: a post that moved takes its comments along to the pages built next.
            try loadContent(now: now)
            let build = try buildLocked(discussions: nil)
            let serverRuns = ServerPresence(root: root).isRunning
            let generation = try store.changes.changeGenerations()[.site, default: 0] + 1
            let report = try publisher().publish(announce: announce, heldFor: serverRuns ? generation : nil, now: now)
            try store.changes.recordChange([.site])  // now `generation`: we hold the build lock, nobody else bumps it
            if !serverRuns { deliverySignal.signal() }
            return Publication(build: build, report: report, heldForServer: serverRuns && report.deliveries > 0)
        }
    }

    /// Records the posts from these source files (relative to the site, as `lectern import` wrote
    /// them) as published without announcing them, builds, and tells a running server.
    public func recordWithoutAnnouncing(sources: Set<String>, now: Date = Date()) throws {
        try withBuildLock { try recordLocked(sources: sources, now: now) }
    }

    /// Runs `add` (an import moving its files into the site), then records the posts it returns
    /// as published without announcing them, all under the build lock: no build, a running
    /// server's included, sees the new files before they are recorded (it would announce the
    /// recent ones). The lock is waited for on the calling thread: for commands, not the server.
    public func addWithoutAnnouncing(_ add: () async throws -> Set<String>, now: Date = Date()) async throws {
        let lock = try FileLock(path: dataFolder.appendingPathComponent("build.lock").path)
        _ = try lock.lock(exclusive: true, wait: true)
        defer { lock.unlock() }
        let sources = try await add()
        if !sources.isEmpty { try recordLocked(sources: sources, now: now) }
    }

    private func recordLocked(sources: Set<String>, now: Date) throws {
        let content = try loadContent(now: now).content
        let paths = Set(content.posts.filter { sources.contains($0.sourcePath) }.map(\.path))
        try publisher().publish(quiet: paths, now: now)
        try buildLocked(discussions: nil)
        try store.changes.recordChange([.site])
    }

    /// After a command changed what pages show (moderation, blocks): a running server re-renders
    /// them; without one, they are rendered here and now.
    public func discussionsChanged(_ kinds: Set<ChangeKind> = [.discussions]) throws {
        try changed(kinds)
        if !ServerPresence(root: root).isRunning { try build() }
    }
}
