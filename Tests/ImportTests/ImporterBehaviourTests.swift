import BlogModel
import Foundation
@testable import Import
import Site
import Testing

/// A downloader that serves fixed bytes for known URLs and fails for the rest.
struct FakeDownloader: ImageDownloader {
    var files: [String: [UInt8]]

    struct NotFound: Error, CustomStringConvertible {
        var description: String { "HTTP 404" }
    }

    func download(_ url: String) async throws -> [UInt8] {
        guard let bytes = files[url] else { throw NotFound() }
        return bytes
    }
}

@Suite struct ImporterBehaviourTests {
    static let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 1, 2, 3]

    /// A one-item RSS feed written to a temporary file.
    func feed(_ items: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("feed-\(UUID().uuidString).xml")
        let xml = """
        <?xml version="1.0"?><rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/">
        <channel><title>T</title><link>https://old.example/</link>\(items)</channel></rss>
        """
        try Data(xml.utf8).write(to: url)
        return url
    }

    func item(_ title: String, link: String, date: String = "Tue, 14 May 2019 09:30:00 +0000", html: String = "<p>Hi.</p>") -> String {
        "<item><title>\(title)</title><link>\(link)</link><pubDate>\(date)</pubDate><content:encoded><![CDATA[\(html)]]></content:encoded></item>"
    }

    @Test func neverOverwrites() async throws {
        let site = try ImportTestSite()
        defer { site.remove() }
        let source = try feed(item("My Post", link: "https://old.example/2019/05/my-post/"))
        let first = try await Importer(options: site.options).run(source: source.path)
        #expect(first.items.map(\.outcome) == [.post])
        let file = try #require(first.items[0].file)
        try Data("hand edited".utf8).write(to: site.root.appendingPathComponent(file))
        let second = try await Importer(options: site.options).run(source: source.path)
        #expect(second.items[0].outcome == .skipped)
        #expect(second.items[0].reason?.contains("already") == true)
        #expect(try site.read(file) == "hand edited")
        #expect(second.writtenPosts.isEmpty)
    }

    @Test func existingURLsAreNotTaken() async throws {
        let site = try ImportTestSite()
        defer { site.remove() }
        // The scaffold has /2025/a-tour-of-markdown-tables-footnotes-more/ (and a page at /about/).
        let source = try feed(item("Tour", link: "https://old.example/2025/06/a-tour-of-markdown-tables-footnotes-more/",
                                   date: "Sun, 01 Jun 2025 10:00:00 +0000")
                              + item("Twin", link: "https://old.example/a/twin/") + item("Twin", link: "https://old.example/b/twin/"))
        let report = try await Importer(options: site.options).run(source: source.path)
        #expect(report.items[0].outcome == .skipped)
        #expect(report.items[0].reason
                == "/2025/a-tour-of-markdown-tables-footnotes-more/ is already used by content/posts/2025-02-03-markdown-tour.md")
        // Two imported items with one slug: the second gets a suffix and a warning.
        #expect(report.items[1].url == "/2019/twin/" && report.items[2].url == "/2019/twin-2/")
        #expect(report.items[2].aliases == ["/b/twin/"])
        #expect(report.items[2].warnings.contains { $0.contains("/2019/twin-2/") })
        try site.build()
    }

    @Test func dryRunWritesNothing() async throws {
        let site = try ImportTestSite()
        defer { site.remove() }
        let before = try FileManager.default.subpathsOfDirectory(atPath: site.root.path).sorted()
        for fixture in ["programmer-blog.rss", "wordpress-export.xml", "hugo-site"] {
            let report = try await site.importFixture(fixture, configure: { $0.dryRun = true; $0.downloadImages = true },
                                                      downloader: FakeDownloader(files: [:]))
            #expect(report.dryRun)
            #expect(report.items.contains { $0.outcome == .post })
            #expect(report.writtenPosts.isEmpty)
            #expect(report.text.contains("would import"))
        }
        #expect(try FileManager.default.subpathsOfDirectory(atPath: site.root.path).sorted() == before)
        // The same report as a real run, item for item.
        let dry = try await site.importFixture("atom-feed.xml") { $0.dryRun = true }
        let real = try await site.importFixture("atom-feed.xml")
        #expect(dry.items == real.items)
        #expect(real.writtenPosts.count == 5)
    }

    @Test func jsonReportSchema() async throws {
        let site = try ImportTestSite()
        defer { site.remove() }
        let report = try await site.importFixture("wordpress-export.xml")
        let json = try #require(try JSONSerialization.jsonObject(with: try report.jsonData()) as? [String: Any])
        #expect(Set(json.keys) == ["schema", "source", "kind", "dryRun", "items", "warnings", "copied"])
        #expect(json["schema"] as? Int == 1 && json["kind"] as? String == "wordpress" && json["dryRun"] as? Bool == false)
        let items = try #require(json["items"] as? [[String: Any]])
        #expect(items.count == 10)
        let post = try #require(items.first { $0["outcome"] as? String == "post" })
        #expect(Set(post.keys) == ["origin", "title", "outcome", "file", "url", "aliases", "oldURL", "draft", "images", "warnings", "removed"])
        let skipped = try #require(items.first { $0["outcome"] as? String == "skipped" })
        #expect(skipped["reason"] is String && skipped["file"] == nil)
        #expect(Set(items.compactMap { $0["outcome"] as? String }) == ["post", "page", "skipped"])
        // It decodes back to the same report.
        #expect(try JSONDecoder().decode(ImportReport.self, from: try report.jsonData()) == report)
    }

    @Test func downloadsImagesThroughTheDownloader() async throws {
        let site = try ImportTestSite()
        defer { site.remove() }
        let html = """
        <p><img src="https://cdn.example/max/1024/1*AbC.PNG" alt="one"></p>
        <figure><img src="/uploads/diagram" alt="two"><figcaption>Cap</figcaption></figure>
        <p><img src="https://cdn.example/missing.png" alt="three"></p>
        """
        let source = try feed(item("Pictures", link: "https://old.example/2019/05/pictures/", html: html))
        var options = site.options
        options.downloadImages = true
        let downloader = FakeDownloader(files: ["https://cdn.example/max/1024/1*AbC.PNG": Self.png,
                                                "https://old.example/uploads/diagram": Self.png])
        let report = try await Importer(options: options, downloader: downloader).run(source: source.path)
        let item = try #require(report.items.first)
        #expect(item.images.map(\.file) == ["static/2019/pictures/1-abc.png", "static/2019/pictures/diagram.png", nil])
        #expect(item.images.last?.error?.contains("HTTP 404") == true)
        #expect(site.exists("static/2019/pictures/1-abc.png") && site.exists("static/2019/pictures/diagram.png"))
        let text = try site.read(item.file!)
        #expect(text.contains("![one](/2019/pictures/1-abc.png)"))
        #expect(text.contains("![two](/2019/pictures/diagram.png)"))
        #expect(text.contains("![three](https://cdn.example/missing.png)"))  // failed: kept absolute
        try site.build()
        #expect(site.exists("public/2019/pictures/1-abc.png"))
    }

    @Test func withoutTheFlagImagesStayAbsolute() async throws {
        let site = try ImportTestSite()
        defer { site.remove() }
        let source = try feed(item("Pictures", link: "https://old.example/2019/05/pictures/",
                                   html: "<p><img src=\"/uploads/a.png\" alt=\"a\"></p>"))
        let report = try await Importer(options: site.options, downloader: FakeDownloader(files: [:])).run(source: source.path)
        #expect(report.items[0].images.isEmpty)
        #expect(try site.read(report.items[0].file!).contains("![a](https://old.example/uploads/a.png)"))
    }

    @Test func downloadsImagesInMarkdownSources() async throws {
        let site = try ImportTestSite()
        defer { site.remove() }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("hugo-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("content/posts"), withIntermediateDirectories: true)
        try Data("baseURL = \"https://h.example/\"\n".utf8).write(to: folder.appendingPathComponent("hugo.toml"))
        try Data("+++\ntitle = \"Remote\"\ndate = 2020-01-02\nimage = \"https://img.example/cover.jpg\"\n+++\n![x](https://img.example/a.gif)\n<img src=\"https://img.example/a.gif\">\n".utf8)
            .write(to: folder.appendingPathComponent("content/posts/remote.md"))
        var options = site.options
        options.downloadImages = true
        let downloader = FakeDownloader(files: ["https://img.example/a.gif": Array("GIF89a".utf8),
                                                "https://img.example/cover.jpg": [0xFF, 0xD8, 0xFF, 0xE0]])
        let report = try await Importer(options: options, downloader: downloader).run(source: folder.path)
        let text = try site.read(try #require(report.items.first?.file))
        #expect(text.contains("image: /2020/remote/cover.jpg"))
        #expect(text.contains("![x](/2020/remote/a.gif)\n<img src=\"/2020/remote/a.gif\">"))
    }

    @Test func bundleFilesCanGoToStatic() async throws {
        let site = try ImportTestSite()
        defer { site.remove() }
        let report = try await site.importFixture("zola-site") { $0.bundleAssets = .staticFolder }
        let bundle = try #require(report.items.first { $0.origin.hasSuffix("colocated-assets/index.md") })
        #expect(bundle.file == "content/posts/2022-07-08-colocated-assets.md")
        #expect(site.exists("static/2022/colocated-assets/ferris.png"))
        try site.build()
        #expect(site.exists("public/2022/colocated-assets/ferris.png"))
    }

    @Test func intoAnotherFolder() async throws {
        let site = try ImportTestSite()
        defer { site.remove() }
        let report = try await site.importFixture("medium-feed.rss") { $0.postsFolder = "content/posts/medium" }
        #expect(report.writtenPosts.allSatisfy { $0.hasPrefix("content/posts/medium/") })
        #expect(report.writtenPosts.count == 4)
    }

    @Test func missingOrUnknownSourcesThrow() async throws {
        let site = try ImportTestSite()
        defer { site.remove() }
        await #expect(throws: ImportError.self) { try await Importer(options: site.options).run(source: "/no/such/file.xml") }
        await #expect(throws: ImportError.noDownloader) { try await Importer(options: site.options).run(source: "https://x.example/feed") }
        let junk = FileManager.default.temporaryDirectory.appendingPathComponent("junk-\(UUID().uuidString).xml")
        try Data("<rss><channel><item>".utf8).write(to: junk)
        await #expect(throws: ImportError.self) { try await Importer(options: site.options).run(source: junk.path) }
    }

    @Test func sloppyFeedsStillParse() async throws {
        let site = try ImportTestSite()
        defer { site.remove() }
        // An HTML entity XML does not know, and a control character, outside CDATA.
        let source = try feed("<item><title>Caf&eacute;&nbsp;notes\u{0B}</title><link>https://old.example/2019/cafe/</link>"
                              + "<pubDate>Tue, 14 May 2019 09:30:00 +0000</pubDate><description>&lt;p&gt;A&amp;nbsp;b&lt;/p&gt;</description></item>")
        let report = try await Importer(options: site.options).run(source: source.path)
        #expect(report.items.first?.title == "Café notes")  // whitespace in titles is folded
        #expect(report.items.first?.url == "/2019/cafe/")
    }

    @Test func feedURLsAreFetchedThroughTheDownloader() async throws {
        let site = try ImportTestSite()
        defer { site.remove() }
        let data = try Data(contentsOf: ImportTestSite.fixture("medium-feed.rss"))
        let downloader = FakeDownloader(files: ["https://medium.com/feed/@lenafischer": Array(data)])
        let report = try await Importer(options: site.options, downloader: downloader).run(source: "https://medium.com/feed/@lenafischer")
        #expect(report.kind == .rss && report.counts.posts == 4)
    }
}

/// Shortcodes and Liquid tags on their own.
@Suite struct ShortcodeTests {
    func convert(_ text: String, _ flavor: SourceKind, known: [String: String] = [:]) -> (String, [String]) {
        var shortcodes = Shortcodes(flavor: flavor) { known[$0] }
        let output = shortcodes.convert(text)
        return (output, shortcodes.warnings)
    }

    @Test func hugo() {
        let (highlight, _) = convert("{{< highlight go \"linenos=table\" >}}\nx := `a`\n{{< /highlight >}}\n", .hugo)
        #expect(highlight == "```go\nx := `a`\n```\n")
        let (figure, _) = convert("{{< figure src=\"/a.png\" alt=\"An [a]\" caption=\"Cap <b>\" >}}", .hugo)
        #expect(figure.contains("![An \\[a\\]](/a.png)") && figure.contains("<figcaption>Cap &lt;b&gt;</figcaption>"))
        let (ref, refWarnings) = convert("[a]({{< ref \"posts/a.md#x\" >}}) [b]({{< relref \"gone\" >}})", .hugo, known: ["posts/a.md": "/2020/a/"])
        #expect(ref.hasPrefix("[a](/2020/a/#x) [b](`{{< relref \"gone\" >}}`)"))
        #expect(refWarnings.count == 1)
        let (unknown, warnings) = convert("{{< tweet 123 >}}\n{{% note %}}*md*{{% /note %}}\n`{{< inline >}}`", .hugo)
        #expect(unknown.contains("[Post on X](https://twitter.com/i/status/123)"))
        #expect(unknown.contains("\n*md*\n"), "a paired tag's content stays, the tags go: \(unknown)")
        #expect(unknown.contains("`{{< inline >}}`"), "code is the writer's text")
        #expect(warnings.count == 3 && warnings.filter { $0.hasPrefix("line 2: ") && $0.hasSuffix("left out of the page") }.count == 2, "\(warnings)")
        // Hugo content keeps {{ }} (not a template there) and the escaped form becomes literal.
        #expect(convert("a {{ b }} c {{</* d */>}}", .hugo).0 == "a {{ b }} c {{< d >}}")
        // An inline shortcode is template code: all of it goes, and is said.
        let (inline, inlineWarnings) = convert("Before.\n{{< math.inline >}}\n{{ if .Params.math }}<link>{{ end }}\n{{</ math.inline >}}\nAfter.", .hugo)
        #expect(inline == "Before.\n\nAfter.", "\(inline)")
        #expect(inlineWarnings == ["line 2: math.inline is template code: left out of the page"], "\(inlineWarnings)")
    }

    @Test func jekyll() {
        let (raw, rawWarnings) = convert("{% raw %}\n{{ x }} {% if y %}\n{% endraw %}", .jekyll)
        #expect(raw == "{{ x }} {% if y %}" && rawWarnings.isEmpty)
        let (code, _) = convert("{% highlight ruby linenos %}\nputs 1 if a < b\n{% endhighlight %}", .jekyll)
        #expect(code == "```ruby\nputs 1 if a < b\n```")
        let (links, _) = convert("[a]({{ site.baseurl }}{% post_url 2019-03-02-hello %}) [b]({{ '/x/' | relative_url }})", .jekyll,
                                 known: ["2019-03-02-hello": "/2019/hello/"])
        #expect(links == "[a](/2019/hello/) [b](/x/)")
        let (fenced, fencedWarnings) = convert("```liquid\n{{ page.title }}\n```\n{{ page.title }}", .jekyll)
        #expect(fenced == "```liquid\n{{ page.title }}\n```\n" && fencedWarnings == ["line 4: {{ page.title }} has no Markdown equivalent: left out of the page"])
        #expect(convert("{% comment %}x -- y{% endcomment %}", .jekyll).0 == "<!--x - - y-->")
    }

    /// An Eleventy site read as another generator: its Nunjucks tags never show raw.
    @Test func nunjucksTagsInAnyFolder() {
        let (text, warnings) = convert("""
            See {% ref "blog/first" %} and {% previewExternal "https://example.org/a?b=1", "Card" %}.
            {% callout "note" %}Inside.{% endcallout %}
            """, .hugo, known: ["blog/first": "/2020/first/"])
        // A paired tag with a title: the title in bold, then its content (no word lost).
        #expect(text == "See /2020/first/ and <https://example.org/a?b=1>.\n\n**note**\n\nInside.\n\n", "\(text)")
        #expect(warnings.count == 2 && warnings.contains { $0.hasPrefix("line 1: ") } && warnings.contains { $0.hasPrefix("line 2: callout") },
                "\(warnings)")
        let (unknown, unknownWarnings) = convert("A {% signup %} B {% icon \"x\" %}", .eleventy)
        #expect(unknown == "A  B " && unknownWarnings.count == 2 && unknownWarnings.allSatisfy { $0.contains("left out of the page") })
    }

    @Test func zola() {
        let (text, warnings) = convert("[a](@/blog/a.md#h) {{ vimeo(id=\"42\") }} [b](@/missing.md)", .zola, known: ["blog/a.md": "/2020/a/"])
        #expect(text == "[a](/2020/a/#h) [Video on Vimeo](https://vimeo.com/42) [b](@/missing.md)")
        #expect(warnings.count == 2)
    }
}

/// WordPress's stored content on its own.
@Suite struct WordPressContentTests {
    @Test func autopAndShortcodes() {
        var warnings: [String] = []
        var content = WordPressContent()
        content.attachments = ["5": WordPressContent.Attachment(url: "https://wp.example/a.jpg", alt: "", caption: nil)]
        let html = content.html(from: "First line\nsecond line\n\n<ul>\n<li>x</li>\n</ul>\n\n[code language=\"php\"]\n<?php echo \"<b>\"; ?>\n[/code]\n\n[gallery ids=\"5\"]\n\n[sourcecode]a &amp;&amp; b[/sourcecode]\n\n[unknown-thing x=\"1\"]",
                                postID: "1", warnings: &warnings)
        let markdown = HTMLToMarkdown.convert(html).markdown
        #expect(markdown.contains("First line\\\nsecond line\n\n- x"))
        #expect(markdown.contains("```php\n<?php echo \"<b>\"; ?>\n```"))
        #expect(markdown.contains("![](https://wp.example/a.jpg)"))
        #expect(markdown.contains("```\na && b\n```"))
        #expect(markdown.contains("\\[unknown-thing x=\"1\"\\]"))
        #expect(warnings == ["shortcode [unknown-thing x=\"1\"] has no Markdown equivalent: kept as text"])
    }
}
