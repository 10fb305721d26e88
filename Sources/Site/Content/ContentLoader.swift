import Foundation

/// Everything under `content/`, parsed and checked: what a build renders.
public struct SiteContent: Sendable {
    /// Newest first; drafts only when the build asked for them.
    public var posts: [Post]
    public var pages: [Page]
    /// Ignored front matter keys in the files read this time, as `file:line: …`.
    public var warnings: [String] = []
    /// Posts dated in the future, held back until their date (oldest first); empty when the
    /// build asked for them (`--future`), which puts them in `posts`.
    public var scheduled: [Post] = []

    /// When the next held-back post is due.
    public var nextScheduled: Date? { scheduled.first?.date }
}

/// Reads `content/posts/*.md` and `content/pages/*.md` (subfolders included).
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
    /// `cache` exactly the posts just loaded.
    func load(includeDrafts: Bool, includeFuture: Bool = false, now: Date = Date(), cache: inout PostCache) throws -> SiteContent {
        let parser = ContentParser(timeZone: timeZone)
        let postFiles = try markdownFiles(in: "content/posts")
        let pageFiles = try markdownFiles(in: "content/pages")
        // Parsing is independent per file: spread it over the cores.
        let previous = cache
        let loaded = try ParallelMap.map(postFiles) { file -> (Post, FileStamp?) in
            let stamp = FileStamp(path: root.appendingPathComponent(file).path)
            if let stamp, previous.stamps[file] == stamp, var cached = previous.posts[file] {
                cached.bodyIsLoaded = false  // unchanged: not even read; see RenderedCache
                return (cached, stamp)
            }
            let source = try read(file)
            guard var cached = previous.post(for: file, hash: ContentHash(source)) else {
                return (try parser.post(source: source, file: file), stamp)
            }
            cached.markdown = try FrontMatter.split(source, file: file).body
            return (cached, stamp)
        }
        let posts = loaded.map(\.0)
        cache.posts = Dictionary(uniqueKeysWithValues: posts.map { ($0.sourcePath, $0) })
        cache.stamps = Dictionary(uniqueKeysWithValues: loaded.compactMap { post, stamp in stamp.map { (post.sourcePath, $0) } })
        let pages = try ParallelMap.map(pageFiles) { try parser.page(source: try read($0), file: $0) }
        let wanted = posts.filter { includeDrafts || !$0.draft }
        var content = SiteContent(
            posts: wanted.filter { includeFuture || $0.date <= now }.sorted { ($0.date, $0.path) > ($1.date, $1.path) },
            pages: pages.filter { includeDrafts || !$0.draft }.sorted { $0.path < $1.path },
            warnings: posts.flatMap(\.warnings) + pages.flatMap(\.warnings),
            scheduled: includeFuture ? [] : wanted.filter { $0.date > now }.sorted { ($0.date, $0.path) < ($1.date, $1.path) })
        try checkUniqueURLs(&content)
        return content
    }

    private func checkUniqueURLs(_ content: inout SiteContent) throws {
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

    /// Relative paths of the `.md` files below `folder`, sorted for stable output.
    private func markdownFiles(in folder: String) throws -> [String] {
        let base = root.appendingPathComponent(folder)
        guard let enumerator = FileManager.default.enumerator(at: base, includingPropertiesForKeys: [.isRegularFileKey],
                                                              options: [.skipsHiddenFiles]) else { return [] }
        var files: [String] = []
        let prefix = base.standardizedFileURL.path
        for case let url as URL in enumerator where url.pathExtension == "md" {
            let full = url.standardizedFileURL.path
            files.append(folder + String(full.dropFirst(prefix.count)))
        }
        return files.sorted()
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
