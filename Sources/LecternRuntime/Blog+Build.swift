import BlogModel
import Foundation
import Interactions
import Site
import Storage

extension Blog {
    /// Builds the site into `public/` (only what changed) with the comments the store has, under
    /// the build lock every process shares, so two builds never race on `public/`.
    /// `discussions` overrides what is read from the store (the server keeps them between builds);
    /// `sources`, started before the blog was opened, saves walking them again.
    @discardableResult
    public func build(discussions: DiscussionSource? = nil, outputFolder: URL? = nil, sources: SourceWalk? = nil) throws -> BuildReport {
        try withBuildLock { try buildLocked(discussions: discussions, outputFolder: outputFolder, sources: sources) }
    }

    @discardableResult
    func buildLocked(discussions: DiscussionSource?, outputFolder: URL? = nil, sources: SourceWalk? = nil,
                     now: Date = Date()) throws -> BuildReport {
        // The common case of `lectern build` with nothing changed: decided from stats and a few
        // rows, without reading the posts, the comments or the last build's caches.
        let live = outputFolder == nil && discussions == nil
        var trace = PhaseTrace()
        let inputs = live ? try BuildInputs.current(blog: self, now: now, walked: sources) : nil
        if let inputs, let last = BuildInputs.load(from: builder.publicFolder),
           last.isCurrent(fingerprint: inputs.fingerprint, output: builder.buildStamp(), now: now) {
            trace.mark("sources unchanged")
            return BuildReport(written: 0, reused: last.files, pages: 0, removed: 0, seconds: 0)
        }
        // The walk, done while the blog opened, started reading the parse cache if the sources
        // changed; otherwise it is read now, while the comments, configuration and theme load.
        let cacheRead = inputs.map { $0.cacheRead ?? builder.readingCache(timeZone: config.timeZone) }
        trace.mark("source stamp")
        let shown = try discussions ?? Discussions(comments: store.comments, reactions: store.reactions).source()
        trace.mark("discussions")
        // The search index follows the live site, not a build elsewhere (a backup's check): it is
        // updated while the pages render, and committed once they are in place.
        var indexSearch: SiteBuilder.Options.AlongsidePublishing?
        if outputFolder == nil && !options.isPreview { indexSearch = { [self] posts, published in try updateSearchIndex(posts, beforeCommit: published) } }
        var buildOptions = SiteBuilder.Options(includeDrafts: options.includeDrafts, includeFuture: options.includeFuture,
                                               outputFolder: outputFolder, discussions: shown,
                                               contentTree: inputs?.content, alongsidePublishing: indexSearch,
                                               cacheRead: cacheRead)
        buildOptions.blogroll = try blogroll()
        var report = try builder.build(buildOptions)
        trace.mark("build and search index")
        if let inputs {
            do {
                try BuildInputs(fingerprint: inputs.fingerprint, sources: inputs.sources, output: builder.buildStamp(),
                                nextScheduled: report.scheduled.first, files: report.written + report.reused).save(in: builder.publicFolder)
            } catch {
                logger.warning("could not record this build's inputs (the next build will look at every source): \(error)")
            }
        }
        trace.mark("record inputs")
        report.seconds = Date().timeIntervalSince(now)
        return report
    }

    /// Where `serve --watch` answers the preview: a draft at `/2025/06/my-draft/` previews at
    /// `/_lectern/preview/2025/06/my-draft/` (a prefix no content can take).
    public static let previewPrefix = "/_lectern/preview"

    /// Builds the preview (drafts and posts dated ahead) into `preview/` beside the live site,
    /// as `serve --watch` keeps it while the writer works; never `public/`, nothing announced.
    /// The caller holds the build lock.
    @discardableResult
    func buildPreviewLocked(discussions: DiscussionSource) throws -> BuildReport {
        try SiteBuilder.makePreviewFolder(root: root)
        var options = SiteBuilder.Options(includeDrafts: true, includeFuture: true, discussions: discussions)
        options.blogroll = try blogroll()
        return try SiteBuilder(root: root, publicFolder: SiteBuilder.previewFolder(root: root)).build(options)
    }

    /// Reads `content/` into the ActivityPub documents and syncs the posts with the store
    /// (new ids, moved posts, removals). Returns what changed and the content read.
    @discardableResult
    public func loadContent(now: Date = Date()) throws -> (sync: PostSync, content: SiteContent) {
        let content = try ContentLoader(root: root, timeZone: config.timeZone)
            .load(includeDrafts: options.includeDrafts, includeFuture: options.includeFuture, now: now)
        // Federation sees only what is published, whatever a preview builds: a draft or a post
        // dated ahead is never recorded, announced or served as an Article.
        var published = content
        published.posts = content.posts.filter { !$0.draft && $0.date <= now }
        return (try activityPub.reload(content: published, now: now), content)
    }

    /// Runs `body` holding `data/build.lock` (an advisory lock: another process's build waits).
    public func withBuildLock<T>(_ body: () throws -> T) throws -> T {
        let lock = try FileLock(path: dataFolder.appendingPathComponent("build.lock").path)
        try lock.lock(exclusive: true, wait: true)
        defer { lock.unlock() }
        return try body()
    }
}
