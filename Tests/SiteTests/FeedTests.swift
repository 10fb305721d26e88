import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
@testable import Site

/// Collects element names, attributes and text, to check feeds as an XML parser sees them.
private final class XMLCollector: NSObject, XMLParserDelegate {
    var elements: [(name: String, attributes: [String: String])] = []
    var texts: [String: [String]] = [:]
    private var current = ""
    private var stack: [String] = []

    func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                attributes: [String: String]) {
        elements.append((name, attributes))
        stack.append(name)
        current = ""
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) { current += string }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        texts[stack.joined(separator: "/"), default: []].append(current)
        stack.removeLast()
        current = ""
    }
}

@Suite struct FeedTests {
    private func parse(_ text: String) throws -> XMLCollector {
        let collector = XMLCollector()
        let parser = XMLParser(data: Data(text.utf8))
        parser.delegate = collector
        #expect(parser.parse(), "not well-formed: \(parser.parserError.map { "\($0)" } ?? "")")
        return collector
    }

    private func site() throws -> TestSite {
        let site = try TestSite()
        try site.post("a", title: "Fish & <Chips>", date: "2025-01-01T08:00:00Z", extra: "category: Food\ntags: [fish]\n",
                      body: "Look: ![x](/img/x.png) and [home](/).")
        try site.write("static/img/x.png", "not really a PNG; the feeds only link it")
        try site.post("b", title: "Second", date: "2025-02-01", extra: "updated: 2025-02-03\n")
        try site.build()
        return site
    }

    @Test func atomHasRequiredElements() throws {
        let site = try site()
        defer { site.remove() }
        let xml = try parse(try site.read("feed.xml"))
        #expect(xml.elements.first?.name == "feed")
        for path in ["feed/id", "feed/title", "feed/updated", "feed/author/name", "feed/entry/id", "feed/entry/title",
                     "feed/entry/updated", "feed/entry/content"] {
            #expect(xml.texts[path]?.isEmpty == false, "missing \(path)")
        }
        #expect(xml.texts["feed/entry/title"] == ["Second", "Fish & <Chips>"])
        #expect(xml.texts["feed/updated"] == ["2025-02-03T00:00:00Z"])
        let content = try #require(xml.texts["feed/entry/content"]?.last)
        #expect(content.contains("src=\"https://blog.example/img/x.png\""), "links must be absolute in feeds")
        #expect(xml.elements.contains { $0.name == "link" && $0.attributes["rel"] == "self" })
    }

    /// Headings' `#` self-links stay on the site; a tag that is also the category is listed once.
    @Test func feedsCarryNoSelfLinksOrRepeatedCategories() throws {
        let site = try TestSite()
        defer { site.remove() }
        try site.post("c", title: "Sections", date: "2025-03-01", extra: "category: Swift\ntags: [swift, concurrency]\n",
                      body: "## First part\n\nText.\n")
        try site.build()
        #expect(try site.read("2025/sections/index.html").contains("class=\"anchor\""), "the page keeps them")
        for feed in ["feed.xml", "rss.xml"] {
            let text = try site.read(feed)
            #expect(!text.contains("anchor"), "\(feed): \(text)")
        }
        let rss = try parse(try site.read("rss.xml"))
        #expect(rss.texts["rss/channel/item/category"] == ["Swift", "concurrency"])
        #expect(try site.read("tags/concurrency/index.html").contains("Tagged “concurrency”"))
    }

    @Test func rssHasRequiredElements() throws {
        let site = try site()
        defer { site.remove() }
        let xml = try parse(try site.read("rss.xml"))
        for path in ["rss/channel/title", "rss/channel/link", "rss/channel/description", "rss/channel/item/title",
                     "rss/channel/item/link", "rss/channel/item/guid", "rss/channel/item/pubDate"] {
            #expect(xml.texts[path]?.isEmpty == false, "missing \(path)")
        }
        #expect(xml.texts["rss/channel/item/pubDate"]?.first == "Sat, 01 Feb 2025 00:00:00 GMT")
        let category = try parse(try site.read("categories/food/rss.xml"))
        #expect(category.texts["rss/channel/item/title"] == ["Fish & <Chips>"])
    }

    @Test func jsonFeedIsValidVersion11() throws {
        let site = try site()
        defer { site.remove() }
        let object = try JSONSerialization.jsonObject(with: Data(try site.read("feed.json").utf8)) as? [String: Any]
        let feed = try #require(object)
        #expect(feed["version"] as? String == "https://jsonfeed.org/version/1.1")
        #expect(feed["title"] as? String == "Test Blog")
        let items = try #require(feed["items"] as? [[String: Any]])
        #expect(items.count == 2)
        #expect(items[1]["id"] as? String == "https://blog.example/2025/fish-chips/")
        #expect(items[1]["tags"] as? [String] == ["Food", "fish"])
        #expect((items[0]["content_html"] as? String)?.isEmpty == false)
    }

    @Test func sitemapListsEveryPage() throws {
        let site = try site()
        defer { site.remove() }
        let xml = try parse(try site.read("sitemap.xml"))
        let locations = Set(xml.texts["urlset/url/loc"] ?? [])
        #expect(locations.isSuperset(of: ["https://blog.example/", "https://blog.example/archive/",
                                          "https://blog.example/2025/second/", "https://blog.example/categories/food/",
                                          "https://blog.example/tags/fish/"]))
        #expect(try site.read("robots.txt").contains("Sitemap: https://blog.example/sitemap.xml"))
    }
}

@Suite struct TagIndexTests {
    @Test func everyTagWithItsCountMostUsedFirst() throws {
        let site = try TestSite()
        defer { site.remove() }
        try site.post("a", title: "A", date: "2025-01-01", extra: "tags: [swift, web]\n")
        try site.post("b", title: "B", date: "2025-01-02", extra: "tags: [swift]\n")
        try site.build()
        let html = try site.read("tags/index.html")
        let swift = try #require(html.range(of: "href=\"/tags/swift/\">#swift</a> <span class=\"count\">2</span>"))
        let web = try #require(html.range(of: "href=\"/tags/web/\">#web</a> <span class=\"count\">1</span>"))
        #expect(swift.lowerBound < web.lowerBound)
        #expect(try site.read("sitemap.xml").contains("/tags/</loc>"))
    }
}

@Suite struct TableOfContentsTests {
    @Test func automaticFromFourSectionsNestedAndEscaped() throws {
        let site = try TestSite()
        defer { site.remove() }
        let sections = "## One\n\nA.\n\n### One & a half\n\nB.\n\n## Two\n\nC.\n\n## Three\n\nD.\n\n## Four\n\nE.\n"
        try site.post("long", title: "Long", date: "2025-01-01", body: sections)
        try site.post("short", title: "Short", date: "2025-01-02", body: "## Only\n\nText.\n")
        try site.post("forced", title: "Forced", date: "2025-01-03", extra: "toc: true\n", body: "## Only\n\nText.\n")
        try site.post("off", title: "Off", date: "2025-01-04", extra: "toc: false\n", body: sections)
        try site.build()
        let long = try site.read("2025/long/index.html")
        #expect(long.contains("<nav class=\"toc\" aria-label=\"Contents\"><h2>Contents</h2><ol><li><a href=\"#one\">One</a>"
                              + "<ol><li><a href=\"#one-a-half\">One &amp; a half</a></li></ol></li><li><a href=\"#two\">Two</a></li>"
                              + "<li><a href=\"#three\">Three</a></li><li><a href=\"#four\">Four</a></li></ol></nav>"), "\(long)")
        #expect(!(try site.read("2025/short/index.html")).contains("class=\"toc\""))
        #expect(try site.read("2025/forced/index.html").contains("<a href=\"#only\">Only</a>"))
        #expect(!(try site.read("2025/off/index.html")).contains("class=\"toc\""))
    }
}

@Suite struct SeriesTests {
    @Test func partsInReadingOrderWithTheirOwnPageAndFeed() throws {
        let site = try TestSite()
        defer { site.remove() }
        // Written out of order: seriesOrder decides, then the date.
        try site.post("p3", title: "Moves", date: "2025-01-01", extra: "series: Rust ownership\nseriesOrder: 3\n")
        try site.post("p1", title: "Owners", date: "2025-01-03", extra: "series: Rust ownership\nseriesOrder: 1\n")
        try site.post("p2", title: "Borrows", date: "2025-01-02", extra: "series: Rust ownership\nseriesOrder: 2\n")
        try site.post("other", title: "Unrelated", date: "2025-01-04")
        try site.build()
        let second = try site.read("2025/borrows/index.html")
        #expect(second.contains("Part 2 of 3 in the series <a href=\"/series/rust-ownership/\">Rust ownership</a>"), "\(second)")
        #expect(second.contains("<a rel=\"prev\" href=\"/2025/owners/\">← Part before: Owners</a>"))
        #expect(second.contains("<a rel=\"next\" href=\"/2025/moves/\">Next part: Moves →</a>"))
        #expect(second.contains("<small>Newer</small>") && second.contains("<small>Older</small>"), "the date pager is labelled")
        #expect(!(try site.read("2025/unrelated/index.html")).contains("class=\"series\""))
        let index = try site.read("series/rust-ownership/index.html")
        // Two posts a page in the test site: parts 1 and 2 first, part 3 on page 2.
        let owners = try #require(index.range(of: ">Owners<")), borrows = try #require(index.range(of: ">Borrows<"))
        #expect(owners.lowerBound < borrows.lowerBound, "reading order on the series page")
        #expect(try site.read("series/rust-ownership/page/2/index.html").contains(">Moves<"))
        let feed = try site.read("series/rust-ownership/feed.xml")
        #expect(feed.components(separatedBy: "<entry>").count - 1 == 3)
        #expect(!feed.contains("Unrelated"))
    }
}
