import BlogModel
import Foundation
import Testing
@testable import Site

/// Folders under `content/` besides `posts/` and `pages/` are sections: their own list pages and
/// feeds, off the home page unless configured, and their own newer/older links.
@Suite struct SectionTests {
    /// A post's section is the folder under `content/` it sits in, but for `posts` and `pages`.
    @Test func theSectionOfASourcePath() {
        for (path, section) in [("content/notes/a.md", "notes"), ("content/notes/deep/a.md", "notes"), ("content/posts/a.md", nil),
                                ("content/pages/a.md", nil), ("content/notes/", nil), ("content/notes", nil), ("contents/notes/a.md", nil),
                                ("content//a.md", nil), ("notes/content/a.md", nil)] as [(String, String?)] {
            #expect(ContentPaths.section(of: path) == section, "\(path)")
        }
    }

    static let config = "title: Test Blog\nbaseURL: https://blog.example\npostsPerPage: 5\n"

    func site(_ extra: String = "") throws -> TestSite {
        let site = try TestSite(config: Self.config + extra)
        try site.post("essay", title: "An essay", date: "2025-01-01")
        try site.post("later-essay", title: "A later essay", date: "2025-03-01")
        for (name, day) in [("first", "01"), ("second", "02")] {
            try site.write("content/notes/\(name).md", "---\ntitle: Note \(name)\ndate: 2025-02-\(day)\n---\nA short note.\n")
        }
        return site
    }

    @Test func aSectionHasItsOwnPagesAndFeedsAndStaysOffHome() throws {
        let site = try site()
        defer { site.remove() }
        try site.build()
        #expect(try site.read("notes/note-first/index.html").contains("A short note."))
        let list = try site.read("notes/index.html")
        #expect(list.contains("Note first") && list.contains("Note second") && !list.contains("An essay"))
        #expect(list.contains("<title>notes – Test Blog</title>"), "an unconfigured section is named after its folder")
        #expect(try site.read("notes/feed.xml").contains("Note second"))
        #expect(try site.read("notes/rss.xml").contains("Note first"))
        #expect(try site.read("notes/feed.json").contains("Note first"))
        let home = try site.read("index.html")
        #expect(home.contains("An essay") && !home.contains("Note first"), "sections stay off the home page by default")
        #expect(!(try site.read("feed.xml")).contains("Note first"), "and out of the main feed")
        #expect(try site.read("sitemap.xml").contains("https://blog.example/notes/"))
        #expect(try site.read("archive/index.html").contains("Note first"), "the archive lists everything")
        // Newer and older links stay within a stream: the essay of March is followed by January's.
        let essay = try site.read("2025/a-later-essay/index.html")
        #expect(essay.contains("/2025/an-essay/") && !essay.contains("/notes/note-second/"), "\(essay)")
        let note = try site.read("notes/note-second/index.html")
        #expect(note.contains("/notes/note-first/") && !note.contains("/2025/a-later-essay/"))
    }

    @Test func configuredSectionsCanJoinTheHomePageAndTheMenu() throws {
        let site = try site("sections:\n  notes:\n    title: Field notes\n    home: true\n    menu: 1\n")
        defer { site.remove() }
        try site.build()
        #expect(try site.read("index.html").contains("Note first"))
        #expect(try site.read("feed.xml").contains("Note first"))
        let list = try site.read("notes/index.html")
        #expect(list.contains("<title>Field notes – Test Blog</title>"))
        #expect(list.contains(#"href="/notes/""#), "in the navigation")
    }

    @Test func sectionsFederateOnlyWhenConfigured() throws {
        let parser = ContentParser(timeZone: TimeZone(identifier: "UTC")!)
        let note = try parser.post(source: "---\ntitle: N\ndate: 2025-01-01\n---\nx\n", file: "content/notes/n.md")
        let post = try parser.post(source: "---\ntitle: P\ndate: 2025-01-01\n---\nx\n", file: "content/posts/p.md")
        #expect(note.section == "notes" && note.path == "/notes/n/" && post.section == nil)
        let plain = try SiteConfig.parse(Self.config)
        #expect(!plain.federates(note) && plain.federates(post))
        let federating = try SiteConfig.parse(Self.config + "sections:\n  notes:\n    federate: true\n")
        #expect(federating.federates(note))
        var quiet = note
        quiet.federate = false
        #expect(!federating.federates(quiet), "a post's own federate: false still wins")
    }

    @Test func aFolderNamedLikeASitePathIsAnError() throws {
        let site = try site()
        defer { site.remove() }
        try site.write("content/tags/x.md", "---\ntitle: X\ndate: 2025-01-01\n---\nx\n")
        #expect(throws: SiteError.source(file: "content/tags", line: nil,
                                         message: "cannot be a section: /tags/ is a path the site uses itself; rename the folder")) {
            try site.build()
        }
        #expect(throws: SiteError.self) { try SiteConfig.parse(Self.config + "sections:\n  archive:\n    home: true\n") }
    }
}
