import BlogModel
import Foundation
@testable import Import
import Site
import Testing

/// The shapes real blogs brought that the importer lost: markdown-it footnotes, heading
/// self-links, embeds, WXR 1.2 with its https namespace, Hugo's `series` and relative aliases,
/// files a post links but the source lacks; and an import that stops writes nothing.
@Suite struct MovingInTests {
    func markdown(_ html: String) -> HTMLToMarkdown.Result { HTMLToMarkdown.convert(html) }

    @Test func markdownItFootnotesBecomeMarkdownFootnotes() {
        // Eleventy's markdown-it-footnote output, as a programmer's blog feed carries it.
        let html = """
        <p>Ownership moves<sup class="footnote-reference" id="fnref1"><a href="#1">[1]</a></sup> and borrows.</p>
        <hr class="footnotes-sep">
        <section class="footnotes"><div id="1" class="footnote-item"><p>Unless the type is <code>Copy</code>. \
        <a href="#fnref1" class="footnote-backref">↩</a></p></div></section>
        """
        let result = markdown(html).markdown
        #expect(result.contains("Ownership moves[^1] and borrows."))
        #expect(result.contains("[^1]: Unless the type is `Copy`."))
        #expect(!result.contains("#1") && !result.contains("↩") && !result.contains("footnote"))
        let page = MarkdownRenderer.render(result).html
        #expect(page.contains("data-footnote-ref"))
    }

    @Test func headingSelfLinksAreDropped() {
        let html = """
        <h2 id="why">Why <a class="header-anchor" aria-hidden="true" href="#why">#</a></h2>
        <h3 id="how"><a href="#how">How it works</a></h3>
        <h3 id="s">See <a href="https://docs.example/x">the docs</a> <a href="#s">¶</a></h3>
        """
        let result = markdown(html).markdown
        #expect(result.contains("## Why\n"))
        #expect(result.contains("### How it works\n"))
        #expect(result.contains("### See [the docs](https://docs.example/x)"))
        #expect(!result.contains("(#"))
    }

    @Test func embedsBecomeLabelledLinksAndAreReported() {
        let html = """
        <p>Watch:</p><iframe width="560" src="https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ?rel=0"></iframe>
        <figure><iframe src="" width="0" height="0" frameborder="0" scrolling="no">\
        <a href="https://medium.com/media/8a7b6c/href">https://medium.com/media/8a7b6c/href</a></iframe></figure>
        <script src="https://gist.github.com/lena/0a1b2c3d.js"></script>
        <figure class="wp-block-embed is-type-rich is-provider-twitter wp-block-embed-twitter"><div class="wp-block-embed__wrapper">
        https://twitter.com/lena/status/1234567890
        </div></figure>
        <iframe src=""></iframe>
        <p>After.</p>
        """
        let result = markdown(html)
        #expect(result.markdown.contains("[Video on YouTube](https://www.youtube.com/watch?v=dQw4w9WgXcQ)"))
        #expect(result.markdown.contains("[Embedded media on Medium](https://medium.com/media/8a7b6c/href)"))
        #expect(result.markdown.contains("[Code on GitHub Gist](https://gist.github.com/lena/0a1b2c3d)"))
        #expect(result.markdown.contains("[Post on X](https://twitter.com/lena/status/1234567890)"))
        #expect(!result.markdown.contains("<iframe") && !result.markdown.contains("<script"))
        #expect(result.markdown.hasSuffix("After.\n"))
        #expect(result.warnings.count == 5)
        #expect(result.warnings.contains("an empty <iframe> (no address to link to) was removed"))
        #expect(Embeds.link(for: "https://cdn.embedly.com/widgets/media.html?src=https%3A%2F%2Fcodepen.io%2Flena%2Fembed%2FxYzAbC")
                == Embeds.Link(url: "https://codepen.io/lena/pen/xYzAbC", label: "Pen on CodePen"))
        #expect(Embeds.link(for: "https://player.vimeo.com/video/76979871?h=8272103f6e")?.url == "https://vimeo.com/76979871")
    }

    /// WXR 1.2 as the WordPress theme unit test data declares it (https namespaces), with what its
    /// posts carry: several categories, a gallery of attachments with alt text and captions, a
    /// scheduled post, a classic-editor embed on a line of its own.
    static let wxr = """
    <?xml version="1.0" encoding="UTF-8" ?>
    <rss version="2.0" xmlns:excerpt="https://wordpress.org/export/1.2/excerpt/"
        xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:wfw="http://wellformedweb.org/CommentAPI/"
        xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:wp="https://wordpress.org/export/1.2/">
    <channel>
      <title>Theme Unit Test</title><link>https://wpthemetestdata.example</link>
      <wp:wxr_version>1.2</wp:wxr_version><wp:base_site_url>https://wpthemetestdata.example</wp:base_site_url>
      <item>
        <title>Gallery image one</title><link>https://wpthemetestdata.example/?attachment_id=11</link>
        <wp:post_id>11</wp:post_id><wp:post_parent>20</wp:post_parent><wp:post_type><![CDATA[attachment]]></wp:post_type>
        <wp:status>inherit</wp:status><excerpt:encoded><![CDATA[Sunrise over the bay]]></excerpt:encoded>
        <wp:attachment_url><![CDATA[https://wpthemetestdata.example/wp-content/uploads/2013/03/bay.jpg]]></wp:attachment_url>
        <wp:postmeta><wp:meta_key>_wp_attachment_image_alt</wp:meta_key><wp:meta_value><![CDATA[A bay at dawn]]></wp:meta_value></wp:postmeta>
      </item>
      <item>
        <title>Gallery image two</title><link>https://wpthemetestdata.example/?attachment_id=12</link>
        <wp:post_id>12</wp:post_id><wp:post_parent>20</wp:post_parent><wp:post_type><![CDATA[attachment]]></wp:post_type>
        <wp:status>inherit</wp:status><excerpt:encoded><![CDATA[]]></excerpt:encoded>
        <wp:attachment_url><![CDATA[https://wpthemetestdata.example/wp-content/uploads/2013/03/dunes.jpg]]></wp:attachment_url>
        <wp:postmeta><wp:meta_key>_wp_attachment_image_alt</wp:meta_key><wp:meta_value><![CDATA[Sand dunes]]></wp:meta_value></wp:postmeta>
      </item>
      <item>
        <title>Post Format: Gallery</title><link>https://wpthemetestdata.example/2010/09/10/post-format-gallery/</link>
        <pubDate>Fri, 10 Sep 2010 14:24:14 +0000</pubDate>
        <category domain="category" nicename="post-formats"><![CDATA[Post Formats]]></category>
        <category domain="category" nicename="cat-a"><![CDATA[Cat A]]></category>
        <category domain="post_tag" nicename="gallery"><![CDATA[gallery]]></category>
        <content:encoded><![CDATA[The gallery:

    [gallery ids="11,99,12"]

    [audio https://wpthemetestdata.example/wp-content/uploads/2008/06/blues.mp3]

    And a video:

    https://www.youtube.com/watch?v=nwe-H6l4beM

    The end.]]></content:encoded>
        <excerpt:encoded><![CDATA[]]></excerpt:encoded>
        <wp:post_id>20</wp:post_id><wp:post_date>2010-09-10 07:24:14</wp:post_date><wp:post_date_gmt>2010-09-10 14:24:14</wp:post_date_gmt>
        <wp:post_name>post-format-gallery</wp:post_name><wp:status>publish</wp:status><wp:post_type>post</wp:post_type>
      </item>
      <item>
        <title>Scheduled</title><link>https://wpthemetestdata.example/?p=30</link>
        <content:encoded><![CDATA[This post is scheduled.]]></content:encoded>
        <wp:post_id>30</wp:post_id><wp:post_date>2040-01-01 10:00:00</wp:post_date><wp:post_date_gmt>2040-01-01 10:00:00</wp:post_date_gmt>
        <wp:post_name>scheduled</wp:post_name><wp:status>future</wp:status><wp:post_type>post</wp:post_type>
      </item>
    </channel>
    </rss>
    """

    @Test func wxrWithHTTPSNamespacesKeepsWhatThePostsCarry() async throws {
        let site = try ImportTestSite()
        defer { site.remove() }
        let file = site.root.appendingPathComponent("../wxr-\(UUID().uuidString).xml").standardizedFileURL
        try Data(Self.wxr.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let report = try await Importer(options: site.options).run(source: file.path)
        #expect(report.failure == nil, "\(report.text)")
        #expect(report.kind == .wordpress)
        let gallery = try site.read("content/posts/2010-09-10-post-format-gallery.md")
        #expect(gallery.contains("category: Post Formats\ntags: [Cat A, gallery]"))
        #expect(gallery.contains("![A bay at dawn](https://wpthemetestdata.example/wp-content/uploads/2013/03/bay.jpg)"))
        #expect(gallery.contains("<figcaption>Sunrise over the bay</figcaption>"))
        #expect(gallery.contains("![Sand dunes](https://wpthemetestdata.example/wp-content/uploads/2013/03/dunes.jpg)"))
        #expect(gallery.contains("[Video on YouTube](https://www.youtube.com/watch?v=nwe-H6l4beM)"))
        let item = try #require(report.items.first { $0.title == "Post Format: Gallery" })
        #expect(item.warnings.contains { $0.contains("Cat A became tags") })
        #expect(item.warnings.contains { $0.contains("attachment 99 not in the export") })
        #expect(gallery.contains("<audio controls=\"\" src=\"https://wpthemetestdata.example/wp-content/uploads/2008/06/blues.mp3\">"))
        #expect(item.warnings.contains { $0.contains("became a link \"Video on YouTube\"") })
        // Scheduled: its own date, not a draft; held back by the build until then.
        let scheduled = try site.read("content/posts/2040-01-01-scheduled.md")
        #expect(scheduled.contains("date: 2040-01-01T10:00:00+00:00") && !scheduled.contains("draft"))
        let content = try ContentLoader(root: site.root, timeZone: TimeZone(identifier: "UTC")!).load(includeDrafts: false)
        #expect(!content.posts.contains { $0.slug == "scheduled" })
    }

    @Test func hugoSeriesAliasesAndMissingFiles() async throws {
        let site = try ImportTestSite()
        defer { site.remove() }
        let hugo = FileManager.default.temporaryDirectory.appendingPathComponent("hugo-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: hugo) }
        func write(_ path: String, _ text: String) throws {
            let url = hugo.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        try write("hugo.toml", "baseURL = \"https://old.example/\"\ntitle = \"Old\"\n")
        try write("content/post/_index.md", "---\ntitle: Posts\n---\nThe list.\n")
        try write("content/post/one.md", """
        ---
        Title: One
        Date: 2021-02-03
        Series: Building a shed
        aliases: [old-one, /2021/02/one.html]
        ---
        ![The plan](/images/plan.png) and ![](/Users/me/Desktop/shot.png) and ![kept](/images/kept.png)

        ![A chart](</images/my chart.png> 'The chart') and [![Shot](/images/shot.png)](/images/shot.png)

        ![By reference][diagram] and [a link by reference][page] and ![click](javascript:alert(1))

        [diagram]: /images/diagram.svg "Flow"
        [page]: /about/
        """)
        try write("content/post/two.md", "+++\ntitle = \"Two\"\ndate = 2021-03-04\nseries = [\"Building a shed\", \"Other\"]\n+++\nBody.\n")
        try write("static/images/kept.png", "png")
        try write("content/docker.html", """
        <!DOCTYPE html>
        <html><head><title>Docker for Beginners</title><style>body { color: red }</style></head>
        <body><h1>Docker</h1><p>Containers, step by step.</p><script>hljs.initHighlighting()</script></body></html>
        """)
        let report = try await Importer(options: site.options).run(source: hugo.path)
        #expect(report.failure == nil, "\(report.text)")
        #expect(report.items.contains { $0.origin.hasSuffix("_index.md") && $0.outcome == .skipped })
        let one = try site.read("content/posts/2021-02-03-one.md")
        #expect(one.contains("series: Building a shed"))
        #expect(one.contains("/post/old-one") && one.contains("/2021/02/one.html"))
        #expect(one.contains("![The plan](<https://old.example/images/plan.png>)"))
        #expect(one.contains("![](<https://old.example/Users/me/Desktop/shot.png>)"))
        #expect(one.contains("![A chart](<https://old.example/images/my%20chart.png> 'The chart')"))
        #expect(one.contains("[![Shot](<https://old.example/images/shot.png>)](/images/shot.png)"))
        #expect(one.contains("[diagram]: <https://old.example/images/diagram.svg> \"Flow\""))
        #expect(one.contains("[page]: /about/"), "a link's definition is not an image's")
        #expect(one.contains("![click](javascript:alert(1))"), "a scheme names no file: left alone, never made a link")
        #expect(one.contains("![kept](/images/kept.png)") && site.exists("static/images/kept.png"))
        let item = try #require(report.items.first { $0.title == "One" })
        #expect(item.warnings.filter { $0.contains("is not in the source") }.count == 5)
        #expect(try site.read("content/posts/2021-03-04-two.md").contains("series: Building a shed"))
        #expect(!item.warnings.contains { $0.contains("front matter not imported") }, "Hugo reads keys in any case")
        let docker = try #require(report.items.first { $0.title == "Docker for Beginners" })
        let page = try site.read(try #require(docker.file))
        #expect(page.contains("Containers, step by step.") && !page.contains("hljs") && !page.contains("color: red"))
        #expect(docker.warnings.contains { $0.contains("its <head> and 1 <script>/<style>") })
        try site.build()
    }

    /// What a hostile or careless source may carry never reaches a page as markup that runs.
    @Test func unsafeMarkupAndHeadingsAndCaptions() throws {
        let html = """
        <h2 id="go"><a class="heading-anchor" href="#go">Go</a></h2>
        <p onclick="steal()">Text <a href="javascript:alert(1)">click</a> <a href=" JaVa\tScript:alert(2)">two</a>
        <a href="/relative/ok">fine</a> <a href="mailto:a@b.example">mail</a></p>
        <svg><script>alert(3)</script></svg><base href="https://evil.example/"><meta http-equiv="refresh" content="0;url=https://evil.example">
        <details open ontoggle="alert(4)"><summary>More</summary>Inside</details>
        <object data="javascript:alert(5)"></object><img src="data:image/svg+xml,<svg onload=alert(6)>" alt="x">
        """
        let result = HTMLToMarkdown.convert(html)
        #expect(result.markdown.contains("## Go"), "a heading that is all link keeps its words")
        for bad in ["javascript", "JaVa", "onclick", "ontoggle", "<script", "<base", "<meta", "<object", "data:image", "alert("] {
            #expect(!result.markdown.contains(bad), "\(bad) in \(result.markdown)")
        }
        #expect(result.markdown.contains("[fine](/relative/ok)") && result.markdown.contains("mailto:a@b.example"))
        #expect(result.markdown.contains("Inside"))
        #expect(result.removed.contains { $0.hasPrefix("<script>") } && result.removed.contains { $0.hasPrefix("onclick") })

        // A quote with a combining mark is one Swift character, and still a quote to a browser.
        let combining = HTMLToMarkdown.convert("<p><kbd title=\"x&quot;&#x301; onmouseover=alert(1)\">hi</kbd></p>").markdown
        #expect(combining.contains("&quot;\u{301} onmouseover") && !combining.contains("\"\u{301} onmouseover"), "\(combining)")

        var warnings: [String] = []
        var content = WordPressContent()
        content.attachments = ["7": WordPressContent.Attachment(url: "https://wp.example/a.jpg", alt: "A", caption: "Sunset <!-- at the beach")]
        let page = content.html(from: "[gallery ids=\"7\"]\n\nAfter the gallery.", postID: "1", warnings: &warnings)
        let rendered = MarkdownRenderer.render(HTMLToMarkdown.convert(page).markdown).html
        #expect(rendered.contains("After the gallery.") && rendered.contains("<figcaption>Sunset"), "\(rendered)")

        var shortcodes = Shortcodes(flavor: .hugo, resolve: { _ in nil })
        let embed = shortcodes.convert("{{< youtube id=\"x)](javascript:alert(1)\" >}}")
        #expect(!MarkdownRenderer.render(embed).html.contains("href=\"javascript"), "\(embed)")
    }

    /// A Zola blog whose posts sit in the root section, sorted by date (`content/_index.md`).
    @Test func zolaRootSectionPostsArePosts() async throws {
        let site = try ImportTestSite()
        defer { site.remove() }
        let zola = FileManager.default.temporaryDirectory.appendingPathComponent("zola-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: zola) }
        for (path, text) in [("config.toml", "base_url = \"https://z.example\"\n[taxonomies]\n"),
                             ("content/_index.md", "+++\nsort_by = \"date\"\n+++\n"),
                             ("content/b-tree.md", "+++\ntitle = \"B 树\"\ndate = 2020-09-10 19:29:43\n[taxonomies]\ntags = [\"db\"]\n+++\nText.\n"),
                             ("content/now.md", "+++\ntitle = \"Now\"\n+++\nThis month.\n"),
                             ("content/tunnel/index.md", "+++\ntitle = \"Tunnel\"\ndate = 2023-05-05\n+++\n{{ figure(img=\"cf.png\", caption=\"The tunnel\") }}\n"),
                             ("content/tunnel/cf.png", "png")] {
            let url = zola.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        let report = try await Importer(options: site.options).run(source: zola.path)
        #expect(report.failure == nil && report.kind == .zola, "\(report.text)")
        #expect(report.items.first { $0.title == "B 树" }?.outcome == .post)
        #expect(report.items.first { $0.title == "Now" }?.outcome == .page)
        let post = try #require(report.items.first { $0.title == "B 树" }?.file)
        #expect(try site.read(post).contains("tags: [db]"))
        let tunnel = try #require(report.items.first { $0.title == "Tunnel" }?.file)
        #expect(try site.read(tunnel).contains("![](cf.png)") && site.read(tunnel).contains("<figcaption>The tunnel</figcaption>"))
    }

    /// A site folder named through a symbolic link (a corpus of links, `~/blog` → elsewhere)
    /// imports as the folder itself does; it found nothing before.
    @Test func aSymlinkedSourceFolderIsRead() async throws {
        let site = try ImportTestSite()
        defer { site.remove() }
        let link = FileManager.default.temporaryDirectory.appendingPathComponent("jekyll-link-\(UUID().uuidString)")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: ImportTestSite.fixture("jekyll-site"))
        defer { try? FileManager.default.removeItem(at: link) }
        var options = site.options
        options.dryRun = true
        let direct = try await Importer(options: options).run(source: ImportTestSite.fixture("jekyll-site").path)
        let linked = try await Importer(options: options).run(source: link.path)
        #expect(linked.counts.posts == direct.counts.posts && direct.counts.posts > 0)
    }

    /// The check sees the site as the build does: posts kept elsewhere through a symbolic link,
    /// posts scheduled ahead; and an interrupted import's staging folder does not stay behind.
    @Test func theCheckSeesWhatTheBuildSees() async throws {
        let site = try ImportTestSite()
        defer { site.remove() }
        let manager = FileManager.default
        let posts = site.root.appendingPathComponent("content/posts"), kept = site.root.appendingPathComponent("writing")
        try manager.moveItem(at: posts, to: kept)
        try manager.createSymbolicLink(at: posts, withDestinationURL: kept)
        try "---\ntitle: Footnotes in static sites\ndate: 2099-01-01\n---\nLater.\n"
            .write(to: kept.appendingPathComponent("ahead.md"), atomically: true, encoding: .utf8)
        let abandoned = site.root.appendingPathComponent(".lectern-import-999999-dead")
        try manager.createDirectory(at: abandoned.appendingPathComponent("files"), withIntermediateDirectories: true)
        let report = try await site.importFixture("atom-feed.xml")
        #expect(report.failure == nil, "\(report.text)")
        #expect(!manager.fileExists(atPath: abandoned.path), "an abandoned staging folder is removed")
        #expect(try manager.contentsOfDirectory(atPath: site.root.path).allSatisfy { !$0.hasPrefix(".lectern-import-") })
        try site.build()
    }

    @Test func anImportThatWouldBreakTheSiteWritesNothing() async throws {
        let site = try ImportTestSite()
        defer { site.remove() }
        // The site has a broken post of its own: with it, no import can build.
        let broken = site.root.appendingPathComponent("content/posts/broken.md")
        try Data("---\ntitle: Broken\ndate: not a date\n---\nx\n".utf8).write(to: broken)
        let before = try FileManager.default.subpathsOfDirectory(atPath: site.root.path).sorted()
        for dryRun in [true, false] {
            let report = try await site.importFixture("programmer-blog.rss") { $0.dryRun = dryRun }
            let failure = try #require(report.failure)
            #expect(failure.contains("content/posts/broken.md:3"), "\(failure)")
            #expect(!failure.contains(".lectern-import"))
            #expect(report.writtenPosts.isEmpty)
            #expect(report.text.contains("nothing was written") && report.text.contains("post  content/posts/"))
            #expect(try FileManager.default.subpathsOfDirectory(atPath: site.root.path).sorted() == before)
        }
        // Fixed, the same import goes through: nothing of the first try is in the way.
        try FileManager.default.removeItem(at: broken)
        let report = try await site.importFixture("programmer-blog.rss")
        #expect(report.failure == nil && !report.writtenPosts.isEmpty)
        #expect(report.items.allSatisfy { $0.outcome != .skipped || $0.reason?.contains("exists") != true })
        try site.build()
    }
}
