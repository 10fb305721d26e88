import BlogModel
import Foundation
import Parallel
#if canImport(Glibc)
import Glibc
#endif

/// Reads `content/posts/*.md`, `content/pages/*.md` and the sections' `content/<folder>/*.md`
/// (subfolders included).
public struct ContentLoader: Sendable {
    public let root: URL
    public let timeZone: TimeZone

    public init(root: URL, timeZone: TimeZone) {
        self.root = root
        self.timeZone = timeZone
    }

    public func load(includeDrafts: Bool, includeFuture: Bool = false, now: Date = Date()) throws -> SiteContent {
        var cache = PostCache(timeZone: timeZone)
        return try load(includeDrafts: includeDrafts, includeFuture: includeFuture, now: now, cache: &cache)
    }

    /// Loads everything, reusing `cache` for posts whose source did not change, and leaves in
    /// `cache` exactly the posts just loaded. `tree` is `content/` as walked just before (the
    /// build's source stamp); without it, the loader walks it.
    func load(includeDrafts: Bool, includeFuture: Bool = false, now: Date = Date(), cache: inout PostCache,
              tree: ContentTree? = nil) throws -> SiteContent {
        let parser = ContentParser(timeZone: timeZone)
        let tree = try tree ?? ContentTree.walk(root: root)
        let sectionFolders = try sectionFolders(tree)
        let postFiles = sectionFolders.reduce(markdownFiles(in: "posts", tree)) { $0 + markdownFiles(in: $1, tree) }
        let pageFiles = markdownFiles(in: "pages", tree).map(\.path)
        // Parsing is independent per file: spread it over the cores.
        let previous = cache
        // Each post with whether it was parsed afresh (its source is new or changed).
        // Every file is tried, and every broken one named at once (not the first alone).
        let attempts = ParallelMap.map(postFiles) { file, info in Result { () throws -> (Post, FileStamp?, Bool) in
            let stamp = FileStamp(info)
            if previous.stamps[file] == stamp, var cached = previous.posts[file] {
                // Unchanged: not even read (see RenderedCache). Marked only when it is not yet:
                // the post shares its fields with the previous cache, and a change copies them.
                if cached.bodyIsLoaded { cached.bodyIsLoaded = false }
                return (cached, stamp, false)
            }
            let source = try read(file)
            guard var cached = previous.post(for: file, hash: ContentHash(source)) else {
                return (try parser.post(source: source, file: file), stamp, true)
            }
            cached.markdown = try FrontMatter.split(source, file: file).body
            cached.bodyIsLoaded = true
            return (cached, stamp, false)
        } }
        let pageAttempts = ParallelMap.map(pageFiles) { file in Result { try parser.page(source: try read(file), file: file) } }
        let (loaded, postErrors) = Self.split(attempts), (pages, pageErrors) = Self.split(pageAttempts)
        try SiteError.combined(postErrors + pageErrors)
        let posts = loaded.map(\.0)
        let sourcesRead = loaded.count { $0.0.bodyIsLoaded }  // a post served by its stamp is not read
        cache.posts = Dictionary(uniqueKeysWithValues: posts.map { ($0.sourcePath, $0) })
        cache.stamps = Dictionary(uniqueKeysWithValues: loaded.compactMap { post, stamp, _ in stamp.map { (post.sourcePath, $0) } })
        // Excerpts of posts whose source changed are stale (those of removed posts are never asked for).
        for (post, _, afresh) in loaded where afresh { cache.excerpts[post.sourcePath] = nil }
        let wanted = posts.filter { includeDrafts || !$0.draft }
        var content = SiteContent(
            posts: wanted.filter { includeFuture || $0.date <= now }.sorted { ($0.date, $0.path) > ($1.date, $1.path) },
            pages: pages.filter { includeDrafts || !$0.draft }.sorted { $0.path < $1.path },
            warnings: posts.flatMap(\.warnings) + pages.flatMap(\.warnings),
            scheduled: includeFuture ? [] : wanted.filter { $0.date > now }.sorted { ($0.date, $0.path) < ($1.date, $1.path) },
            sections: sectionFolders)
        content.sourcesRead = sourcesRead
        if !includeDrafts { content.drafts = posts.filter(\.draft).map(\.path) + pages.filter(\.draft).map(\.path) }
        try checkUniqueURLs(&content)
        return content
    }

    /// What succeeded, and the errors, in order.
    private static func split<T>(_ results: [Result<T, any Error>]) -> ([T], [any Error]) {
        var values: [T] = [], errors: [any Error] = []
        for result in results {
            switch result {
            case .success(let value): values.append(value)
            case .failure(let error): errors.append(error)
            }
        }
        return (values, errors)
    }

    private func checkUniqueURLs(_ content: inout SiteContent) throws {
        // The common case, no clash, without sorting; a clash is named in source order below.
        var paths = Set<String>(minimumCapacity: content.posts.count + content.pages.count)
        if content.posts.allSatisfy({ paths.insert($0.path).inserted }) && content.pages.allSatisfy({ paths.insert($0.path).inserted }) {
            return
        }
        var owners: [String: String] = [:]
        for post in content.posts.sorted(by: { $0.sourcePath < $1.sourcePath }) {
            if let first = owners[post.path] {
                throw SiteError.duplicateURL(url: post.path, first: first, second: "\(post.sourcePath):\(post.slugLine)")
            }
            owners[post.path] = post.sourcePath
        }
        for page in content.pages {
            if let first = owners[page.path] {
                throw SiteError.duplicateURL(url: page.path, first: first, second: page.sourcePath)
            }
            owners[page.path] = page.sourcePath
        }
    }

    /// Every folder under `content/` besides `posts` and `pages`: each is a section.
    private func sectionFolders(_ tree: ContentTree) throws -> [String] {
        try tree.topFolders.filter { $0 != "posts" && $0 != "pages" }.map { name in
            guard !SectionSettings.reserved.contains(Slug.make(name)), !Slug.make(name).isEmpty else {
                throw SiteError.source(file: "content/\(name)", line: nil,
                                       message: "cannot be a section: /\(Slug.make(name))/ is a path the site uses itself; rename the folder")
            }
            return name
        }
    }

    /// The `.md` files below `content/<folder>` (as `content/<folder>/…`, with their status),
    /// sorted for stable output. Inside a page bundle only `index.md` is a post: other Markdown
    /// files there belong to it (Hugo's rule).
    private func markdownFiles(in folder: String, _ tree: ContentTree) -> [(path: String, info: stat)] {
        let files = tree.files(in: folder).filter { $0.path.hasByteSuffix(".md") }.sorted { $0.path < $1.path }
        let bundles = Set(files.compactMap { ContentPaths.bundleFolder(of: $0.path) })
        guard !bundles.isEmpty else { return files }
        return files.filter { file, _ in
            var parent = (file as NSString).deletingLastPathComponent
            if bundles.contains(parent) { return file.hasByteSuffix("/index.md") }
            while parent.contains("/") {
                parent = (parent as NSString).deletingLastPathComponent
                if bundles.contains(parent) { return false }
            }
            return true
        }
    }

    /// A post's text without markup, for the search index.
    public func plainText(of post: Post) throws -> String {
        MarkdownRenderer.plainText(post.bodyIsLoaded ? post.markdown : try body(of: post))
    }

    /// The pages and section folders, without reading a post: what a page outside the build
    /// (search results) needs for the site's navigation.
    public func loadNavigation() throws -> SiteContent {
        let parser = ContentParser(timeZone: timeZone)
        let tree = try ContentTree.walk(root: root)
        let pages = try markdownFiles(in: "pages", tree).map { try parser.page(source: try read($0.path), file: $0.path) }
        return SiteContent(posts: [], pages: pages.filter { !$0.draft }.sorted { $0.path < $1.path },
                           sections: try sectionFolders(tree))
    }

    /// The body of a post whose parse came from the cache (its file was not read during loading).
    func body(of post: Post) throws -> String {
        try FrontMatter.split(try read(post.sourcePath), file: post.sourcePath).body
    }

    private func read(_ relativePath: String) throws -> String {
        let url = root.appendingPathComponent(relativePath)
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw SiteError.io(path: relativePath, message: "cannot read the file")
        }
        guard let text = SourceText.decode(data) else {
            throw SiteError.source(file: relativePath, line: nil, message: "is not valid UTF-8 text")
        }
        return text
    }
}
