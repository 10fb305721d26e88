import Foundation
import Testing
@testable import Site

/// Comments are an input of the build: they show on the post's page, change only that page and
/// the feeds listing the post, and carry no markup of their own beyond the sanitized body.
@Suite struct DiscussionRenderingTests {
    func comment(_ id: String, parent: String? = nil, content: String, summary: String? = nil) -> Discussion.Comment {
        Discussion.Comment(id: "https://m.example/notes/\(id)", parentID: parent.map { "https://m.example/notes/\($0)" },
                           authorName: "Ana <b>", authorHandle: "@ana@m.example", authorURL: "https://m.example/@ana",
                           avatarURL: "https://m.example/a.png", url: "https://m.example/@ana/\(id)", contentHTML: content,
                           summary: summary, sensitive: summary != nil, published: Date(timeIntervalSince1970: 1_750_000_000),
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
        // The post's page and the site's three feeds (Atom, RSS, JSON Feed), nothing else.
        #expect(report.pages == 4, "outputs rendered: \(report.pages)")
    }

    @Test func ownerAddsTheCreatorTag() throws {
        let site = try TestSite(config: "title: T\nbaseURL: https://blog.example\nowner: \"@me@social.example\"\n")
        defer { site.remove() }
        try site.post("a", title: "First", date: "2025-01-01")
        try site.build()
        #expect(try site.read("2025/first/index.html").contains("<meta name=\"fediverse:creator\" content=\"@me@social.example\">"))
    }
}
