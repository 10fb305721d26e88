import Foundation
import Site

/// Imports posts and pages from another blog into a Lectern site: an RSS 2.0 or Atom feed, a
/// WordPress export, a Ghost export, or a Hugo, Jekyll, Zola or Eleventy site folder. Each item becomes a
/// Markdown file with YAML front matter; the report says what became of every item.
///
/// ```swift
/// var options = Importer.Options(siteRoot: URL(fileURLWithPath: "mysite"), timeZone: config.timeZone)
/// options.dryRun = true
/// let report = try await Importer(options: options).run(source: "wordpress-export.xml")
/// print(report.text)
/// ```
///
/// Nothing is ever overwritten: an item whose file or URL exists is skipped and reported.
public struct Importer: Sendable {
    public struct Options: Sendable {
        /// The Lectern site folder (holding `lectern.yml`).
        public var siteRoot: URL
        /// Where posts go, relative to `siteRoot` (`--into`).
        public var postsFolder = "content/posts"
        public var pagesFolder = "content/pages"
        public var staticFolder = "static"
        /// The site's time zone: dates without an offset are read in it, and it decides the
        /// `/YYYY/` of URLs and the date in file names.
        public var timeZone: TimeZone
        /// Write nothing; the report says what would be written.
        public var dryRun = false
        /// Fetch remote images into `static/YYYY/slug/` and link to the copies.
        public var downloadImages = false
        /// Where a page bundle's files go.
        public var bundleAssets = BundleAssets.nextToPost
        /// The old site's address, for Ghost's `__GHOST_URL__` and relative image paths.
        public var sourceURL: String?
        /// The old site's URL pattern for posts (`/blog/:year/:month/:slug/`), for a site folder
        /// whose files and configuration do not state one; a post's own `permalink`/`url`/`path`
        /// still comes first.
        public var permalink: String?
        /// The old site as it was served: its built output folder or its `sitemap.xml`. Its
        /// URLs are the contract: each item takes the one that is its own (`OldSiteMatcher`).
        /// A site folder's own `_site/` or `public/` is read when this is nil.
        public var oldSite: String?

        public init(siteRoot: URL, timeZone: TimeZone = TimeZone(identifier: "UTC")!) {
            self.siteRoot = siteRoot
            self.timeZone = timeZone
        }
    }

    public enum BundleAssets: String, Sendable, CaseIterable {
        /// The post becomes `content/posts/YYYY-MM-DD-slug/index.md` with its files beside it.
        case nextToPost
        /// The files go to `static/YYYY/slug/`, where the post's relative links find them.
        case staticFolder
    }

    public let options: Options
    public let downloader: (any ImageDownloader)?

    /// Whether `pattern` can be a `--permalink`: a root-relative path naming the post.
    public static func isPermalinkPattern(_ pattern: String) -> Bool {
        pattern.hasPrefix("/") && !pattern.contains(where: { $0.isWhitespace || $0 == "?" || $0 == "#" })
            && [":slug", ":title", ":filename"].contains(where: pattern.contains)
    }

    public init(options: Options, downloader: (any ImageDownloader)? = nil) {
        self.options = options
        self.downloader = downloader
    }

    /// Reads `source` (a path, or an http(s) feed URL fetched through the downloader) and
    /// imports every item in it, or nothing: when the site would not build with the imported
    /// files, none is written and `report.failure` says why (also on a dry run, which runs the
    /// same check). Throws only when the source cannot be read at all.
    public func run(source: String) async throws -> ImportReport {
        var content = try await read(source)
        var report = ImportReport(source: source, kind: content.kind, dryRun: options.dryRun, warnings: content.warnings)
        if let location = oldSiteLocation(source: source, kind: content.kind) {
            var basePath = content.baseURL.flatMap(Permalinks.path(of:)) ?? ""
            if basePath.hasSuffix("/") { basePath.removeLast() }
            do {
                let site = try OldSite.read(location, basePath: basePath)
                let matched = OldSiteMatcher.match(&content.items, site: site, dropUnmatched: options.oldSite != nil)
                report.oldSite = ImportReport.OldSiteSummary(source: site.source, urls: site.pages.count, matched: matched.matched,
                                                             unmatched: matched.unmatched)
            } catch where options.oldSite == nil {
                // A built folder found in the source, not asked for: its trouble is no reason to stop.
                report.warnings.append("\(location.path) was not read for the old URLs: \(error)")
            }
        }
        let (existing, loadWarning) = existingURLs()
        if let loadWarning { report.warnings.append(loadWarning) }
        if options.downloadImages && downloader == nil {
            report.warnings.append("--download-images needs a downloader: images stay linked to the old site")
        }
        var planner = ImportPlanner(options: options, existing: existing)
        var plans: [ImportPlanner.Plan] = []
        var entries: [(ImportedItem, Result<Int, ImportPlanner.Skip>)] = []
        for item in content.items {
            switch planner.plan(item) {
            case .success(let plan):
                entries.append((item, .success(plans.count)))
                plans.append(plan)
            case .failure(let skip):
                entries.append((item, .failure(skip)))
            }
        }
        let series = SeriesDetector.detect(plans.map { $0.item.kind == .post ? $0.title : "" })
        for index in plans.indices { plans[index].series = series[index] }
        let references = CrossReferences(plans: plans)
        var links = LinkMap()
        for plan in plans { if let link = plan.item.link { links.add(oldURL: link, newURL: plan.url, files: plan.item.assets.map(\.name)) } }
        let staging = try ImportStaging(siteRoot: options.siteRoot)
        defer { staging.discard() }
        let writer = ItemWriter(options: options, writeRoot: staging.files, downloader: options.downloadImages ? downloader : nil,
                                baseURL: options.sourceURL ?? content.baseURL, kind: content.kind)
        for (item, entry) in entries {
            switch entry {
            case .success(let index):
                report.items.append(try await writer.write(plans[index], references: references, links: links))
            case .failure(let skip):
                report.items.append(ImportReport.Item(origin: item.origin, title: item.title ?? item.origin, outcome: .skipped,
                                                      reason: skip.reason))
            }
        }
        for file in content.files {
            report.copied.append(writer.copy(file, to: "\(options.staticFolder)/\(file.name)", link: "/" + file.name))
        }
        // All or nothing: the site as it would be must build, or nothing is written.
        do {
            try staging.check()
            if !options.dryRun { try staging.commit() }
        } catch {
            report.failure = "\(error)"
        }
        return report
    }

    /// `--old-site`, else a site folder's own built output (`_site/`, `public/` with an
    /// `index.html`), else nothing.
    private func oldSiteLocation(source: String, kind: SourceKind) -> URL? {
        if let given = options.oldSite { return URL(fileURLWithPath: given) }
        guard [.hugo, .jekyll, .zola, .eleventy].contains(kind) else { return nil }
        let root = URL(fileURLWithPath: source)
        return ["_site", "public", "dist"].lazy.map { root.appendingPathComponent($0) }.first {
            FileManager.default.fileExists(atPath: $0.appendingPathComponent("index.html").path)
        }
    }

    private func read(_ source: String) async throws -> SourceContent {
        let data: Data
        let name: String
        if source.hasPrefix("http://") || source.hasPrefix("https://") {
            guard let downloader else { throw ImportError.noDownloader }
            data = Data(try await downloader.download(source))
            name = source
        } else {
            // A folder reached through a symbolic link is read where it is (the walk and the
            // boundary check compare real paths).
            let url = URL(fileURLWithPath: source).standardizedFileURL.resolvingSymlinksInPath()
            let kind = try SourceDetector.kind(of: url)
            if [.hugo, .jekyll, .zola, .eleventy].contains(kind) {
                return try StaticSiteFolder.read(url, flavor: kind, timeZone: options.timeZone, permalink: options.permalink)
            }
            guard let contents = FileManager.default.contents(atPath: url.path) else { throw ImportError.missing(source) }
            data = contents
            name = url.lastPathComponent
        }
        switch try SourceDetector.kind(of: data, name: name) {
        case .wordpress: return try WordPressExport.read(data, timeZone: options.timeZone)
        case .atom: return try AtomFeed.read(data, timeZone: options.timeZone)
        case .ghost: return try GhostExport.read(data, timeZone: options.timeZone, siteURL: options.sourceURL)
        default: return try RSSFeed.read(data, timeZone: options.timeZone)
        }
    }

    /// URLs of the site's posts and pages (drafts included), with their files.
    private func existingURLs() -> ([String: String], String?) {
        do {
            let content = try ContentLoader(root: options.siteRoot, timeZone: options.timeZone).load(includeDrafts: true, includeFuture: true)
            var urls: [String: String] = [:]
            for post in content.posts { urls[post.path] = post.sourcePath }
            for page in content.pages { urls[page.path] = page.sourcePath }
            return (urls, nil)
        } catch {
            return ([:], "the site's content does not load (\(error)): clashes with existing URLs are not checked")
        }
    }
}
