import BlogModel
import Foundation
@testable import Import
import Site
import Testing

/// An Eleventy blog (our own fixture, in the shapes real ones taught: input in `src/`, directory
/// data in JSON and JavaScript, Nunjucks tags, passthrough images), and the old site's own URLs
/// (`--old-site`) deciding where each post was.
@Suite struct EleventyImportTests {
    @Test func anEleventySiteKeepsItsOldURLsAndFiles() async throws {
        let site = try ImportTestSite()
        defer { site.remove() }
        let report = try await site.importFixture("eleventy-site")
        #expect(report.kind == .eleventy)
        #expect(report.failure == nil, "\(report.failure ?? "")")
        func item(_ origin: String) throws -> ImportReport.Item { try #require(report.items.first { $0.origin == origin }) }

        // The directory data's permalink, with a date filter, is the old URL; the collection tag is not a tag.
        let first = try item("src/blog/2021-03-04-first-post.md")
        #expect(first.url == "/2021/first-post/" && first.oldURL == "/blog/2021/03/first-post/")
        #expect(first.aliases == ["/blog/2021/03/first-post/"])
        let text = try site.read(try #require(first.file))
        #expect(text.contains("tags: [swift]"), "\(text)")
        #expect(text.contains("**Author's note**\n\nWritten before the move."))
        #expect(text.contains("[the note](/2021/2021-05-06/)"), "inputPathToUrl names the note's new URL")
        #expect(text.contains("![A photo](/img/photo.png)") && text.contains("![A chart](/img/chart.png)"))
        #expect(!text.contains("{%") && !text.contains("{{"))
        #expect(first.warnings.contains { $0.hasPrefix("line 18: {% unknownTag") }, "\(first.warnings)")
        #expect(site.exists("static/img/photo.png") && site.exists("static/img/chart.png"))

        // A figure tag becomes the image beside the post, its content kept.
        let second = try item("src/blog/second/index.md")
        #expect(second.oldURL == "/blog/2021/04/second/")
        let secondText = try site.read(try #require(second.file))
        #expect(secondText.contains("![A diagram of the flow](diagram.png)\n\nThe flow, drawn."), "\(secondText)")

        // A permalink computed in a JavaScript data file of a simple shape is read; one with code is not, and said.
        let note = try item("src/notes/2021-05-06.md")
        #expect(note.outcome == .post && note.oldURL == "/notes/2021-05-06/" && note.url == "/2021/2021-05-06/")
        let computed = try item("src/scripted/2021-06-07-computed.md")
        #expect(computed.oldURL == nil && computed.aliases.isEmpty)
        #expect(computed.warnings.contains { $0.contains("scripted.11tydata.js") && $0.contains("--old-site") })

        // Not pages: the repository's README, the 404 page, the paginated home page.
        #expect(!report.items.contains { $0.origin == "README.md" && $0.outcome != .skipped })
        #expect(try item("src/404.md").outcome == .skipped && item("src/index.md").outcome == .skipped)
        let about = try item("src/colophon.md")
        #expect(about.outcome == .page && about.oldURL == "/colophon/" && about.url == "/colophon/")

        // The site builds, and every imported item is served at its new URL.
        try site.build()
        #expect(site.exists("public/2021/first-post/index.html") && site.exists("public/img/photo.png"))
    }

    @Test func theOldSitesSitemapDecidesTheOldURLs() async throws {
        let site = try ImportTestSite()
        defer { site.remove() }
        let sitemap = FileManager.default.temporaryDirectory.appendingPathComponent("lectern-sitemap-\(UUID().uuidString).xml")
        defer { try? FileManager.default.removeItem(at: sitemap) }
        let urls = ["/", "/blog/2021/03/first-post/", "/blog/2021/04/second/", "/n/2021-05-06/", "/s/2021/computed/",
                    "/colophon/", "/tags/swift/", "/page/2/", "/gone-post/"]
        try ("<?xml version=\"1.0\"?><urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">"
             + urls.map { "<url><loc>https://old.example\($0)</loc></url>" }.joined() + "</urlset>")
            .write(to: sitemap, atomically: true, encoding: .utf8)
        let report = try await site.importFixture("eleventy-site") { $0.oldSite = sitemap.path }
        func old(_ origin: String) -> String? { report.items.first { $0.origin == origin }?.oldURL }
        #expect(old("src/blog/2021-03-04-first-post.md") == "/blog/2021/03/first-post/")
        // Matched by slug where the rule could not say (a JavaScript permalink) or said otherwise.
        #expect(old("src/scripted/2021-06-07-computed.md") == "/s/2021/computed/")
        #expect(old("src/notes/2021-05-06.md") == "/n/2021-05-06/")
        let summary = try #require(report.oldSite)
        #expect(summary.urls == urls.count - 1 && summary.matched == 5, "the home page is no old URL of an item")
        #expect(summary.unmatched == ["/gone-post/"], "lists and the home page are Lectern's own: \(summary.unmatched)")
    }

    @Test func theOldSitesBuiltPagesAreMatchedByTitleWhenNothingElseFits() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lectern-old-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        for (path, html) in [("archives/123/index.html", "<html><head><title>A title | Blog</title><meta property=\"og:title\" content=\"A Title!\"></head><body></body></html>"),
                             ("old-alias/index.html", "<html><head><meta http-equiv=\"refresh\" content=\"0; url=/x/\"></head></html>")] {
            let url = folder.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try html.write(to: url, atomically: true, encoding: .utf8)
        }
        let old = try OldSite.read(folder)
        #expect(old.pages == [OldSite.Page(path: "/archives/123/", title: "A Title!")], "redirect pages are not pages")
        var item = ImportedItem(kind: .post, origin: "x.md", body: .markdown("Words."))
        item.title = "A title"
        item.link = "/2020/a-guess/"
        var items = [item]
        let result = OldSiteMatcher.match(&items, site: old)
        #expect(items[0].link == "/archives/123/" && result.matched == 1 && result.unmatched.isEmpty)
    }

    /// The files a blog ships move in with it: linked on the old site's own address, from a
    /// section of the content folder, as a download, or from inside another post's bundle.
    @Test func theBlogsOwnFilesMoveIn() async throws {
        let site = try ImportTestSite()
        defer { site.remove() }
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("lectern-files-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        func write(_ path: String, _ text: String) throws {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: url, atomically: false, encoding: .utf8)
        }
        try write("hugo.toml", "baseURL = 'https://www.old.example/'\n[permalinks]\nposts = '/posts/:year/:slug/'\n")
        try write("content/posts/bundle/index.md", "---\ntitle: Bundle\ndate: 2020-01-02\n---\n![A](shot.png)\n")
        try write("content/posts/bundle/shot.png", "png")
        try write("content/posts/other.md", """
            ---
            title: Other
            date: 2021-01-01T00:30:00+02:00
            ---
            ![On the old host](https://old.example/images/host.png) and <img src="/notes/section.png">
            [the slides](/files/talk.pdf), [a site](example.org), <img src="/posts/2020/bundle/shot.png">

            ![Spaced](/images/my%20photo.png#top)

            ```
            ![in code](/images/host.png) stays as written
            ```
            """)
        try write("static/images/my photo.png", "png")
        try write("content/posts/2022-05-01/_index.md", "---\ntitle: A section alone\ndate: 2022-05-01\n---\nServed as a page.\n")
        try write("content/posts/2022-05-01/feature.png", "png")
        try write("content/quotes/carmack.md", "+++\nauthor = \"John Carmack\"\n+++\nA quote, without a date.\n")
        try write("static/images/host.png", "png")
        try write("content/notes/section.png", "png")
        try write("static/files/talk.pdf", "pdf")
        let report = try await Importer(options: site.options).run(source: root.path)
        #expect(report.failure == nil, "\(report.text)")
        let other = try #require(report.items.first { $0.title == "Other" })
        #expect(other.oldURL == "/posts/2021/other/", "the year of the date's own offset, as Hugo wrote it")
        let alone = try #require(report.items.first { $0.title == "A section alone" })
        #expect(alone.outcome == .post && alone.oldURL == "/posts/2022-05-01/", "a section with no page below it is a page")
        let quote = try #require(report.items.first { $0.origin == "content/quotes/carmack.md" })
        #expect(quote.outcome == .page && quote.oldURL == "/quotes/carmack/", "a dateless file is a page")
        let text = try site.read(try #require(other.file))
        #expect(text.contains("![On the old host](/images/host.png)") && site.exists("static/images/host.png"))
        #expect(text.contains("<img src=\"/notes/section.png\">") && site.exists("static/notes/section.png"))
        #expect(text.contains("[the slides](/files/talk.pdf)") && site.exists("static/files/talk.pdf"))
        #expect(text.contains("[a site](example.org)") && !other.warnings.contains { $0.contains("example.org") }, "an address, not a file")
        #expect(text.contains("<img src=\"/2020/bundle/shot.png\">"), "the bundle's file under its new URL: \(text)")
        #expect(text.contains("![Spaced](/images/my%20photo.png#top)") && site.exists("static/images/my photo.png"), "\(text)")
    }

    /// What an attacker's or a careless source hands over: tags that never close, paths with
    /// spaces, a sitemap's list pages, a site under a base path.
    @Test func hostileAndAwkwardShapes() throws {
        // Unclosed tags by the thousand: converted in well under a second, not minutes.
        let started = Date()
        var shortcodes = Shortcodes(flavor: .eleventy, resolve: { _ in nil })
        _ = shortcodes.convert(String(repeating: "{% x \".png\" ", count: 2_000) + String(repeating: "{% x \"a\" ", count: 2_000))
        #expect(Date().timeIntervalSince(started) < 5, "backtracking: \(Date().timeIntervalSince(started)) s")
        // Openers of paired tags that never close, each kind by the thousand, in one post.
        let openers = ["{% raw %} ", "{% comment %} ", "{% highlight go %}\n", "{{< highlight go >}}\n", "{{< x.inline >}} ",
                       "{% callout \"t\" %} ", "{{< figure src=\"a.png\" "]
        for opener in openers {
            let again = Date()
            var converter = Shortcodes(flavor: .hugo, resolve: { _ in nil })
            _ = converter.convert(String(repeating: opener + "words ", count: 2_000))
            #expect(Date().timeIntervalSince(again) < 5, "\(opener): \(Date().timeIntervalSince(again)) s")
        }
        // The image a tag names is its first quoted argument that is an image, not a name across quotes.
        var include = Shortcodes(flavor: .eleventy, resolve: { _ in nil })
        #expect(!include.convert("{% include \"figure.html\" image=\"a.png\" %}").contains("](figure.html)"))

        // An alias with a space is a path with %20 (one word in the redirects file).
        #expect(try Permalinks.normalized(alias: "/Hello, World/").get() == "/Hello,%20World/")

        // A built folder of a site under /blog: its paths get the prefix, and list pages are no item's.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lectern-old-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        for path in ["x/index.html", "tags/swift/index.html"] {
            let url = folder.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try "<html><head><title>Swift</title></head><body><h1>Swift</h1></body></html>".write(to: url, atomically: true, encoding: .utf8)
        }
        let old = try OldSite.read(folder, basePath: "/blog")
        #expect(old.pages.map(\.path) == ["/blog/tags/swift/", "/blog/x/"])
        var first = ImportedItem(kind: .post, origin: "a.md", body: .markdown(""))
        first.link = "/blog/x/"
        var second = ImportedItem(kind: .post, origin: "b.md", body: .markdown(""))
        second.title = "Swift"
        second.link = "/blog/guess/"
        second.linkFromRule = true
        var items = [first, second]
        let result = OldSiteMatcher.match(&items, site: old, dropUnmatched: true)
        #expect(items[0].link == "/blog/x/" && result.matched == 1)
        #expect(items[1].link == nil, "a tag page is Lectern's own, and the rule's guess was never served")
        // A stated URL is kept even when the old site does not list it.
        var stated = ImportedItem(kind: .post, origin: "c.md", body: .markdown(""))
        stated.link = "/blog/stated/"
        var kept = [stated]
        _ = OldSiteMatcher.match(&kept, site: old, dropUnmatched: true)
        #expect(kept[0].link == "/blog/stated/")
    }

    @Test func eleventyPermalinksAreEvaluatedOrLeftUnknown() {
        func url(_ permalink: Any?, _ path: String = "blog/2020-01-05-hello.md") -> EleventyPermalink.Outcome {
            var data: [String: Any] = ["title": "Hello, World"]
            if let permalink { data["permalink"] = permalink }
            return EleventyPermalink.url(for: .init(inputPath: path, date: Date(timeIntervalSince1970: 1_578_225_600), data: data))
        }
        #expect(url(nil) == .url("/blog/2020-01-05-hello/"), "the default keeps the file name")
        #expect(url(nil, "blog/hello/index.md") == .url("/blog/hello/") && url(nil, "blog/hello/hello.md") == .url("/blog/hello/"))
        #expect(url("/{{ page.fileSlug }}/") == .url("/hello/"))
        #expect(url("posts/{{ title | slugify }}/index.html") == .url("/posts/hello-world/"))
        #expect(url("/{{ page.date | date: '%Y/%m/%d' }}/{{ page.fileSlug }}.html") == .url("/2020/01/05/hello.html"))
        #expect(url("/{{ page.date | dateToFormat(\"yyyy/LL\") }}/{{ page.fileSlug }}/") == .url("/2020/01/hello/"))
        #expect(url(false) == .notPublished)
        #expect(url("/{{ page.date | readableDate }}/") == .unknown("{{ page.date | readableDate }}"))
        #expect(EleventyPermalink.fileSlug("posts/x/2017-03-08-index.md") == "x", "the date first, then index is its folder")
        let arrow = EleventyScriptData("module.exports = { permalink: (data) => `/b/${data.page.fileSlug}/` }")
        guard case .template("/b/{{ page.fileSlug }}/", computed: false) = arrow.permalink else {
            Issue.record("an arrow permalink outside eleventyComputed is read as the data's: \(arrow.permalink)")
            return
        }
        // A comment line does not hide the rest of the file.
        let commented = EleventyScriptData("// posts\nmodule.exports = {\n  // the collection\n  tags: ['posts'],\n  permalink: '/p/{{ page.fileSlug }}/',\n};\n")
        #expect(commented.fields["tags"] as? [String] == ["posts"])
        guard case .template("/p/{{ page.fileSlug }}/", computed: false) = commented.permalink else {
            Issue.record("the permalink after a comment is read: \(commented.permalink)")
            return
        }
        // `eleventyComputed` closed before the permalink: not computed.
        if case .template(_, let computed) = EleventyScriptData("x = { eleventyComputed: { title: 'T' }, permalink: '/a/' }").permalink {
            #expect(!computed)
        }
        #expect(EleventyPermalink.fileSlug("posts/2018-01-01-x/index.md") == "x", "the folder's date goes too")
        if case .template(let template, let computed) = EleventyScriptData("export default { eleventyComputed: { permalink: d => `/b/${d.title}/` } }").permalink {
            #expect(template == "/b/{{ title }}/" && computed)
        } else {
            Issue.record("an arrow function returning a template literal is read")
        }
    }
}
