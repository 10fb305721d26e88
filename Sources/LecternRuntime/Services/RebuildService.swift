import BlogModel
import Foundation
import Interactions
import Logging
import ServiceLifecycle
import Site
import Storage
import Synchronization
import UnixSignals

/// Keeps what the server serves in step with every change, made here or by another process:
/// one lane, so two builds never race, working off the cooperative pool.
///
/// It wakes when the inbox changed a discussion, and otherwise every `pollInterval` to look at
/// the store's change generations (`lectern publish`, `build`, `comments`, `blocks`, `keys` bump
/// them), `lectern.yml`'s stat, the sources' stamp (with `watch`) and the clock (scheduled posts).
/// SIGHUP forces a full reload. Each kind of change costs only what it needs:
///
/// | change | work |
/// |---|---|
/// | comments arrived (inbox) | render the posts whose discussion changed, paced under load |
/// | `.discussions`, `.blocks` | render with every discussion read again |
/// | `.site` | reload the files and Articles another process built; release held deliveries |
/// | `.keys`, `lectern.yml`, SIGHUP | read settings and keys again, rebuild, publish |
/// | sources (`--watch`), a scheduled post's time | rebuild, publish |
public struct RebuildService: Service {
    public let blog: Blog
    public let watch: Bool
    /// Reloads the served files after `public/` changed (the server's `ServedFiles.reload`).
    public let onSiteChanged: @Sendable () throws -> Void
    /// Told why a change could not be applied (a build error), while the previous site stays.
    public let onFailure: @Sendable (String) -> Void
    /// Posts whose discussion the inbox changed; signal `wake` after adding.
    public let changedPosts = ChangedPosts()
    public let wake = QueueSignal()
    public var pollInterval: Duration = .milliseconds(250)
    let lane: RenderLane

    /// `onPreviewChanged` (with `watch`, beside a live site): the lane keeps a preview of the
    /// drafts in `preview/` and calls it after each preview build that changed something.
    public init(blog: Blog, watch: Bool, onFailure: @escaping @Sendable (String) -> Void = { _ in },
                onPreviewChanged: (@Sendable (_ tellPages: Bool) throws -> Void)? = nil,
                onSiteChanged: @escaping @Sendable () throws -> Void) {
        self.blog = blog
        self.watch = watch
        self.onFailure = onFailure
        self.onSiteChanged = onSiteChanged
        lane = RenderLane(blog: blog, onPreviewChanged: watch && !blog.options.isPreview ? onPreviewChanged : nil)
    }

    /// Before the server listens: builds with every discussion, reads the posts, tells followers
    /// what changed while it was down, releases deliveries a command held for it. It never
    /// serves a half-built site.
    ///
    /// When that fails and `previousSite` (a whole site from an earlier build) is there, it is
    /// served meanwhile and the loop tries again, later and later: a server restarted on a full
    /// disk, or after a broken file was pushed, keeps the blog up and says why in the log.
    /// Without one, the error stops the start.
    public func start(previousSite: Bool = false) throws {
        do {
            try lane.start(onSiteChanged: onSiteChanged)
        } catch where previousSite {
            blog.logger.error("could not build at start, serving the previous site (trying again in 2 s): \(error)")
            onFailure("\(error)")
            startFailure.set("\(error)")
        }
    }

    /// Why the start's work (build, publish) is not done yet, while the previous site is served;
    /// nil once a build from the sources succeeded. Until then the posts' ActivityPub documents
    /// may be missing (their sources could not be read), so `/healthz` reports it.
    public var degraded: String? { startFailure.value }
    let startFailure = StartFailure()

    final class StartFailure: Sendable {
        private let error = Mutex<String?>(nil)
        var value: String? { error.withLock { $0 } }
        func set(_ text: String?) { error.withLock { $0 = text } }
    }

    /// Does now, on the calling thread, what the loop does when it notices the sources changed
    /// (rebuild and publish) or the discussions changed (render them all again).
    public func refresh(sources: Bool = false, discussions: Bool = false) throws {
        try lane.perform(Work(allDiscussions: discussions, sources: sources), onSiteChanged: onSiteChanged)
    }

    /// A set shared with the inbox worker's callback.
    public final class ChangedPosts: Sendable {
        private let paths = Mutex<Set<String>>([])
        public func add(_ changed: Set<String>) { paths.withLock { $0.formUnion(changed) } }
        func take() -> Set<String> { paths.withLock { paths in defer { paths.removeAll() }; return paths } }
    }

    /// Set by SIGHUP, taken by the loop.
    final class Flag: Sendable {
        private let raised = Mutex(false)
        func raise() { raised.withLock { $0 = true } }
        func take() -> Bool { raised.withLock { value in defer { value = false }; return value } }
    }

    public func run() async throws {
        let hangups = Flag()
        let wake = wake
        await cancelWhenGracefulShutdown {
            await withTaskGroup(of: Void.self) { group in
                group.addTask {
                    for await _ in await UnixSignalsSequence(trapping: .sighup) {
                        hangups.raise()
                        wake.signal()
                    }
                }
                group.addTask { await self.loop(hangups: hangups) }
                await group.next()
                group.cancelAll()
            }
        }
    }

    /// What one turn of the loop found to do.
    struct Work {
        var posts = Set<String>()
        var allDiscussions = false
        var siteSwapped = false
        var settings = false
        var sources = false
        var isEmpty: Bool { posts.isEmpty && !allDiscussions && !siteSwapped && !settings && !sources }

        mutating func merge(_ other: Work) {
            posts.formUnion(other.posts)
            allDiscussions = allDiscussions || other.allDiscussions
            siteSwapped = siteSwapped || other.siteSwapped
            settings = settings || other.settings
            sources = sources || other.sources
        }
    }

    func loop(hangups: Flag) async {
        let logger = blog.logger
        var known: [ChangeKind: Int] = [:]
        do { known = try blog.store.changes.changeGenerations() } catch { logger.error("reading the store's change log failed: \(error)") }
        // An unlistable `content/` is logged once (until it is listable again), not every poll.
        var stampFailed = false
        func sourceStamp() -> ContentHash? {
            do {
                let stamp = try SourceStamp.of(blog.root)
                stampFailed = false
                return stamp
            } catch {
                if !stampFailed { logger.error("watching the sources failed: \(error)") }
                stampFailed = true
                return nil
            }
        }
        var stamp = watch ? sourceStamp() ?? ContentHash() : ContentHash()
        let lane = lane
        // Work that failed is tried again, later and later, until it succeeds or more comes.
        var carried = Work()
        var retryAt: ContinuousClock.Instant?
        var retryDelay = Duration.seconds(2)
        if startFailure.value != nil {
            carried = Work(allDiscussions: true, settings: false, sources: true)
            retryAt = .now + retryDelay
            retryDelay *= 2
        }
        // A full disk is said once a minute, and the work is tried again as soon as there is room.
        let fullDisk = FullDiskBackoff("site", folder: blog.store.databaseFolder, logger: logger)
        var lastCommentBuild = Duration.zero
        var lastCommentBuildEnded = ContinuousClock.now - .seconds(60)
        while !Task.isCancelled {
            let woken = await wake.wait(upTo: pollInterval)
            guard !Task.isCancelled else { return }
            var work = Work()
            if woken { work.posts = changedPosts.take() }
            if let due = retryAt, ContinuousClock.now >= due || (fullDisk.isWaiting && fullDisk.roomReturned()) {
                work.merge(carried)
                carried = Work()
                retryAt = nil
            }
            do {
                let generations = try blog.store.changes.changeGenerations()
                let changed = Set(generations.keys.filter { generations[$0] != known[$0] })
                known = generations
                // Another process published: its newsletter mails may be queued now.
                if changed.contains(.site) { work.siteSwapped = true; blog.mailSignal.signal() }
                if changed.contains(.discussions) || changed.contains(.blocks) { work.allDiscussions = true }
                if changed.contains(.keys) { work.settings = true }
                if changed.contains(.deliveries) { blog.deliverySignal.signal() }
            } catch {
                logger.error("reading the store's change log failed: \(error)")
            }
            if hangups.take() {
                logger.notice("SIGHUP: reloading settings, keys, sources and discussions")
                work.settings = true
                work.sources = true
                work.allDiscussions = true
            }
            if blog.settingsChanged { work.settings = true }
            if watch {
                if let now = sourceStamp(), now != stamp { stamp = now; work.sources = true }
            }
            if let due = lane.nextScheduled, due <= Date() { work.sources = true }
            guard !work.isEmpty else { continue }
            // A burst (a thread of replies) settles into one build; under a sustained stream of
            // comments (the last comment build ended moments ago), builds are paced to three times
            // their duration, leaving the inbox the rest.
            let commentsOnly = !work.posts.isEmpty && !work.sources && !work.settings && !work.allDiscussions && !work.siteSwapped
            if commentsOnly {
                let streaming = ContinuousClock.now - lastCommentBuildEnded < .seconds(2)
                // Capped: a comment shows within about a second of the previous build, however slow builds are.
                let pace = streaming ? min(max(.milliseconds(250), lastCommentBuild * 3), .seconds(1)) : .milliseconds(250)
                try? await Task.sleep(for: pace)
                work.posts.formUnion(changedPosts.take())
            }
            let started = ContinuousClock.now
            let job = work
            do {
                try await OffPool.run { try lane.perform(job, onSiteChanged: onSiteChanged) }
                // Work that failed earlier and waits for its retry is still owed: a comment's
                // render succeeding meanwhile does not do it.
                if carried.isEmpty {
                    retryAt = nil
                    retryDelay = .seconds(2)
                }
                // A rebuild from the sources, or after a settings change, does all the start did.
                if job.sources || job.settings { startFailure.set(nil) }
                fullDisk.succeeded()
            } catch {
                // The previous site stays live; the writer sees what to fix; it is tried again.
                if !fullDisk.failed(error) {
                    logger.error("could not apply a change, still serving the previous site (trying again in \(retryDelay)): \(error)")
                }
                onFailure("\(error)")
                carried.merge(job)
                retryAt = ContinuousClock.now + (fullDisk.isWaiting ? fullDisk.delay : retryDelay)
                retryDelay = min(retryDelay * 2, .seconds(60))
            }
            if commentsOnly {
                lastCommentBuild = ContinuousClock.now - started
                lastCommentBuildEnded = ContinuousClock.now
            }
        }
    }
}
