import BlogModel
import Foundation
import Parallel
import Synchronization

/// A category or tag with the posts filed under it (indices into `SiteModel.posts`, newest first).
public struct Term: Sendable {
    public let name: String
    public let slug: String
    /// `/categories/essays/` or `/tags/swift/`.
    public let path: String
    public var postIndices: [Int]
}

/// The loaded content plus everything derived from it that several pages share.
final class SiteModel: Sendable {
    let config: SiteConfig
    let posts: [Post]
    let pages: [Page]
    let categories: [Term]
    let tags: [Term]
    /// Posts grouped by `series:`, each in reading order (`seriesOrder`, then date): part 1 first.
    let series: [Term]
    /// The sections (`content/notes/` …), each with its posts, newest first; `name` is its title.
    let sections: [Term]
    /// Their folders, in the same order (what `lectern.yml`'s `sections:` names).
    let sectionFolders: [String]
    /// What the home page and the main feeds list: `posts/` and the sections set to `home: true`.
    let homeIndices: [Int]
    /// Posts by stream (`posts/` is "", a section its folder), newest first, and each post's
    /// place in its stream: newer/older links stay within a stream.
    private let streams: [String: [Int]]
    private let streamPositions: [Int]
    let rendered: RenderedCache
    /// Sizes of the images under `static/` and in bundles, read once, for the pages' `<img>`.
    let images: ImageSizes
    /// What `static/` and the posts' bundles hold, by site path.
    var localFiles: LocalFiles { images.files }
    /// Where the sources are, to name the file line of a problem found while rendering.
    let root: URL?
    /// Problems found while rendering that do not stop the build (an image without alt text).
    let renderWarnings = Mutex<[String]>([])
    let dates: DateFormats
    /// Comments and reactions by post path.
    let discussions: DiscussionSource

    init(config: SiteConfig, content: SiteContent, discussions: DiscussionSource = .none, root: URL? = nil,
         excerpts: [String: Excerpt] = [:], loadBody: @escaping @Sendable (Post) -> String = { $0.markdown }) {
        self.root = root
        self.images = ImageSizes(files: root.map {
            LocalFiles(staticFolder: $0.appendingPathComponent("static"), posts: content.posts, root: $0)
        } ?? LocalFiles())
        self.discussions = discussions
        self.config = config
        self.posts = content.posts
        self.pages = content.pages
        self.categories = Self.terms(content.posts, prefix: "/categories/") { $0.category.map { [$0] } ?? [] }
        self.tags = Self.terms(content.posts, prefix: "/tags/") { $0.tags }
        self.series = Self.terms(content.posts, prefix: "/series/") { $0.series.map { [$0] } ?? [] }.map { term in
            var term = term
            term.postIndices.sort { a, b in
                let (x, y) = (content.posts[a], content.posts[b])
                return (x.seriesOrder ?? Int.max, x.date, x.path) < (y.seriesOrder ?? Int.max, y.date, y.path)
            }
            return term
        }
        var streams: [String: [Int]] = [:]
        var positions: [Int] = []
        for (index, post) in content.posts.enumerated() {
            positions.append(streams[post.section ?? "", default: []].count)
            streams[post.section ?? "", default: []].append(index)
        }
        (self.streams, self.streamPositions) = (streams, positions)
        self.sectionFolders = content.sections
        self.sections = content.sections.map { folder in
            Term(name: config.section(folder).title ?? folder, slug: Slug.make(folder), path: "/\(Slug.make(folder))/",
                 postIndices: streams[folder] ?? [])
        }
        self.homeIndices = content.posts.indices.filter { config.isOnHome(content.posts[$0]) }
        self.rendered = RenderedCache(posts: content.posts, pages: content.pages, excerpts: excerpts, loadBody: loadBody)
        self.dates = DateFormats(timeZone: config.timeZone)
    }

    /// `@blog@blog.example`: the account readers follow or reply to.
    var account: String {
        let parts = URLComponents(string: config.baseURL)
        return "@\(config.username)@\(parts?.host ?? config.host)\(parts?.port.map { ":\($0)" } ?? "")"
    }

    /// The post's discussion as its pages show it, read when a page of it is rendered.
    func discussionView(_ index: Int) throws -> DiscussionView {
        let path = posts[index].path
        return DiscussionView(discussion: try discussions.discussion(of: path), postPath: path, account: account,
                              timeZone: config.timeZone)
    }

    func categoryPath(_ name: String) -> String { "/categories/\(Slug.make(name))/" }
    func tagPath(_ name: String) -> String { "/tags/\(Slug.make(name))/" }

    /// The navigation: pages with `menu:`, sections and the blogroll with `menu:` in `lectern.yml`, lower first.
    var menu: [(title: String, path: String, order: Int)] {
        let pages = pages.compactMap { page in page.menuOrder.map { (page.title, page.path, $0) } }
        let sections = zip(sectionFolders, sections).compactMap { folder, term in
            config.section(folder).menuOrder.map { (term.name, term.path, $0) }
        }
        let following = config.following
        let blogroll = following.page ? following.menuOrder.map { [(following.title, following.path, $0)] } ?? [] : []
        return (pages + sections + blogroll).sorted { ($0.2, $0.0) < ($1.2, $1.0) }
    }

    /// The next newer and older posts in the post's stream (its section, or `posts/`).
    func neighbours(of index: Int) -> (newer: Int?, older: Int?) {
        let stream = streams[posts[index].section ?? ""]!
        let position = streamPositions[index]
        return (position > 0 ? stream[position - 1] : nil, position + 1 < stream.count ? stream[position + 1] : nil)
    }

    /// The series a post belongs to, and its place in it (0-based).
    func series(of index: Int) -> (term: Term, position: Int)? {
        guard let name = posts[index].series else { return nil }
        guard let term = series.first(where: { $0.slug == Slug.make(name) }),
              let position = term.postIndices.firstIndex(of: index) else { return nil }
        return (term, position)
    }

    /// Absolute URL for a path or for a URL that is already absolute (front matter images).
    func absolute(_ pathOrURL: String) -> String {
        pathOrURL.hasPrefix("/") ? config.absoluteURL(pathOrURL) : pathOrURL
    }

    private static func terms(_ posts: [Post], prefix: String, _ names: (Post) -> [String]) -> [Term] {
        // A tag is on many posts: one lookup by its name finds its term (three per post were 4 of
        // a one-post rebuild's 150 million instructions, callgrind). Names with the same slug
        // share the term, named as the first post names it.
        var terms: [Term] = []
        var byName: [String: Int] = [:]
        var bySlug: [String: Int] = [:]
        for (index, post) in posts.enumerated() {
            for name in names(post) {
                let term: Int
                if let known = byName[name] {
                    term = known
                } else {
                    let slug = Slug.make(name)
                    if let same = bySlug[slug] {
                        term = same
                    } else {
                        term = terms.count
                        bySlug[slug] = term
                        terms.append(Term(name: name, slug: slug, path: "\(prefix)\(slug)/", postIndices: []))
                    }
                    byName[name] = term
                }
                terms[term].postIndices.append(index)
            }
        }
        return terms.sorted { $0.slug < $1.slug }
    }
}

/// Markdown rendered on first use and kept: an incremental build renders only the posts whose
/// pages (or the feeds and lists that show them) are being rebuilt.
final class RenderedCache: @unchecked Sendable {
    private let posts: [Post]
    private let pages: [Page]
    private let loadBody: @Sendable (Post) -> String
    private let lock = NSLock()
    private var postCache: [Int: RenderedMarkdown] = [:]
    private var pageCache: [Int: RenderedMarkdown] = [:]
    private var absoluteCache: [Int: String] = [:]
    /// The last build's excerpts of unchanged posts, by source path.
    private let knownExcerpts: [String: Excerpt]

    init(posts: [Post], pages: [Page], excerpts: [String: Excerpt], loadBody: @escaping @Sendable (Post) -> String) {
        self.posts = posts
        self.pages = pages
        self.knownExcerpts = excerpts
        self.loadBody = loadBody
    }

    /// What lists and feeds show of a post: from the last build when its source is unchanged,
    /// without reading or rendering it.
    func excerpt(_ index: Int) -> Excerpt {
        if let hit = lock.withLock({ postCache[index] }) { return hit.excerpt }
        return knownExcerpts[posts[index].sourcePath] ?? post(index).excerpt
    }

    /// The excerpts of the posts this build rendered, by source path (for the next build).
    func renderedExcerpts() -> [String: Excerpt] {
        lock.withLock { Dictionary(uniqueKeysWithValues: postCache.map { (posts[$0.key].sourcePath, $0.value.excerpt) }) }
    }

    /// Every post's excerpt, by source path: known, rendered by this build, or rendered now.
    func allExcerpts() -> [String: Excerpt] {
        let excerpts = ParallelMap.map(Array(posts.indices)) { excerpt($0) }
        return Dictionary(zip(posts.map(\.sourcePath), excerpts)) { first, _ in first }
    }

    func post(_ index: Int) -> RenderedMarkdown {
        if let hit = lock.withLock({ postCache[index] }) { return hit }
        let post = posts[index]
        let result = MarkdownRenderer.render(post.bodyIsLoaded ? post.markdown : loadBody(post), basePath: post.path)
        lock.withLock { postCache[index] = result }
        return result
    }

    /// A post's HTML with root-relative links made absolute, as every feed that lists it shows
    /// it (a post is in up to six feeds: Atom, RSS and JSON, for the site and its category).
    func absoluteHTML(_ index: Int, baseURL: String) -> String {
        if let hit = lock.withLock({ absoluteCache[index] }) { return hit }
        let result = HTMLText.absolutizeLinks(post(index).html, baseURL: baseURL)
        lock.withLock { absoluteCache[index] = result }
        return result
    }

    func page(_ index: Int) -> RenderedMarkdown {
        if let hit = lock.withLock({ pageCache[index] }) { return hit }
        let result = MarkdownRenderer.render(pages[index].markdown, basePath: pages[index].path)
        lock.withLock { pageCache[index] = result }
        return result
    }
}
