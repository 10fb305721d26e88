import BlogModel
import Foundation
@testable import Import
@testable import Site
import Testing
import Yams

/// Slugs and aliases from old URLs, dates as sources write them, and the front matter the
/// importer writes (which must read back exactly, through Yams and through Lectern).
@Suite struct PermalinkAndFrontMatterTests {
    @Test func slugAndAliasFromOldURLs() {
        let cases: [(link: String, medium: Bool, slug: String?, path: String?)] = [
            ("https://old.example/2019/05/my-post/", false, "my-post", "/2019/05/my-post/"),
            ("https://medium.com/@u/title-words-3f2a1b9c0d1e?source=rss-abc------2", true, "title-words", "/@u/title-words-3f2a1b9c0d1e"),
            ("https://blog.example/essays/boring-tech.html", false, "boring-tech", "/essays/boring-tech.html"),
            ("https://blog.example/2019/05/14/Caf%C3%A9-Cr%C3%A8me/", false, "cafe-creme", "/2019/05/14/Caf%C3%A9-Cr%C3%A8me/"),
            ("https://blog.example/?p=12", false, nil, nil),
            ("https://blog.example/archives/123", false, nil, "/archives/123"),
            ("/posts/x/index.html", false, "x", "/posts/x/index.html"),
            ("https://blog.example/page#section", false, "page", "/page"),
            ("/notes/2019-12-20-hydration/", false, "hydration", "/notes/2019-12-20-hydration/"),
        ]
        for (link, medium, slug, path) in cases {
            let oldPath = Permalinks.path(of: link)
            #expect(oldPath == path, "\(link)")
            #expect(oldPath.flatMap { Permalinks.slug(fromPath: $0, mediumID: medium) } == slug, "\(link)")
        }
        #expect(Permalinks.alias(oldPath: "/2019/05/my-post/", newPath: "/2019/my-post/") == "/2019/05/my-post/")
        #expect(Permalinks.alias(oldPath: "/2019/my-post", newPath: "/2019/my-post/") == nil)
        #expect(Permalinks.alias(oldPath: "/2019/my-post/", newPath: "/2019/my-post/") == nil)
        // Medium ids are hexadecimal with a digit; a plain last word is kept.
        #expect(Permalinks.strippingMediumID("why-decaf") == "why-decaf")
        #expect(Permalinks.strippingMediumID("on-deadbeefcafe") == "on-deadbeefcafe")
        #expect(Permalinks.strippingMediumID("on-deadbeef0afe") == "on")
    }

    /// Titles as Hugo 0.111 put them in URLs (checked against the sitemap it built from a real blog).
    @Test func hugoURLizesTitlesItsOwnWay() {
        #expect(StaticSitePermalinks.urlize("OpenSMTPD: minor fixes + preparing release") == "opensmtpd-minor-fixes--preparing-release")
        #expect(StaticSitePermalinks.urlize("OpenSMTPD, map_compare() and K_NETADDR") == "opensmtpd-map_compare-and-k_netaddr")
        #expect(StaticSitePermalinks.urlize("June 2020: poolp.org, folder pinning") == "june-2020-poolp.org-folder-pinning")
        #expect(StaticSitePermalinks.urlize("Découpe de la tête") == "découpe-de-la-tête")
        #expect(StaticSitePermalinks.urlize("OpenSMTPD relay maps & new url syntax") == "opensmtpd-relay-maps-new-url-syntax")
        #expect(StaticSitePermalinks.urlize("News from the front !") == "news-from-the-front")
        #expect(StaticSitePermalinks.urlize("fatigue et envie de vacances...") == "fatigue-et-envie-de-vacances...")
    }

    @Test func datesAsSourcesWriteThem() {
        let utc = TimeZone(identifier: "UTC")!
        let expected = Date(timeIntervalSince1970: 1_557_826_200)  // 2019-05-14 09:30 UTC
        for text in ["Tue, 14 May 2019 09:30:00 +0000", "14 May 2019 11:30:00 +0200", "Tue, 14 May 2019 09:30:00 GMT",
                     "Tue, 14 May 19 05:30 EDT", "2019-05-14T09:30:00Z", "2019-05-14T11:30:00+02:00",
                     "2019-05-14 09:30:00", "2019-05-14T09:30:00.000Z", "2019-05-14 11:30:00 +0200", "1557826200000"] {
            #expect(DateReading.parse(text, timeZone: utc) == expected, "\(text)")
        }
        #expect(DateReading.parse("0000-00-00 00:00:00", timeZone: utc) == nil)
        #expect(DateReading.parse("2019-13-01", timeZone: utc) == nil)
        #expect(DateReading.parse("yesterday", timeZone: utc) == nil)
    }

    @Test func yamlScalarsReadBackExactly() throws {
        let awkward = ["Plain title", "Title: with colon", "Hash # inside", "#leading hash", "@handle first", "*starred*",
                       "- dash", "\"quoted\"", "it's", "yes", "No", "null", "~", "123", "1.5", "2019-05-14", "true",
                       "a, b", "[x]", "{y}", "line\nbreak", "tab\there", "trailing ", " leading", "back\\slash",
                       "% percent", "& amp", "! bang", "| pipe", "> gt", "?q", "é accents ✓ 😀", "nbsp\u{A0}inside", ""]
        for text in awkward {
            let yaml = "value: \(YAMLScalar.string(text))\nlist: \(YAMLScalar.list([text, "x"]))\n"
            let loaded = try #require(try Yams.load(yaml: yaml) as? [String: Any], "\(yaml)")
            #expect(loaded["value"] as? String == text, "\(yaml)")
            #expect((loaded["list"] as? [Any])?.first as? String == text, "\(yaml)")
        }
    }

    @Test func writtenPostsParseWithLecternsLoader() throws {
        let writer = PostWriter(timeZone: TimeZone(identifier: "Europe/Paris")!)
        var fields = PostWriter.Fields(title: "Don't: a \"guide\" #1 @home", date: Date(timeIntervalSince1970: 1_557_826_200),
                                       slug: "dont-guide")
        fields.updated = Date(timeIntervalSince1970: 1_557_912_600)
        fields.category = "Life & Stuff"
        fields.tags = ["c++", "yes", "a, b", "Swift"]
        fields.summary = "Two\nlines: with \"quotes\""
        fields.image = "/2019/dont-guide/a b.png"
        fields.draft = true
        fields.pinned = true
        fields.aliases = ["/2019/05/dont-guide/", "/@me/dont-guide-3f2a1b9c0d1e"]
        fields.series = "Guides: part two"
        fields.seriesOrder = 2
        let text = writer.post(fields, body: "Body *text*.\n")
        #expect(text.hasPrefix("---\ntitle: \"Don't: a \\\"guide\\\" #1 @home\"\ndate: 2019-05-14T11:30:00+02:00\n"))
        #expect(text.hasSuffix("---\n\nBody *text*.\n"))
        #expect(writer.postFileName(date: fields.date!, slug: "dont-guide") == "2019-05-14-dont-guide.md")

        let post = try ContentParser(timeZone: writer.timeZone).post(source: text, file: "content/posts/x.md")
        #expect(post.title == fields.title)
        #expect(post.date == fields.date && post.updated == fields.updated)
        #expect(post.slug == "dont-guide" && post.path == "/2019/dont-guide/")
        #expect(post.category == "Life & Stuff")
        #expect(post.tags == ["c++", "yes", "a, b", "Swift"])
        #expect(post.summary == fields.summary && post.image == fields.image)
        #expect(post.draft && post.pinned)

        let page = writer.page(fields, body: "About.")
        #expect(!page.contains("date:") && !page.contains("tags:") && !page.contains("series:"))
        let parsed = try ContentParser(timeZone: writer.timeZone).page(source: page, file: "content/pages/x.md")
        #expect(parsed.title == fields.title && parsed.slug == "dont-guide" && parsed.draft)
    }

    @Test func seriesFromTitles() {
        let titles = ["Ownership in Rust, Part 1: Moves", "Ownership in Rust, Part 2: Borrowing",
                      "Building a Parser (part 3)", "Unrelated post", "Building a Parser (Part 4)",
                      "A Part 1 of nothing"]
        let found = SeriesDetector.detect(titles)
        #expect(found[0] == .init(name: "Ownership in Rust", order: 1))
        #expect(found[1] == .init(name: "Ownership in Rust", order: 2))
        #expect(found[2] == .init(name: "Building a Parser", order: 3))
        #expect(found[3] == nil && found[5] == nil)
    }

    @Test func sourceKinds() throws {
        let fixtures = ImportTestSite.fixtures
        let expected: [(String, SourceKind)] = [
            ("programmer-blog.rss", .rss), ("medium-feed.rss", .rss), ("atom-feed.xml", .atom),
            ("wordpress-export.xml", .wordpress), ("ghost-export.json", .ghost), ("hugo-site", .hugo),
            ("jekyll-site", .jekyll), ("zola-site", .zola),
        ]
        for (name, kind) in expected {
            #expect(try SourceDetector.kind(of: fixtures.appendingPathComponent(name)) == kind, "\(name)")
        }
        #expect(throws: ImportError.self) { try SourceDetector.kind(of: Data("just text".utf8), name: "x.txt") }
        #expect(throws: ImportError.missing("/nope")) { try SourceDetector.kind(of: URL(fileURLWithPath: "/nope")) }
    }
}
