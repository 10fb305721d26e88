import BlogModel
import Foundation

/// Lists every file a build produces, with the fingerprint of exactly what goes into it.
///
/// A page's fingerprint combines the global inputs (theme, configuration, menu, year) with the
/// source hashes of the posts it shows, so editing one post re-renders that post's page, its
/// neighbours, and the lists and feeds it appears in, and nothing else.
struct SitePlan {
    static let generatorVersion = "lectern-site-1"

    let model: SiteModel
    let renderer: PageRenderer
    let global: ContentHash
    /// The accounts the blog follows, for the blogroll page (`following:` in `lectern.yml`).
    var blogroll: [BlogrollEntry] = []
    init(model: SiteModel, theme: Theme, configText: String, includeDrafts: Bool, year: Int) {
        self.model = model
        self.renderer = PageRenderer(model: model, theme: theme, year: year)
        var global = ContentHash(Self.generatorVersion, configText, String(includeDrafts), String(year))
        global.combine(theme.fingerprint)
        for item in model.menu { global.combine("\(item.title)|\(item.path)|\(item.order)") }
        self.global = global
    }

    func files() throws -> [OutputFile] {
        var files: [OutputFile] = []
        files += postFiles()
        files += listFiles(title: nil, heading: nil, basePath: "/", indices: model.homeIndices, feeds: nil)
        // A section: its own list pages and feeds, whether or not the home page shows it too.
        for term in model.sections {
            files += listFiles(title: term.name, heading: term.name, basePath: term.path, indices: term.postIndices,
                               feeds: PageRenderer.feedLinks(prefix: term.path))
            files += feedFiles(FeedScope(title: "\(model.config.title): \(term.name)", htmlPath: term.path,
                                         indices: term.postIndices))
        }
        for term in model.categories {
            files += listFiles(title: term.name, heading: term.name, basePath: term.path, indices: term.postIndices,
                               feeds: PageRenderer.feedLinks(prefix: term.path))
            files += feedFiles(FeedScope(title: "\(model.config.title): \(term.name)", htmlPath: term.path,
                                         indices: term.postIndices))
        }
        // A series: its parts in reading order, and a feed of its own (newest first, as feeds are).
        for term in model.series {
            files += listFiles(title: "Series: \(term.name)", heading: "\(term.name) — a series in \(term.postIndices.count) parts",
                               basePath: term.path, indices: term.postIndices, feeds: PageRenderer.feedLinks(prefix: term.path))
            files += feedFiles(FeedScope(title: "\(model.config.title): \(term.name)", htmlPath: term.path,
                                         indices: term.postIndices.sorted()))
        }
        for term in model.tags {
            // A tag of several words reads badly as a hashtag: the heading quotes it as written.
            files += listFiles(title: "Tagged “\(term.name)”", heading: "Tagged “\(term.name)”", basePath: term.path,
                               indices: term.postIndices, feeds: nil)
        }
        files += feedFiles(FeedScope(title: model.config.title, htmlPath: "/", indices: model.homeIndices))
        files += singleFiles()
        files += blogrollFiles()
        files += assetFiles()
        files += staticFiles()
        files.append(redirectsFile(taken: Set(files.map(\.path))))
        return files
    }

    // MARK: kinds of output

    private func postFiles() -> [OutputFile] {
        let posts = model.posts
        var files: [OutputFile] = []
        for index in posts.indices {
            // Planned from the summary: the discussion is read only for the pages rendered.
            let summary = model.discussions.summaries[posts[index].path]
            var hash = global
            hash.combine(posts[index].sourceHash)
            // The post's page shows the newest page of comments; older pages are files of their own.
            if let newest = summary?.pageFingerprints.last { hash.combine(newest) }
            let (newer, older) = model.neighbours(of: index)
            for neighbour in [newer, older] {
                if let neighbour { hash.combine([posts[neighbour].title, posts[neighbour].path], separator: 0x7C) } else { hash.combine("-") }
            }
            // Its series: the name, its place, and the neighbouring parts it links to.
            if let (term, position) = model.series(of: index) {
                hash.combine("series|\(term.name)|\(position)|\(term.postIndices.count)")
                for part in [position - 1, position + 1] where term.postIndices.indices.contains(part) {
                    hash.combine([posts[term.postIndices[part]].title, posts[term.postIndices[part]].path], separator: 0x7C)
                }
            }
            let renderer = renderer
            files.append(OutputFile(path: OutputFile.filePath(forSitePath: posts[index].path), fingerprint: hash,
                                    source: .text { try renderer.post(index) }))
            guard let summary, let newest = summary.pageFingerprints.last else { continue }
            for number in 1..<summary.pageCount {
                var pageHash = global
                pageHash.combine(posts[index].title)
                pageHash.combine(summary.pageFingerprints[number - 1])
                files.append(OutputFile(path: OutputFile.filePath(forSitePath: DiscussionView.path(ofPage: number, of: summary.pageCount,
                                                                                                   postPath: posts[index].path)),
                                        fingerprint: pageHash, source: .text { try renderer.comments(index, page: number) }))
            }
            // What the live-refresh script reads.
            var jsonHash = ContentHash("comments-json")
            jsonHash.combine(newest)
            let model = model
            files.append(OutputFile(path: String(DiscussionView.jsonPath(forPostPath: posts[index].path).dropFirst()),
                                    fingerprint: jsonHash, source: .text { String(decoding: try model.discussionView(index).json(), as: UTF8.self) }))
        }
        return files
    }

    private func listFiles(title: String?, heading: String?, basePath: String, indices: [Int],
                           feeds: [String: any TemplateValue]?) -> [OutputFile] {
        let perPage = model.config.postsPerPage
        let pageCount = ListPaging.pageCount(items: indices.count, perPage: perPage)
        return (1...pageCount).map { number in
            let slice = indices[min(indices.count, (number - 1) * perPage)..<min(indices.count, number * perPage)]
            var hash = global
            hash.combine(["list", basePath, String(number), String(pageCount)], separator: 0x7C)
            for index in slice { hash.combine(model.posts[index].sourceHash) }
            let renderer = renderer
            return OutputFile(path: OutputFile.filePath(forSitePath: ListPaging.path(basePath: basePath, page: number)),
                              fingerprint: hash,
                              source: .text {
                                  try renderer.list(title: title, heading: heading, basePath: basePath, indices: slice,
                                                    pageNumber: number, pageCount: pageCount, feeds: feeds)
                              })
        }
    }

    private func feedFiles(_ scope: FeedScope) -> [OutputFile] {
        var hash = global
        hash.combine("feed|\(scope.htmlPath)")
        for index in scope.indices.prefix(model.config.feedSize) {
            hash.combine(model.posts[index].sourceHash)
            hash.combine(String(model.discussions.summaries[model.posts[index].path]?.commentCount ?? 0))
        }
        let feeds = FeedRenderer(model: model)
        let folder = String(scope.htmlPath.dropFirst())
        return [
            OutputFile(path: folder + "feed.xml", fingerprint: hash, source: .text { feeds.atom(scope) }),
            OutputFile(path: folder + "rss.xml", fingerprint: hash, source: .text { feeds.rss(scope) }),
            OutputFile(path: folder + "feed.json", fingerprint: hash, source: .text { try feeds.json(scope) }),
        ]
    }

    private func singleFiles() -> [OutputFile] {
        let renderer = renderer
        let model = model
        // The archive and the sitemap show titles, dates, paths and taxonomy, not bodies.
        var listing = global
        for post in model.posts { listing.combine(post.listingFingerprint) }
        for page in model.pages { listing.combine(page.path) }
        // The tag index shows tags and their counts only: a new title does not change it.
        var tagListing = global
        for term in model.tags { tagListing.combine([term.name, term.path, String(term.postIndices.count)], separator: 0x7C) }
        var files = [
            OutputFile(path: "archive/index.html", fingerprint: listing, source: .text { try renderer.archive() }),
            OutputFile(path: "tags/index.html", fingerprint: tagListing, source: .text { try renderer.tagIndex() }),
            OutputFile(path: "404.html", fingerprint: global,
                       source: .text { try renderer.status(template: "not-found", title: "Page not found") }),
            OutputFile(path: "410.html", fingerprint: global,
                       source: .text { try renderer.status(template: "gone", title: "Post removed") }),
            OutputFile(path: "robots.txt", fingerprint: global, source: .text { SitemapRenderer(model: model).robots() }),
        ]
        let listPaths = sitemapListPaths()
        files.append(OutputFile(path: "sitemap.xml", fingerprint: listing,
                                source: .text { SitemapRenderer(model: model).sitemap(listPaths: listPaths) }))
        for index in model.pages.indices {
            var hash = global
            hash.combine(model.pages[index].sourceHash)
            files.append(OutputFile(path: OutputFile.filePath(forSitePath: model.pages[index].path), fingerprint: hash,
                                    source: .text { try renderer.page(index) }))
        }
        return files
    }

    /// `aliases:` of every post and page, as `old-path target-path` lines, among the tree's records:
    /// the server answers them with 301, and a front proxy never finds them as files (design:
    /// redirects are Lectern's to answer).
    private func redirectsFile(taken: Set<String>) -> OutputFile {
        var lines: [String] = []
        for post in model.posts { for alias in post.aliases where alias != post.path { lines.append("\(alias) \(post.path)") } }
        for page in model.pages { for alias in page.aliases where alias != page.path { lines.append("\(alias) \(page.path)") } }
        // The feed addresses other generators use, so readers subscribed to an old blog's feed
        // keep it after the move; a file or an alias of this site at one of them comes first.
        let aliased = Set(lines.map { String($0.prefix { $0 != " " }) })
        for (path, target) in Self.otherGeneratorsFeeds where !aliased.contains(path) {
            let file = OutputFile.filePath(forSitePath: path)
            guard !taken.contains(file), !taken.contains(String(path.dropFirst())) else { continue }
            lines.append("\(path) \(target)")
        }
        let text = lines.sorted().joined(separator: "\n") + (lines.isEmpty ? "" : "\n")
        return OutputFile(path: Redirects.planPath, fingerprint: ContentHash("redirects", text), source: .text { text })
    }

    /// Hugo's `/index.xml`, Zola's `/atom.xml`, WordPress's `/feed/`, Ghost's `/rss/`, Eleventy's
    /// `/feed/feed.xml`…, to the feed of the same kind here.
    static let otherGeneratorsFeeds: [(String, String)] = [
        ("/index.xml", "/rss.xml"), ("/atom.xml", "/feed.xml"), ("/rss/", "/rss.xml"), ("/feed/", "/rss.xml"),
        ("/feed/atom/", "/feed.xml"), ("/feed/rss2/", "/rss.xml"), ("/feed/feed.xml", "/feed.xml"), ("/feed.atom", "/feed.xml"),
        ("/rss2.xml", "/rss.xml"), ("/posts/index.xml", "/rss.xml"), ("/index.rss", "/rss.xml"),
    ]

    private func sitemapListPaths() -> [(path: String, lastModified: Date?)] {
        func newest(_ indices: [Int]) -> Date? { indices.first.map { model.posts[$0].lastModified } }
        var paths: [(path: String, lastModified: Date?)] = [("/", newest(model.homeIndices)),
                                                            ("/archive/", newest(Array(model.posts.indices))),
                                                            ("/tags/", newest(Array(model.posts.indices)))]
        for term in model.sections + model.categories + model.tags { paths.append((term.path, newest(term.postIndices))) }
        return paths
    }

    private func assetFiles() -> [OutputFile] {
        renderer.theme.assets.keys.sorted().map { name in
            var hash = ContentHash(Self.generatorVersion, name)
            hash.combine(renderer.theme.fingerprint)
            return OutputFile(path: "assets/\(name)", fingerprint: hash, source: .bytes(renderer.theme.assets[name]!))
        }
    }

    /// Everything under `static/` and in the posts' bundles, copied as is; size and modification
    /// time stand in for content.
    private func staticFiles() -> [OutputFile] {
        model.localFiles.byPath.keys.sorted().map { path in
            let file = model.localFiles.byPath[path]!
            let relative = String(path.dropFirst())
            return OutputFile(path: relative, fingerprint: ContentHash("static", relative, file.stamp), source: .copy(file.url))
        }
    }
}
