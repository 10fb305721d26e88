import BlogModel
import Foundation
import Parallel

/// Builds a site folder (`lectern.yml`, `content/`, `theme/`, `static/`) into `public/`.
///
/// ```swift
/// let report = try SiteBuilder(root: siteURL).build()
/// print("\(report.written) files written, \(report.reused) reused")
/// ```
public struct SiteBuilder: Sendable {
    public struct Options: Sendable {
        public var includeDrafts: Bool
        /// Build posts dated in the future too (a preview); normally they wait for their date.
        public var includeFuture: Bool
        /// Where the output goes; `<root>/public` when nil.
        public var outputFolder: URL?
        /// Comments and reactions by post path, shown under each post (the server supplies them).
        public var discussions: DiscussionSource
        /// `content/` as the caller just walked it (to stamp the sources); walked again when nil.
        public var contentTree: ContentTree?
        /// Work that follows the posts built (the search index): run on a thread of its own from
        /// the moment the posts are loaded, beside the rendering. `published` waits until the
        /// rendered files are in place and throws if they could not be (or did not render): call
        /// it before committing. Its error fails the build once the files and the parse cache are saved.
        public var alongsidePublishing: AlongsidePublishing?
        public typealias AlongsidePublishing = @Sendable (_ posts: [Post], _ published: () throws -> Void) throws -> Void
        /// The parse cache as `readingCache` started reading it; read here when nil.
        public var cacheRead: CacheRead?
        /// The accounts the blog follows, for the blogroll page (built only when it is on).
        public var blogroll: [BlogrollEntry] = []

        public init(includeDrafts: Bool = false, includeFuture: Bool = false, outputFolder: URL? = nil,
                    discussions: DiscussionSource = .none, contentTree: ContentTree? = nil,
                    alongsidePublishing: AlongsidePublishing? = nil, cacheRead: CacheRead? = nil) {
            self.includeDrafts = includeDrafts
            self.includeFuture = includeFuture
            self.outputFolder = outputFolder
            self.discussions = discussions
            self.contentTree = contentTree
            self.alongsidePublishing = alongsidePublishing
            self.cacheRead = cacheRead
        }
    }

    public let root: URL
    /// Where builds go unless told otherwise: `public/`, or `preview/` for a preview.
    public let publicFolder: URL

    public init(root: URL, publicFolder: URL? = nil) {
        self.root = root.standardizedFileURL
        self.publicFolder = publicFolder ?? self.root.appendingPathComponent("public")
    }

    /// Where a preview (drafts, future posts) is built and served from: never `public/`, which
    /// the live site serves.
    public static func previewFolder(root: URL) -> URL { root.standardizedFileURL.appendingPathComponent("preview") }

    /// `preview/` made the owner's alone (0700) before its first build: it shows drafts, and the
    /// web server's group reads only `public/`. Later builds keep the mode (`OutputWriter`).
    public static func makePreviewFolder(root: URL) throws {
        let folder = previewFolder(root: root)
        guard !FileManager.default.fileExists(atPath: folder.path) else { return }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: SiteScaffold.privateFolderMode])
    }

    /// Loads, checks and renders everything, then swaps the result in. On error nothing in the
    /// output folder changes.
    @discardableResult
    public func build(_ options: Options = Options()) throws -> BuildReport {
        let start = DispatchTime.now()
        var trace = PhaseTrace()
        try SiteFolders.checkContained(root: root)
        let output = options.outputFolder ?? publicFolder
        let previousOutput = Background("lectern-survey") { PreviousOutput.survey(output, records: BuildRecords(outputFolder: output)) }
        let configURL = root.appendingPathComponent(SiteConfig.fileName)
        let configText = (try? String(contentsOf: configURL, encoding: .utf8)) ?? ""
        let config = try SiteConfig.load(from: root)
        let theme = try Theme.load(overrideFolder: root.appendingPathComponent("theme"))
        trace.mark("config and theme")
        var cache = options.cacheRead.flatMap { $0.folder == output ? $0.cache.value.fitting(config.timeZone) : nil }
            ?? PostCache.load(records: BuildRecords(outputFolder: output), timeZone: config.timeZone)
        let previousCache = cache
        trace.mark("post cache")
        let loader = ContentLoader(root: root, timeZone: config.timeZone)
        let content = try loader.load(includeDrafts: options.includeDrafts, includeFuture: options.includeFuture, cache: &cache,
                                      tree: options.contentTree)
        trace.mark("content")
        // Started now, not once the pages are in place: a new site's first build indexes every
        // post (~0.2 s of 1,000), which then came after the rendering instead of beside it.
        let pagesInPlace = Eventual<Result<Void, any Error>>()
        let alongside = options.alongsidePublishing.map { work in
            Background("lectern-beside") { [posts = content.posts] in Result { try work(posts) { try pagesInPlace.value.get() } } }
        }
        // A file that vanishes between loading and rendering gets an empty body this once; the next
        // build sees it gone.
        let model = SiteModel(config: config, content: content, discussions: options.discussions, root: root,
                              excerpts: cache.excerpts) {
            (try? loader.body(of: $0)) ?? ""
        }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = config.timeZone
        var plan = SitePlan(model: model, theme: theme, configText: configText, includeDrafts: options.includeDrafts,
                            year: calendar.component(.year, from: Date()))
        plan.blogroll = options.blogroll
        var told = false
        let result: OutputWriter.Result
        do {
            let files = try plan.files()
            trace.mark("plan")
            result = try OutputWriter(publicFolder: output).write(files, previous: previousOutput.value) { published in
                told = true
                pagesInPlace.provide(Result { try published() })
            }
        } catch {
            // Nothing was served: the work alongside hears so (and commits nothing) before the build fails.
            if !told { pagesInPlace.provide(.failure(error)) }
            _ = alongside?.value
            throw error
        }
        trace.mark("write")
        cache.add(excerpts: model.rendered.renderedExcerpts())
        var cacheWarnings: [String] = []
        if cache.isWorthSaving(comparedTo: previousCache, sourcesRead: content.sourcesRead) {
            // A cache made afresh serves the next builds: every post's excerpt goes in, rendered
            // now if this build did not need it (the first build after an upgrade reuses every page).
            if previousCache.posts.isEmpty { cache.add(excerpts: model.rendered.allExcerpts()) }
            // The site is built; without the cache the next build only parses and renders more.
            do { try cache.save(records: BuildRecords(outputFolder: output)) } catch {
                cacheWarnings.append("could not save the parse cache (the next build reads every post): \(error.localizedDescription)")
            }
        }
        trace.mark("save cache")
        try alongside?.value.get()
        trace.mark("work alongside")
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
        return BuildReport(written: result.written, reused: result.reused, pages: result.pages, removed: result.removed,
                           seconds: seconds, warnings: content.warnings + model.renderWarnings.withLock { $0 }.sorted() + cacheWarnings,
                           scheduled: content.scheduled.map(\.date), posts: content.posts)
    }
}

extension SiteBuilder {
    /// The last build's parse cache, being read on a thread of its own.
    public struct CacheRead: Sendable {
        fileprivate let folder: URL
        let cache: Background<PostCache>
    }

    /// Starts reading the parse cache of `public/` for a build that may follow: decoding 1,000
    /// posts takes as long as stamping the sources, which tells whether anything needs building.
    /// A build whose configuration has another time zone by then reads the cache again; with
    /// `timeZone` nil (the configuration not read yet), the cache is read whatever its zone.
    public func readingCache(timeZone: TimeZone?) -> CacheRead {
        let folder = publicFolder
        return CacheRead(folder: folder, cache: Background("lectern-cache") {
            PostCache.load(records: BuildRecords(outputFolder: folder), timeZone: timeZone)
        })
    }

    /// Changes whenever a build changes what `public/` holds (its manifest is rewritten): what
    /// a page made outside the build (search results) keys its cache on.
    public func buildStamp() -> String {
        let manifest = BuildRecords(outputFolder: publicFolder).treeFile(BuildManifest.fileName, of: publicFolder)
        return manifest.flatMap { FileStamp(path: $0.path)?.text } ?? "none"
    }
}

/// Prints how long each build phase took (`LECTERN_TRACE=1 lectern build`), to stderr.
public struct PhaseTrace {
    public let enabled: Bool
    private var last = DispatchTime.now()

    public init(enabled: Bool = ProcessInfo.processInfo.environment["LECTERN_TRACE"] != nil) { self.enabled = enabled }

    public mutating func mark(_ phase: String) {
        guard enabled else { return }
        let now = DispatchTime.now()
        let milliseconds = Double(now.uptimeNanoseconds - last.uptimeNanoseconds) / 1e6
        FileHandle.standardError.write(Data("\(phase): \(String(format: "%.1f", milliseconds)) ms\n".utf8))
        last = now
    }
}
