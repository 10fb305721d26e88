import BlogModel
import Foundation
import Testing
@testable import Site

/// What the default theme shows a reader: how to follow the blog, one `h1` per page, drafts
/// marked as such and offering nothing to reply to, a tag index worth visiting, labelled task
/// checkboxes, and a placeholder where a commenter has no avatar.
@Suite struct ThemePagesTests {
    let config = "title: Field Notes\ndescription: Notes from the field.\nbaseURL: https://blog.example\nusername: notes\n"

    func count(_ needle: String, in text: String) -> Int { text.components(separatedBy: needle).count - 1 }

    @Test func theHomePagePostsAndPagesSayHowToFollowTheBlog() throws {
        let site = try TestSite(config: config)
        defer { site.remove() }
        try site.post("a", title: "First", date: "2025-01-01")
        try site.write("content/pages/about.md", "---\ntitle: About\n---\nWho writes here.\n")
        try site.build()
        for path in ["index.html", "2025/first/index.html", "about/index.html"] {
            let page = try site.read(path)
            #expect(page.contains("class=\"follow-card\""), "\(path) has the follow card")
            #expect(page.contains("<code>@notes@blog.example</code>"), "\(path) shows the handle as text")
            #expect(page.contains("data-copy=\"@notes@blog.example\""), "\(path) has the copy button")
            #expect(page.contains(#"<input type="hidden" name="intent" value="follow">"#), "\(path) follows through /interact")
            #expect(count("<h1", in: page) == 1, "\(path) has one h1")
        }
        let home = try site.read("index.html")
        #expect(home.contains(#"<h1 class="site-title"><a href="/" dir="auto">Field Notes</a></h1>"#))
        #expect(home.contains("Notes from the field."))
        #expect(try !site.read("2025/first/index.html").contains("<h1 class=\"site-title\""), "a post's h1 is its title")
        #expect(try site.read("assets/follow.js").contains("clipboard"))
    }

    @Test func aDraftInAPreviewIsMarkedAndOffersNoWayToReplyOrFollow() throws {
        let site = try TestSite(config: config)
        defer { site.remove() }
        try site.post("a", title: "Published", date: "2025-01-01")
        try site.post("b", title: "Half written", date: "2025-01-02", extra: "draft: true\n")
        try site.build(drafts: true)
        let draft = try site.read("2025/half-written/index.html")
        #expect(draft.contains("class=\"preview-marker\""))
        #expect(draft.contains(#"<meta name="robots" content="noindex">"#))
        #expect(!draft.contains("reply-from") && !draft.contains("follow-card") && !draft.contains("@notes@blog.example"),
                "no reply form, handle or follow card on a draft")
        let published = try site.read("2025/published/index.html")
        #expect(published.contains("reply-from") && !published.contains("preview-marker") && !published.contains("noindex"))
        #expect(try site.read("index.html").contains(#"<span class="draft-label">Draft</span>"#), "lists mark the draft too")
    }

    @Test func theTagIndexCountsEachTagAndNamesItsNewestPosts() throws {
        let site = try TestSite(config: config)
        defer { site.remove() }
        for day in 1...4 { try site.post("p\(day)", title: "Post \(day)", date: "2025-01-0\(day)", extra: "tags: [swift\(day == 4 ? ", solo" : "")]\n") }
        try site.build()
        let tags = try site.read("tags/index.html")
        #expect(tags.contains("2 tags, the most used first."))
        #expect(tags.contains("#swift</a> <span class=\"count\">4 posts</span>") && tags.contains("#solo</a> <span class=\"count\">1 post</span>"))
        // The three newest of #swift, newest first; the oldest is left to the tag's own page.
        let recent = ["Post 4", "Post 3", "Post 2"].map { tags.range(of: ">\($0)</a>")?.lowerBound }
        #expect(recent.allSatisfy { $0 != nil } && recent[0]! < recent[1]! && recent[1]! < recent[2]!)
        #expect(!tags.contains(">Post 1</a>"))
    }

    @Test func taskCheckboxesAreLabelled() throws {
        let site = try TestSite(config: config)
        defer { site.remove() }
        try site.post("a", title: "Tasks", date: "2025-01-01", body: "- [x] Sow the beans\n- [ ] Fix the barrel\n")
        try site.build()
        let page = try site.read("2025/tasks/index.html")
        #expect(page.contains(#"<input type="checkbox" checked="" disabled="" aria-label="Done" /> Sow the beans"#))
        #expect(page.contains(#"<input type="checkbox" disabled="" aria-label="Not done" /> Fix the barrel"#))
    }

    @Test func aCommenterWithoutAvatarGetsAPlaceholder() throws {
        let site = try TestSite(config: config)
        defer { site.remove() }
        try site.post("a", title: "First", date: "2025-01-01")
        let comment = Discussion.Comment(id: "https://m.example/notes/1", parentID: nil, authorName: "ünal", authorHandle: "@u@m.example",
                                         authorURL: "https://m.example/@u", avatarURL: nil, url: "https://m.example/@u/1",
                                         contentHTML: "<p>Hi</p>", summary: nil, sensitive: false,
                                         published: Date(timeIntervalSince1970: 1_750_000_000), updated: nil)
        try SiteBuilder(root: site.root).build(.init(discussions: ["/2025/first/": Discussion(comments: [comment], likes: 0, announces: 0)]))
        #expect(try site.read("2025/first/index.html").contains(#"<span class="avatar no-avatar" aria-hidden="true">Ü</span>"#))
    }
}
