import Foundation
import HTMLMarkup
@testable import Import
import Site
import Testing

/// Each fixture imported into a fresh site: every item imports (or is skipped for a stated
/// reason), Lectern's own loader reads every file, the site builds, and at least 99 % of each
/// item's words (code included) are in the built page. Code blocks survive byte for byte.
@Suite struct FixtureImportTests {
    /// What one item looked like before the import.
    struct Source {
        var origin: String
        var words: [String]
        var code: [String] = []
    }

    /// Imports `fixture`, checks the outcome, builds, and compares every imported item with
    /// its source. Returns the report and the site for fixture-specific checks.
    func check(_ fixture: String, sources: [Source], expectedSkips: Set<String> = [],
               configure: (inout Importer.Options) -> Void = { _ in }) async throws -> (ImportReport, ImportTestSite) {
        let site = try ImportTestSite()
        let report = try await site.importFixture(fixture, configure: configure)
        let skipped = report.items.filter { $0.outcome == .skipped }
        #expect(Set(skipped.map(\.origin)) == expectedSkips, "skipped: \(skipped.map { "\($0.origin): \($0.reason ?? "")" })")
        let imported = report.items.filter { $0.outcome != .skipped }
        #expect(imported.count == sources.count, "\(fixture): \(imported.count) imported, \(sources.count) expected")

        // Lectern reads every written file.
        let content = try site.load()
        let loaded = Set(content.posts.map(\.sourcePath) + content.pages.map(\.sourcePath))
        for item in imported { #expect(loaded.contains(item.file ?? ""), "\(item.file ?? "?") does not load") }
        for post in content.posts where imported.contains(where: { $0.file == post.sourcePath }) {
            #expect(imported.first { $0.file == post.sourcePath }?.url == post.path)
        }

        try site.build()
        var totals = (before: 0, after: 0, kept: 0.0, minimum: 1.0)
        defer {
            print("fixture \(fixture): \(report.items.count) items, \(report.counts.posts) posts, \(report.counts.pages) pages, "
                  + "\(report.counts.skipped) skipped; words \(totals.before) before, \(totals.after) after, "
                  + "\(Int(totals.kept.rounded())) kept; lowest per-item survival \(String(format: "%.4f", totals.minimum))")
        }
        for source in sources {
            guard let item = imported.first(where: { $0.origin == source.origin }), let url = item.url else {
                Issue.record("\(fixture): \(source.origin) was not imported")
                continue
            }
            let body = try site.renderedBody(at: url)
            let after = TextMeasure.words(html: body)
            let survival = TextMeasure.survival(before: source.words, after: after)
            totals.before += source.words.count
            totals.after += after.count
            totals.kept += survival * Double(source.words.count)
            totals.minimum = min(totals.minimum, survival)
            #expect(survival >= 0.99, "\(source.origin): \(Int(survival * 100)) % of \(source.words.count) words survive")
            let codeAfter = TextMeasure.codeBlocks(html: body)
            for code in source.code {
                #expect(codeAfter.contains(code), "\(source.origin): code block changed:\n\(code)\n--- got:\n\(codeAfter.joined(separator: "\n---\n"))")
            }
        }
        return (report, site)
    }

    // MARK: Feeds and exports

    /// Sources of an RSS or Atom fixture: the HTML body of each item, with what the import drops
    /// on purpose removed first.
    func feedSources(_ fixture: String, dropping patterns: [String] = []) throws -> [Source] {
        try FeedFixture.items(ImportTestSite.fixture(fixture)).map { item in
            var html = item["content:encoded"] ?? item["content"] ?? item["description"] ?? item["summary"] ?? ""
            if item["content@type"] == "text" || (item["content"] == nil && item["summary@type"] == "text") {
                html = HTMLNode.escape(html, attribute: false)
            }
            for pattern in patterns { html = html.replacingOccurrences(of: pattern, with: " ", options: .regularExpression) }
            return Source(origin: item["link"] ?? "", words: TextMeasure.words(html: html), code: TextMeasure.codeBlocks(html: html))
        }
    }

    @Test func programmersBlogRSS() async throws {
        let sources = try feedSources("programmer-blog.rss")
        #expect(sources.count >= 15)
        #expect(sources.reduce(0) { $0 + $1.code.count } >= 17)
        let (report, site) = try await check("programmer-blog.rss", sources: sources)
        defer { site.remove() }
        let first = try #require(report.items.first)
        #expect(first.url == "/2019/ownership-in-rust-part-1/")
        #expect(first.aliases == ["/2019/05/ownership-in-rust-part-1/"])
        let part1 = try site.read(first.file!)
        #expect(part1.contains("[^1]: Dropping runs"))
        #expect(part1.contains("series: Ownership in Rust\nseriesOrder: 1"))
        // Links between imported posts point at their new URLs.
        let part6 = try site.read(report.items[5].file!)
        #expect(part6.contains("[Moves](/2019/ownership-in-rust-part-1/ \"Part 1: Moves\")"))
        // Footnotes, in both common shapes, render as Lectern's footnotes.
        let part4 = try site.renderedBody(at: "/2019/ownership-in-rust-part-4/")
        #expect(part4.contains("data-footnote-ref") && part4.contains("class=\"footnotes\""))
        #expect(!part4.contains("<hr"))
        let escaping = try site.read("content/posts/2022-03-08-escaping-html.md")
        #expect(escaping.contains("type \\<insert format>"))
        let rendered = try site.renderedBody(at: "/2022/escaping-html/")
        #expect(rendered.contains("type &lt;insert format&gt;"))
    }

    @Test func wordPressExport() async throws {
        let items = try FeedFixture.items(ImportTestSite.fixture("wordpress-export.xml"))
        var sources: [Source] = []
        var skips = Set<String>()
        for item in items {
            let type = item["wp:post_type"] ?? "post"
            guard ["post", "page"].contains(type), item["wp:status"] != "trash" else {
                skips.insert(item["link"] ?? "")
                continue
            }
            // Shortcode tags are markup, not words; [code] bodies are literal text.
            var html = item["content:encoded"] ?? ""
            var code: [String] = []
            for match in Patterns.matches(#"\[(code|sourcecode)[^\]]*\]\n?(.*?)\n?\[/\1\]"#, in: html) { code.append(match[2]) }
            html = Patterns.replace(#"\[(code|sourcecode)[^\]]*\](.*?)\[/\1\]"#, in: html) { " " + HTMLNode.escape($0[2], attribute: false) + " " }
            html = html.replacingOccurrences(of: #"\[/?(caption|gallery|embed|contact-form-7)[^\]]*\]"#, with: " ", options: .regularExpression)
            sources.append(Source(origin: item["link"] ?? "", words: TextMeasure.words(html: html),
                                  code: code + TextMeasure.codeBlocks(html: html).filter { !$0.isEmpty }))
        }
        let (report, site) = try await check("wordpress-export.xml", sources: sources, expectedSkips: skips)
        defer { site.remove() }
        #expect(report.items.filter { $0.outcome == .skipped }.count == 4)
        let reasons = report.items.compactMap(\.reason)
        #expect(reasons.filter { $0.hasPrefix("attachment") }.count == 2)
        #expect(reasons.contains { $0.contains("nav_menu_item") } && reasons.contains { $0.contains("trash") })

        let bread = try site.read("content/posts/2019-04-13-baking-bread-with-python.md")
        #expect(bread.contains("category: Programming\ntags: [Python, sourdough]"))
        #expect(bread.contains("pinned: true"))
        #expect(bread.contains("```python\nfrom datetime import datetime, timedelta"))
        #expect(bread.contains("<figcaption>The starter, two days after a feed."))
        #expect(bread.contains("![](https://kitchentable.example/wp-content/uploads/2019/04/loaf-crumb.jpg)"))
        #expect(bread.contains("\n<!-- more -->\n"))
        #expect(bread.contains("[Video on YouTube](https://www.youtube.com/watch?v=dQw4w9WgXcQ)"))
        let blocks = try site.read("content/posts/2021-06-14-block-editor-notes.md")
        #expect(blocks.contains("```go\npackage main"))
        #expect(blocks.contains("[^1]: The footnotes block arrived"))
        let draft = try #require(report.items.first { $0.title == "Half-Baked: Notes on Hydration" })
        #expect(draft.draft && draft.aliases.isEmpty && draft.url == "/2022/half-baked-notes-on-hydration/")
        let page = try #require(report.items.first { $0.outcome == .page })
        #expect(page.file == "content/pages/colophon.md" && page.url == "/colophon/")
        #expect(page.aliases == ["/about-this-site/colophon/"])
        #expect(page.warnings.contains { $0.contains("[contact-form-7") })
        #expect(report.items.contains { $0.warnings.contains("was private on WordPress: imported as a draft") })
    }

    @Test func mediumFeed() async throws {
        let footer = [#"<hr>\s*<p><a [^>]*>[^<]*</a> was originally published in .*?</p>"#, #"<p>Originally published at .*?</p>"#]
        let sources = try feedSources("medium-feed.rss", dropping: footer)
        let (report, site) = try await check("medium-feed.rss", sources: sources)
        defer { site.remove() }
        let first = try #require(report.items.first)
        #expect(first.url == "/2019/what-i-learned-shipping-a-design-system/")
        #expect(first.aliases == ["/@lenafischer/what-i-learned-shipping-a-design-system-3f2a1b9c0d1e"])
        #expect(first.removed.count == 2)
        for item in report.items {
            let text = try site.read(item.file!)
            #expect(!text.contains("medium.com/_/stat"))
            #expect(!text.contains("originally published"))
            #expect(!text.contains("Originally published"))
        }
        let grid = try site.read(report.items[1].file!)
        #expect(grid.contains("```\n.gallery {\n  display: grid;"))
    }

    @Test func ghostExport() async throws {
        let data = try Data(contentsOf: ImportTestSite.fixture("ghost-export.json"))
        let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let posts = try #require(((json["db"] as? [[String: Any]])?.first?["data"] as? [String: Any])?["posts"] as? [[String: Any]])
        let sources = posts.map { post -> Source in
            let slug = post["slug"] as! String
            if let html = post["html"] as? String, !html.isEmpty {
                return Source(origin: "https://oldnews.example/\(slug)/", words: TextMeasure.words(html: html),
                              code: TextMeasure.codeBlocks(html: html))
            }
            return Source(origin: "https://oldnews.example/\(slug)/", words: Self.editorWords(post))
        }
        let (report, site) = try await check("ghost-export.json", sources: sources) { $0.sourceURL = "https://oldnews.example" }
        defer { site.remove() }
        let newsletter = try site.read("content/posts/2020-03-21-moving-our-newsletter-to-ghost.md")
        #expect(newsletter.contains("tags: [Newsletter, Ghost]\n"))  // the internal #tag is left out
        #expect(newsletter.contains("image: https://oldnews.example/content/images/2020/03/newsletter-cover.jpg"))
        #expect(newsletter.contains("![The members import screen](https://oldnews.example/content/images/2020/03/import-screen.png)"))
        #expect(newsletter.contains("summary: How we moved a newsletter"))
        #expect(report.items.first { $0.title == "Welcome Series (Draft)" }?.draft == true)
        #expect(report.items.first { $0.outcome == .page }?.file == "content/pages/about-the-newsletter.md")
        let lexical = try site.read("content/posts/2023-05-02-rendering-a-lexical-document.md")
        #expect(lexical.contains("```javascript\nconst greet = (name) => `Hello, ${name} & welcome <3`;"))
    }

    /// Words of a Ghost post that only has its editor document (Lexical or Mobiledoc).
    static func editorWords(_ post: [String: Any]) -> [String] {
        var words: [String] = []
        func walk(_ value: Any, key: String?) {
            switch value {
            case let object as [String: Any]: for (key, inner) in object { walk(inner, key: key) }
            case let array as [Any]:
                // Mobiledoc markers: [type, open markups, closed count, text].
                if array.count == 4, array[0] as? Int == 0, let text = array[3] as? String { words += TextMeasure.words(text: text) }
                for inner in array { walk(inner, key: nil) }
            case let text as String:
                if key == "markdown" { words += TextMeasure.words(markdown: text) }
                if ["text", "code", "caption"].contains(key) { words += TextMeasure.words(text: text) }
            default: break
            }
        }
        for key in ["lexical", "mobiledoc"] {
            if let text = post[key] as? String, let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) {
                walk(object, key: nil)
            }
        }
        return words
    }

    @Test func atomFeed() async throws {
        let sources = try feedSources("atom-feed.xml")
        let (report, site) = try await check("atom-feed.xml", sources: sources)
        defer { site.remove() }
        let typing = try #require(report.items.first { $0.origin.contains("typing-less") })
        #expect(typing.title == "Typing Less, Typing Better")
        #expect(typing.aliases == ["/essays/typing-less-typing-better.html"])
        let text = try site.read(typing.file!)
        #expect(text.contains("```typescript\ntype User = { id: string; name: string; tags?: string[] };"))
        let notes = try site.read("content/posts/2022-01-05-plain-text-notes.md")
        #expect(notes.contains("a \\<placeholder> stays visible, and so does 3 < 4 && 5 > 2."))
        let pandoc = try site.read("content/posts/2024-02-20-footnotes-in-static-sites.md")
        #expect(pandoc.contains("superscript[^2], and") && pandoc.contains("[^2]: Pandoc's HTML output"))
    }

    // MARK: Static site folders

    /// Sources of a site folder: each content file's body as Lectern renders Markdown, with
    /// the generator's template tags (markup, not words) removed first.
    func folderSources(_ fixture: String, files: [String]) throws -> [Source] {
        try files.map { file in
            let source = try String(contentsOf: ImportTestSite.fixture(fixture).appendingPathComponent(file), encoding: .utf8)
            var body = TextMeasure.body(ofContentFile: source)
            var code = Patterns.matches(#"\{\{[<%]\s*highlight\s+\S+[^>%]*[>%]\}\}\n(.*?)\n\{\{[<%]\s*/highlight\s*[>%]\}\}"#, in: body).map { $0[1] }
            code += Patterns.matches(#"\{%\s*highlight\s+\S+[^%]*%\}\n(.*?)\n\{%\s*endhighlight\s*%\}"#, in: body).map { $0[1] }
            code += Patterns.matches(#"(?m)^```[a-z]*\n(.*?)\n```$"#, in: body).map { $0[1] }
                .filter { !$0.contains("{{<") && !$0.contains("{%") }
            // Liquid comments are never shown; tags are markup.
            for pattern in [#"(?s)\{%\s*comment\s*%\}.*?\{%\s*endcomment\s*%\}"#, #"\{\{[<%].*?[>%]\}\}"#, #"\{%.*?%\}"#,
                            #"\{\{.*?\}\}"#] {
                body = body.replacingOccurrences(of: pattern, with: " ", options: .regularExpression)
            }
            let words = file.hasSuffix(".html") ? TextMeasure.words(html: body) : TextMeasure.words(markdown: body)
            return Source(origin: file, words: words, code: code)
        }
    }

    @Test func hugoSite() async throws {
        let files = ["content/colophon.md", "content/posts/bundled-diagrams/index.md", "content/posts/errors-are-values.md",
                     "content/posts/goroutines-and-channels.md", "content/posts/yaml-front-matter.md"]
        let (report, site) = try await check("hugo-site", sources: try folderSources("hugo-site", files: files),
                                             expectedSkips: ["content/_index.md", "content/posts/_index.md"])
        defer { site.remove() }
        let channels = try #require(report.items.first { $0.origin == "content/posts/goroutines-and-channels.md" })
        #expect(channels.url == "/2020/goroutines-and-channels-a-field-guide/")
        #expect(channels.aliases == ["/2020/05/goroutines-and-channels-a-field-guide/", "/posts/goroutines/"])
        let text = try site.read(channels.file!)
        #expect(text.contains("category: Programming"))
        #expect(text.contains("updated: 2020-05-10T16:30:00+00:00"))
        #expect(text.contains("```go\nfunc main() {\n\tdone := make(chan struct{})"))
        #expect(text.contains("[the earlier post on errors](/2019/errors-are-values-and-other-proverbs/)"))
        #expect(text.contains("[bundle with diagrams](/2021/diagrams-as-code/)"))
        #expect(text.contains("![Three workers reading from one channel](/images/fan-out.png)"))
        #expect(!text.contains("`{{< notice warning >}}`") && !text.contains("\n{{< notice warning >}}"), "left out of the page")
        #expect(text.contains("{{< not-a-shortcode >}}"))  // inside a code block: untouched
        #expect(channels.warnings.contains { $0.contains("{{< notice warning >}}") && $0.hasPrefix("line ") })
        #expect(site.exists("static/images/fan-out.png"))
        // The page bundle became a folder with its images.
        let bundle = try #require(report.items.first { $0.origin == "content/posts/bundled-diagrams/index.md" })
        #expect(bundle.file == "content/posts/2021-08-30-diagrams-as-code/index.md")
        #expect(site.exists("content/posts/2021-08-30-diagrams-as-code/request-path.png"))
        #expect(site.exists("content/posts/2021-08-30-diagrams-as-code/images/legend.png"))
        let draft = try #require(report.items.first { $0.origin == "content/posts/yaml-front-matter.md" })
        #expect(draft.draft && draft.url == "/2023/generics-a-year-later/")
        let errors = try site.read("content/posts/2019-11-19-errors-are-values-and-other-proverbs.md")
        #expect(errors.contains("you write {{< figure src=\"x.png\" >}} with"))
        #expect(report.items.first { $0.origin == "content/colophon.md" }?.file == "content/pages/colophon.md")
    }

    @Test func jekyllSite() async throws {
        let files = ["_drafts/unfinished-thoughts-on-rails.md", "_posts/2018-12-24-an-html-post.html",
                     "_posts/2019-03-02-hello-jekyll.md", "_posts/2019-06-11-liquid-in-posts.md",
                     "_posts/2020-01-14-custom-permalink.markdown", "now.md", "pages/code.md"]
        let (report, site) = try await check("jekyll-site", sources: try folderSources("jekyll-site", files: files))
        defer { site.remove() }
        // A page in a folder, its extensionless permalink written as Jekyll writes it, both spellings kept.
        let code = try #require(report.items.first { $0.origin == "pages/code.md" })
        #expect(code.outcome == .page && code.oldURL == "/about/code.html" && code.aliases == ["/about/code.html", "/about/code"])
        // A folder without front matter is a page of its own: copied whole, served where it was.
        #expect(Set(report.copied.compactMap(\.file)) == ["static/talk-slides/index.html", "static/talk-slides/deck.js"])
        #expect(site.exists("static/talk-slides/deck.js"))
        let hello = try #require(report.items.first { $0.origin == "_posts/2019-03-02-hello-jekyll.md" })
        #expect(hello.aliases == ["/meta/2019/03/02/hello-jekyll/"])
        let liquid = try #require(report.items.first { $0.origin == "_posts/2019-06-11-liquid-in-posts.md" })
        #expect(liquid.aliases == ["/ruby/web-dev/2019/06/11/liquid-in-posts/", "/liquid/"])
        let text = try site.read(liquid.file!)
        #expect(text.contains("[my first post](/2019/hello-jekyll/)"))
        #expect(text.contains("write {{ page.title }}; to loop"))  // {% raw %}: literal, tags removed
        #expect(!text.contains("{% raw %}"))
        #expect(!text.contains("{% include"), "left out of the page")
        #expect(liquid.warnings.contains { $0.hasPrefix("line ") && $0.contains("{% include note.html") })
        #expect(text.contains("tags: [liquid, jekyll, web dev]"))
        #expect(site.exists("static/assets/img/liquid.png"))
        let custom = try #require(report.items.first { $0.origin.hasSuffix("custom-permalink.markdown") })
        // GitHub Pages served `x.html` at `x` too: both spellings answer.
        #expect(custom.aliases == ["/articles/custom-permalink.html", "/articles/custom-permalink"])
        #expect(report.items.first { $0.origin.hasPrefix("_drafts/") }?.draft == true)
        #expect(report.items.first { $0.origin == "now.md" }?.outcome == .page)
    }

    @Test func zolaSite() async throws {
        let files = ["content/blog/2019-05-14-first-zola-post.md", "content/blog/colocated-assets/index.md",
                     "content/blog/custom-path.md", "content/blog/tera-shortcodes.md", "content/contact.md"]
        let (report, site) = try await check("zola-site", sources: try folderSources("zola-site", files: files),
                                             expectedSkips: ["content/_index.md", "content/blog/_index.md"])
        defer { site.remove() }
        let first = try #require(report.items.first { $0.origin.hasSuffix("first-zola-post.md") })
        #expect(first.url == "/2019/first-zola-post/" && first.aliases == ["/blog/first-zola-post/"])
        let text = try site.read(first.file!)
        #expect(text.contains("category: Meta\ntags: [zola, rust, static sites]"))
        let tera = try site.read("content/posts/2020-10-21-tera-shortcodes.md")
        #expect(tera.contains("[my first Zola post](/2019/first-zola-post/)"))
        #expect(tera.contains("[colocated example](/2022/colocated-assets/#images)"))
        #expect(tera.contains("aliases: [/blog/tera-shortcodes/, /2020/tera/]"))
        let custom = try #require(report.items.first { $0.origin.hasSuffix("custom-path.md") })
        #expect(custom.aliases == ["/notes/custom-path/"])
        #expect(site.exists("content/posts/2022-07-08-colocated-assets/ferris.png"))
    }
}
