import BlogModel
import Foundation
import Testing
@testable import Site

/// Comments are an input of the build: they show on the post's page, change only that page and
/// the feeds listing the post, and carry no markup of their own beyond the sanitized body.
@Suite struct DiscussionRenderingTests {
    func comment(_ id: String, parent: String? = nil, content: String, summary: String? = nil, minute: Int = 0) -> Discussion.Comment {
        Discussion.Comment(id: "https://m.example/notes/\(id)", parentID: parent.map { "https://m.example/notes/\($0)" },
                           authorName: "Ana <b>", authorHandle: "@ana@m.example", authorURL: "https://m.example/@ana",
                           avatarURL: "https://m.example/a.png", url: "https://m.example/@ana/\(id)", contentHTML: content,
                           summary: summary, sensitive: summary != nil, published: Date(timeIntervalSince1970: 1_750_000_000 + Double(minute * 60)),
                           updated: nil)
    }

    @Test func commentsRenderOnThePostAndOnlyItsPagesChange() throws {
        let site = try TestSite()
        defer { site.remove() }
        try site.post("a", title: "First", date: "2025-01-01")
        try site.post("b", title: "Second", date: "2025-01-02")
        try site.build()
        #expect(try site.read("2025/first/index.html").contains("<h2 id=\"comments-title\">Comments</h2>"))
        #expect(try !site.read("2025/first/index.html").contains("fediverse:creator"), "no owner, no creator tag")

        let discussion = Discussion(comments: [comment("1", content: "<p>Great</p>"),
                                               comment("2", parent: "1", content: "<p>Agreed</p>", summary: "spoilers")],
                                    likes: 3, announces: 1)
        let report = try SiteBuilder(root: site.root).build(.init(discussions: ["/2025/first/": discussion]))
        let page = try site.read("2025/first/index.html")
        #expect(page.contains("2 comments"))
        #expect(page.contains("<p>Great</p>"))
        #expect(page.contains("comment depth-1"))
        #expect(page.contains("<details class=\"content-warning\"><summary>spoilers</summary>"))
        #expect(page.contains("Ana &lt;b&gt;"), "author names are text")
        #expect(page.contains("★ 3") && page.contains("⟳ 1"))
        #expect(page.contains("data-comments=\"/comments/2025/first.json\""))
        #expect(try site.read("feed.xml").contains("thr:count=\"2\""))
        #expect(try site.read("rss.xml").contains("<slash:comments>2</slash:comments>"))
        #expect(try !site.read("2025/second/index.html").contains("Great"))
        // The post's page, its comments JSON and the site's three feeds (Atom, RSS, JSON Feed), nothing else.
        #expect(report.pages == 5, "outputs rendered: \(report.pages)")
        #expect(try site.read("comments/2025/first.json").contains("\"count\":2"))
    }

    /// A build holds a summary of each discussion, and reads a post's comments only for the pages
    /// it renders: once per post however many of its pages it renders, never for a post whose
    /// pages are unchanged. What it writes is what whole discussions give.
    @Test func aBuildReadsOnlyTheDiscussionsOfThePagesItRenders() throws {
        let site = try TestSite()
        defer { site.remove() }
        for (name, title) in [("a", "First"), ("b", "Second"), ("c", "Third")] { try site.post(name, title: title, date: "2025-01-0\(name == "a" ? 1 : name == "b" ? 2 : 3)") }
        let paged = (1...45).map { comment("a\($0)", content: "<p>Comment \($0) on the first.</p>", minute: $0) }
        var discussions = ["/2025/first/": Discussion(comments: paged), "/2025/second/": Discussion(comments: [comment("b1", content: "<p>One.</p>")])]
        let reads = Reads()
        func source() -> DiscussionSource {
            let whole = discussions
            return DiscussionSource(summaries: whole.mapValues(DiscussionSummary.init)) { path in
                reads.record(path)
                return whole[path] ?? Discussion()
            }
        }
        try SiteBuilder(root: site.root).build(.init(discussions: source()))
        #expect(reads.paths.sorted() == ["/2025/first/", "/2025/second/"], "each read once: \(reads.paths)")
        #expect(try site.read("2025/first/comments/1/index.html").contains("Comment 1 on the first."))

        reads.paths = []
        discussions["/2025/second/"]?.comments.append(comment("b2", content: "<p>Two.</p>", minute: 5))
        try SiteBuilder(root: site.root).build(.init(discussions: source()))
        #expect(reads.paths == ["/2025/second/"], "\(reads.paths)")
        #expect(try site.read("2025/second/index.html").contains("Two."))

        // The same files as a build given every discussion whole.
        let whole = try TestSite()
        defer { whole.remove() }
        try FileManager.default.removeItem(at: whole.root.appendingPathComponent("content"))
        try FileManager.default.copyItem(at: site.root.appendingPathComponent("content"), to: whole.root.appendingPathComponent("content"))
        try SiteBuilder(root: whole.root).build(.init(discussions: DiscussionSource(discussions)))
        let files = try FileManager.default.subpathsOfDirectory(atPath: whole.root.appendingPathComponent("public").path)
            .filter { $0.hasSuffix(".html") || $0.hasSuffix(".json") }
        #expect(files.count > 10)
        for file in files { #expect(try site.read(file) == whole.read(file), "\(file)") }
    }

    /// Threads are paged from the oldest, twenty to a page; the post shows the newest page, a new
    /// comment renders that page (and the JSON and feeds) only.
    @Test func manyCommentsArePagedAndOnlyTheNewestPageChanges() throws {
        let site = try TestSite()
        defer { site.remove() }
        try site.post("a", title: "First", date: "2025-01-01")
        var comments = (1...45).map { comment("c\($0)", content: "<p>Comment number \($0).</p>", minute: $0) }
        comments.append(comment("r1", parent: "c3", content: "<p>A reply to three.</p>", minute: 50))
        try SiteBuilder(root: site.root).build(.init(discussions: ["/2025/first/": Discussion(comments: comments)]))
        let post = try site.read("2025/first/index.html")
        #expect(post.contains("Comment number 45.") && post.contains("Comment number 41.") && !post.contains("Comment number 40."))
        #expect(post.contains("href=\"/2025/first/comments/2/\"") && post.contains("Page 3 of 3"))
        let first = try site.read("2025/first/comments/1/index.html")
        #expect(first.contains("Comment number 1.") && first.contains("A reply to three.") && !first.contains("Comment number 21."))
        #expect(try site.read("2025/first/comments/2/index.html").contains("Comment number 21."))
        comments.append(comment("c46", content: "<p>Comment number 46.</p>", minute: 60))
        let report = try SiteBuilder(root: site.root).build(.init(discussions: ["/2025/first/": Discussion(comments: comments)]))
        #expect(try site.read("2025/first/index.html").contains("Comment number 46."))
        #expect(report.pages == 5, "the post, its JSON and three feeds; older pages untouched: \(report.pages)")
    }

    @Test func attachmentsPollsQuotesAndTitlesAreShown() throws {
        let site = try TestSite()
        defer { site.remove() }
        try site.post("a", title: "First", date: "2025-01-01")
        var rich = comment("x", content: "<p>See this.</p>")
        rich.title = "A reply written as an article"
        rich.attachments = [CommentAttachment(url: "https://files.example/a.png", name: "A diagram", kind: .image)]
        rich.poll = CommentPoll(options: [.init(name: "Yes", votes: 3), .init(name: "No", votes: 1)], multiple: false, closed: true)
        rich.quoteURL = "https://q.example/@q/1"
        try SiteBuilder(root: site.root).build(.init(discussions: ["/2025/first/": Discussion(comments: [rich])]))
        let page = try site.read("2025/first/index.html")
        #expect(page.contains("<strong>A reply written as an article</strong>"))
        #expect(page.contains("<a href=\"https://files.example/a.png\" rel=\"nofollow ugc\">Image: A diagram</a>"))
        #expect(page.contains("<meter min=\"0\" max=\"100\" value=\"75\">") && page.contains("Poll, closed"))
        #expect(page.contains("Quoting <a href=\"https://q.example/@q/1\""))
    }

    @Test func ownerAddsTheCreatorTag() throws {
        let site = try TestSite(config: "title: T\nbaseURL: https://blog.example\nowner: \"@me@social.example\"\n")
        defer { site.remove() }
        try site.post("a", title: "First", date: "2025-01-01")
        try site.build()
        #expect(try site.read("2025/first/index.html").contains("<meta name=\"fediverse:creator\" content=\"@me@social.example\">"))
    }
}

/// The posts whose discussion a build read, in order.
private final class Reads: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [String] = []
    var paths: [String] {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
    func record(_ path: String) { lock.withLock { stored.append(path) } }
}
