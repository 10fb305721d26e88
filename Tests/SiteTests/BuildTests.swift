import BlogModel
import Foundation
import Testing
@testable import Site

@Suite struct BuildTests {
    @Test func buildsEveryKindOfPage() throws {
        let site = try TestSite()
        defer { site.remove() }
        try site.post("a", title: "First Post", date: "2025-01-01", extra: "category: Essays\ntags: [swift]\n")
        try site.post("b", title: "Second Post", date: "2025-02-01", extra: "tags: [swift, web]\n")
        try site.post("c", title: "Third Post", date: "2025-03-01")
        try site.post("d", title: "Secret", date: "2025-04-01", extra: "draft: true\n")
        try site.write("content/pages/about.md", "---\ntitle: About\nmenu: 1\n---\nHi.\n")
        try site.write("static/img/logo.png", "not really a png")
        try site.build()
        for path in ["index.html", "page/2/index.html", "2025/first-post/index.html", "categories/essays/index.html",
                     "categories/essays/feed.xml", "categories/essays/rss.xml", "categories/essays/feed.json",
                     "tags/swift/index.html", "tags/web/index.html", "archive/index.html", "about/index.html",
                     "404.html", "feed.xml", "rss.xml", "feed.json", "sitemap.xml", "robots.txt", "img/logo.png",
                     "assets/style.css", "index.html.gz"] {
            #expect(site.exists(path), "missing \(path)")
        }
        #expect(!site.exists("2025/secret/index.html"))
        try site.build(drafts: true)
        #expect(site.exists("2025/secret/index.html"))

        let post = try site.read("2025/first-post/index.html")
        #expect(post.contains("<link rel=\"canonical\" href=\"https://blog.example/2025/first-post/\">"))
        #expect(post.contains("<link rel=\"alternate\" type=\"application/activity+json\" href=\"https://blog.example/2025/first-post/\">"))
        #expect(post.contains("<meta property=\"og:type\" content=\"article\">"))
        #expect(post.contains("<meta name=\"description\" content=\"Body text.\">"))
        #expect(try site.read("index.html").contains("href=\"/about/\">About</a>"))
    }

    @Test func paginationLinksPages() throws {
        let site = try TestSite()
        defer { site.remove() }
        for day in 1...5 { try site.post("p\(day)", title: "Post \(day)", date: "2025-01-0\(day)") }
        try site.build()
        let first = try site.read("index.html")
        #expect(first.contains("Post 5") && first.contains("Post 4") && !first.contains("Post 3"))
        #expect(first.contains("href=\"/page/2/\""))
        let last = try site.read("page/3/index.html")
        #expect(last.contains("Post 1") && last.contains("href=\"/page/2/\"") && last.contains("Page 3 of 3"))
    }

    @Test func failedBuildKeepsTheLiveSiteUntouched() throws {
        let site = try TestSite()
        defer { site.remove() }
        try site.post("good", title: "Good", date: "2025-01-01")
        try site.build()
        let before = try site.read("2025/good/index.html")
        try site.write("content/posts/bad.md", "---\ntitle: Bad\ndate: 2025-01-02\ntags: [oops\n---\nBody\n")
        #expect(throws: SiteError.self) { try site.build() }
        #expect(try site.read("2025/good/index.html") == before)
        #expect(!site.exists("2025/bad/index.html"))
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: site.root.path).filter { $0.contains("staging") }
        #expect(leftovers.isEmpty)
    }

    @Test func duplicateSlugNamesBothFiles() throws {
        let site = try TestSite()
        defer { site.remove() }
        try site.post("one", title: "Same Title", date: "2025-01-01")
        try site.post("two", title: "Same title!", date: "2025-06-01")
        #expect(throws: SiteError.duplicateURL(url: "/2025/same-title/", first: "content/posts/one.md",
                                               second: "content/posts/two.md:2")) { try site.build() }
    }

    @Test func unknownPartialInOverrideFailsWithItsLine() throws {
        let site = try TestSite()
        defer { site.remove() }
        try site.post("one", title: "One", date: "2025-01-01")
        try site.write("theme/post.mustache", "{{> head}}\n{{> sidebar}}\n{{> foot}}\n")
        #expect(throws: SiteError.template(name: "theme/post.mustache", line: 2,
                                           message: "unknown template 'sidebar' in {{> sidebar}}")) { try site.build() }
    }

    @Test func themeOverrideReplacesTemplate() throws {
        let site = try TestSite()
        defer { site.remove() }
        try site.post("one", title: "One", date: "2025-01-01")
        try site.write("theme/post.mustache", "<h1>{{post.title}}</h1>{{{post.content}}}")
        try site.build()
        #expect(try site.read("2025/one/index.html") == "<h1>One</h1><p>Body text.</p>\n")
    }

    @Test func incrementalRebuildRendersOnlyWhatChanged() throws {
        let site = try TestSite()
        defer { site.remove() }
        for day in 1...9 {
            try site.post("p\(day)", title: "Post \(day)", date: "2025-01-0\(day)", extra: "tags: [t\(day)]\n")
        }
        let first = try site.build()
        #expect(first.reused == 0)
        let untouched = try site.read("2025/post-1/index.html")

        let noop = try site.build()
        #expect(noop.written == 0 && noop.reused == first.written)

        try site.post("p9", title: "Post 9", date: "2025-01-09", extra: "tags: [t9]\n", body: "Edited body.")
        let edit = try site.build()
        // Post 9's page, home page 1, its tag page and the 3 feeds. Its neighbour's page, the
        // archive and the sitemap show only titles and dates, which did not change.
        #expect(edit.pages == 6, "rendered \(edit.pages) pages")
        #expect(edit.written <= 12, "wrote \(edit.written) files")
        #expect(try site.read("2025/post-9/index.html").contains("Edited body."))
        #expect(try site.read("2025/post-1/index.html") == untouched)
        #expect(try site.read("feed.xml").contains("Edited body."))

        try site.post("p9", title: "Post Nine", date: "2025-01-09", extra: "tags: [t9]\n", body: "Edited body.")
        let retitled = try site.build()
        #expect(retitled.pages == 9, "a new title also shows in the neighbour's page, the archive and the sitemap")
        #expect(try site.read("archive/index.html").contains("Post Nine"))
        #expect(try site.read("sitemap.xml").contains("post-nine"))

        try FileManager.default.removeItem(at: site.root.appendingPathComponent("content/posts/p9.md"))
        try site.build()
        #expect(!site.exists("2025/post-9/index.html"))
        #expect(!site.exists("tags/t9/index.html"))
    }

    /// List pages show unchanged posts' excerpts from the last build's cache (not read, not
    /// rendered again), and an incremental build's pages equal a cold build's of the same sources.
    @Test func listPagesFromCachedExcerptsMatchAColdBuild() throws {
        let site = try TestSite()
        defer { site.remove() }
        let bodies = [
            "First [paragraph](img/a.png) of one.\nStill the first.\n\nSecond paragraph.",
            "Intro of two.\n\n<!-- more -->\n\nHidden part.",
            "```swift\nlet x = 1\n```\n\nAfter the code, with a footnote.[^n]\n\n[^n]: The note.",
            "Only one paragraph, \u{1F}with a separator\u{1E} inside.",
        ]
        for (number, body) in bodies.enumerated() {
            try site.post("p\(number + 1)", title: "Post \(number + 1)", date: "2025-01-0\(number + 1)", body: body)
        }
        try site.build()
        let cacheFile = site.record(PostCache.fileName)
        let cache = try String(contentsOf: cacheFile, encoding: .utf8)
        #expect(cache.contains("First <a href=\"/2025/post-1/img/a.png\">paragraph</a> of one.\u{1D}Still the first."))

        // Post 1 changes; post 2 shares its list page (two per page, newest first) and comes
        // from the cache, as a tampered cache shows.
        try Data(cache.replacingOccurrences(of: "<p>Intro of two.</p>", with: "<p>From the cache.</p>").utf8).write(to: cacheFile)
        try site.post("p1", title: "Post 1", date: "2025-01-01", body: "New first paragraph.\n\nMore.")
        try site.build()
        let page = try site.read("page/2/index.html")
        #expect(page.contains("New first paragraph.") && page.contains("From the cache."))

        // Untampered, the incremental build's files are the cold build's.
        try Data(cache.utf8).write(to: cacheFile)
        try site.post("p1", title: "Post 1", date: "2025-01-01", body: "Newer first paragraph.\n\nMore.")
        try site.build()
        let cold = try TestSite()
        defer { cold.remove() }
        try FileManager.default.removeItem(at: cold.root.appendingPathComponent("content"))
        try FileManager.default.copyItem(at: site.root.appendingPathComponent("content"), to: cold.root.appendingPathComponent("content"))
        try cold.build()
        let files = try FileManager.default.subpathsOfDirectory(atPath: cold.root.appendingPathComponent("public").path)
            .filter { !$0.hasSuffix(".gz") && $0.contains(".") }
        #expect(files.count > 10)
        for file in files { #expect(try site.read(file) == cold.read(file), "\(file)") }

        // A build that reuses every page but writes a new cache (the first after an upgrade)
        // renders the excerpts it did not need, so the next builds have them.
        try FileManager.default.removeItem(at: cacheFile)
        #expect(try site.build().pages == 0)
        #expect(try String(contentsOf: cacheFile, encoding: .utf8).contains("<p>Intro of two.</p>"))
    }

    @Test func cachedFrontMatterFollowsEditsAndTimeZone() throws {
        let site = try TestSite()
        defer { site.remove() }
        try site.post("a", title: "Late Post", date: "2025-12-31T23:30:00Z", extra: "tags: [old]\n")
        try site.build()
        #expect(site.exists("2025/late-post/index.html") && site.exists("tags/old/index.html"))

        try site.post("a", title: "Late Post", date: "2025-12-31T23:30:00Z", extra: "tags: [new]\n")
        try site.build()
        #expect(site.exists("tags/new/index.html") && !site.exists("tags/old/index.html"))

        // 23:30 UTC is already the next year in Tokyo: the cached parse must not be reused.
        try site.write("lectern.yml", "title: Test Blog\nbaseURL: https://blog.example\ntimezone: Asia/Tokyo\n")
        try site.build()
        #expect(site.exists("2026/late-post/index.html") && !site.exists("2025/late-post/index.html"))
    }

    /// Sources rewritten with the same text (a copy, a restore, a checkout) get new stamps: the
    /// cache takes them, so the next builds go back to not reading unchanged sources.
    @Test func sourcesWithNewStampsAreStampedAgainInTheCache() throws {
        let site = try TestSite()
        defer { site.remove() }
        let count = PostCache.rewriteThreshold + 8
        func writeAll() throws {
            for day in 1...count { try site.post("p\(day)", title: "Post \(day)", date: "2025-01-01T00:" + String(format: "%02d", day)) }
        }
        try writeAll()
        try site.build()
        try writeAll()  // same text, new files
        try site.build()
        let cache = PostCache.load(records: BuildRecords(outputFolder: site.root.appendingPathComponent("public")), timeZone: nil)
        #expect(cache.stamps.count == count)
        for (path, stamp) in cache.stamps {
            #expect(FileStamp(path: site.root.appendingPathComponent(path).path) == stamp, "\(path)")
        }
        // A few sources read again (fewer than the threshold) leave the cache file as it is.
        let file = site.record(PostCache.fileName).path
        let saved = FileStamp(path: file)
        for day in 1..<PostCache.rewriteThreshold / 2 { try site.post("p\(day)", title: "Post \(day) again", date: "2025-01-01T00:00") }
        try site.build()
        // Not rewritten: the same file, untouched.
        #expect(FileStamp(path: file) == saved)
    }

    @Test func damagedManifestMeansAFullCorrectBuild() throws {
        let site = try TestSite()
        defer { site.remove() }
        try site.post("a", title: "One", date: "2025-01-01")
        try site.build()
        try Data("garbage\n".utf8).write(to: try site.manifest())
        try Data("garbage\n".utf8).write(to: site.record(PostCache.fileName))
        let report = try site.build()
        #expect(report.reused == 0)
        #expect(try site.read("2025/one/index.html").contains("Body text."))
    }

    @Test func unreadSourcesStillRenderWhenTheThemeChanges() throws {
        let site = try TestSite()
        defer { site.remove() }
        for day in 1...3 { try site.post("p\(day)", title: "Post \(day)", date: "2025-01-0\(day)", body: "Body of \(day).") }
        try site.build()
        try site.build()  // the parse cache now knows every file's stamp
        try site.write("theme/post.mustache", "<main>{{{post.content}}}</main>")
        let report = try site.build()  // sources unchanged, so not read while loading
        #expect(report.pages >= 3)
        for day in 1...3 {
            #expect(try site.read("2025/post-\(day)/index.html") == "<main><p>Body of \(day).</p>\n</main>")
        }
    }

    @Test func sameSizeEditIsNoticed() throws {
        let site = try TestSite()
        defer { site.remove() }
        try site.post("a", title: "A", date: "2025-01-01", body: "aaaa")
        try site.build()
        try site.build()
        try site.post("a", title: "A", date: "2025-01-01", body: "bbbb")
        try site.build()
        #expect(try site.read("2025/a/index.html").contains("bbbb"))
    }

    /// Names starting with a dot are an editor's or a tool's, at any depth and inside a linked
    /// `content/posts` too: never posts.
    @Test func hiddenFilesAndFoldersAreNotPosts() throws {
        let site = try TestSite()
        defer { site.remove() }
        let elsewhere = FileManager.default.temporaryDirectory.appendingPathComponent("lectern-linked-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: elsewhere) }
        func post(_ slug: String) -> String { "---\ntitle: \(slug)\ndate: 2025-01-01\nslug: \(slug)\n---\nText.\n" }
        try site.write("content/posts/shown.md", post("shown"))
        try site.write("content/posts/.swap.md", post("swap"))
        try site.write("content/posts/.git/old.md", post("old"))
        try site.write("content/posts/.git/deeper/older.md", post("older"))
        try site.write("content/posts/folder/.hidden.md", post("hidden"))
        try site.write("content/posts/folder/inner.md", post("inner"))
        try FileManager.default.createDirectory(at: elsewhere.appendingPathComponent(".cache"), withIntermediateDirectories: true)
        try Data(post("linked").utf8).write(to: elsewhere.appendingPathComponent("linked.md"))
        try Data(post("cached").utf8).write(to: elsewhere.appendingPathComponent(".cache/cached.md"))
        try FileManager.default.createSymbolicLink(at: site.root.appendingPathComponent("content/notes"), withDestinationURL: elsewhere)
        let report = try site.build()
        #expect(report.posts.map(\.slug).sorted() == ["inner", "linked", "shown"], "\(report.posts.map(\.slug))")
    }
}
