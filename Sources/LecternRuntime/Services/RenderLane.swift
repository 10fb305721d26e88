import BlogModel
import Foundation
import Interactions
import Logging
import Site
import Storage
import Synchronization

/// The work behind `RebuildService`, done one job at a time on a thread of its own: builds,
/// reloads, publishing. Keeps a summary of each post's discussion between builds (its count and
/// page fingerprints, never the comments: memory does not grow with the blog's history), so
/// after the inbox changed a few posts only those are read again.
final class RenderLane: Sendable {
    let blog: Blog
    private struct State {
        /// nil until read in full once (a start whose build failed has none).
        var discussions: [String: DiscussionSummary]?
        var nextScheduled: Date?
        /// Drafts whose preview address was logged.
        var draftsSeen = Set<String>()
    }
    private let state = Mutex(State())
    /// The settings the server started with: what `RestartOnlySettings` compares with.
    private let startedWith: SiteConfig
    /// Reloads the preview's files after a preview build (`serve --watch`; nil: no preview kept);
    /// told whether open pages should reload (no: the live site's reload, just after, tells them).
    private let onPreviewChanged: (@Sendable (_ tellPages: Bool) throws -> Void)?

    init(blog: Blog, onPreviewChanged: (@Sendable (Bool) throws -> Void)? = nil) {
        (self.blog, startedWith, self.onPreviewChanged) = (blog, blog.config, onPreviewChanged)
    }

    /// When the next future-dated post is due (it is then built and announced).
    var nextScheduled: Date? { state.withLock { $0.nextScheduled } }

    /// The server's start: build with every discussion, read the posts, tell followers what
    /// changed while it was down, and release deliveries a command held for it.
    func start(onSiteChanged: @Sendable () throws -> Void) throws {
        try perform(RebuildService.Work(allDiscussions: true, settings: false, sources: true), onSiteChanged: onSiteChanged)
    }

    /// Does `work` holding the build lock: no other process builds meanwhile, so the files and
    /// posts read here are a whole build, not half of one.
    func perform(_ work: RebuildService.Work, onSiteChanged: @Sendable () throws -> Void) throws {
        try blog.withBuildLock { try performLocked(work, onSiteChanged: onSiteChanged) }
    }

    private func performLocked(_ work: RebuildService.Work, onSiteChanged: @Sendable () throws -> Void) throws {
        let logger = blog.logger
        if work.settings {
            try blog.reloadSettings()
            let needRestart = RestartOnlySettings.changes(from: startedWith, to: blog.config)
            if needRestart.isEmpty {
                logger.notice("settings and keys read again; all of them apply now")
            } else {
                logger.warning("settings and keys read again; these apply only after a restart (systemctl restart lectern): \(needRestart.joined(separator: ", "))")
            }
        }
        // Posts are synced with the store first: a post that moved takes its comments along, and
        // the pages built next show them at its new path.
        let content = work.settings || work.sources || work.siteSwapped ? try blog.loadContent().content : nil
        let rebuild = work.settings || work.sources || work.allDiscussions || !work.posts.isEmpty
        if rebuild {
            let discussions = try discussions(all: work.settings || work.sources || work.allDiscussions, changed: work.posts)
            let report = try blog.buildLocked(discussions: discussions)
            blog.metrics.build(seconds: report.seconds)
            // A build that wrote and removed nothing serves the same bytes (no tree swapped in, or
            // one of hard links to the last): reading it all again was a fifth of a restart.
            let siteChanged = report.written > 0 || report.removed > 0 || work.siteSwapped
            // The preview first: an open page reloads once, when both are in place.
            if let content, work.settings || work.sources {
                try preview(content, discussions: discussions, tellPages: !siteChanged)
            }
            if siteChanged { try onSiteChanged() }
            for warning in report.warnings { logger.warning("\(warning)") }
            logger.info("rebuilt: \(report.written) files written, \(report.reused) reused in \(Int(report.seconds * 1000)) ms")
        } else if work.siteSwapped {
            try onSiteChanged()
        }
        guard let content else {
            if rebuild { try blog.activityPub.refreshReactions() }
            return
        }
        state.withLock { $0.nextScheduled = content.nextScheduled }
        if work.settings || work.sources {
            let report = try blog.publisher().publish()
            if report.mails > 0 { blog.mailSignal.signal() }
            if !report.isEmpty {
                logger.info("published: \(report.created.count) new, \(report.updated.count) updated, \(report.deleted.count) deleted, \(report.skipped.count) not announced; \(report.deliveries) deliveries queued")
            }
        }
        // Whatever another process built is served now: its held deliveries may go.
        let generation = try blog.store.changes.changeGenerations()[.site, default: 0]
        if try blog.store.changes.releaseHeldDeliveries(upTo: generation) > 0 { blog.deliverySignal.signal() }
    }

    /// Builds the preview beside the live site while there are drafts or posts dated ahead (and
    /// once more after the last, so it shows none); logs where each new draft is seen. A failed
    /// preview is logged and never holds back the live site or its publishing.
    private func preview(_ content: SiteContent, discussions: DiscussionSource, tellPages: Bool) throws {
        guard let onPreviewChanged else { return }
        let exists = FileManager.default.fileExists(atPath: SiteBuilder.previewFolder(root: blog.root).path)
        guard !content.drafts.isEmpty || !content.scheduled.isEmpty || exists else { return }
        let report: BuildReport
        do {
            report = try blog.buildPreviewLocked(discussions: discussions)
        } catch {
            blog.logger.error("the preview of drafts could not be built (the live site is not affected): \(error)")
            return
        }
        let fresh = state.withLock { state in
            defer { state.draftsSeen = Set(content.drafts) }
            return content.drafts.filter { !state.draftsSeen.contains($0) }
        }
        for path in fresh { blog.logger.notice("draft: preview at \(Blog.previewPrefix)\(path) on this server") }
        if report.written > 0 || report.removed > 0 { try onPreviewChanged(tellPages) }
    }

    /// Every post's discussion, summed up again when `all`, else only the `changed` posts'.
    private func discussions(all: Bool, changed: Set<String>) throws -> DiscussionSource {
        let reader = Discussions(comments: blog.store.comments, reactions: blog.store.reactions)
        // In full when asked, and until a read in full succeeded: the changed posts' alone would
        // render every other post without its comments.
        let source: DiscussionSource
        if !all, let known = state.withLock({ $0.discussions }) {
            var summaries = known, read: [String: Discussion] = [:]
            for path in changed {
                let fresh = try reader.discussion(postPath: path)
                summaries[path] = fresh.isEmpty ? nil : DiscussionSummary(fresh)
                read[path] = fresh
            }
            source = DiscussionSource(summaries: summaries, preloaded: read) { try reader.discussion(postPath: $0) }
        } else {
            source = try reader.source()
        }
        state.withLock { $0.discussions = source.summaries }
        return source
    }
}
