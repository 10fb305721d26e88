import Foundation
@testable import Import
import Site
import Testing

/// What `lectern import` reads is someone else's site: it never writes outside the site folder
/// and never reads outside the source folder, and what it writes builds.
@Suite struct ImportSafetyTests {
    /// Aliases with `..`, `.` or doubled slashes are normalized, or dropped with a warning when
    /// nothing sensible is left (the home page, above the root): never written so that the
    /// build fails on them.
    @Test func aliasesWithDotsAreNormalizedOrDropped() async throws {
        let site = try ImportTestSite()
        defer { site.remove() }
        let source = try hugoSite { content in
            try write("""
            ---
            title: Dotted
            date: 2019-05-14
            aliases: ["//greek/..", "/old/../../etc/", "/a/./b//c/", "/x/..y/", "/fine/"]
            ---
            Words.
            """, to: content.appendingPathComponent("posts/dotted.md"))
        }
        defer { try? FileManager.default.removeItem(at: source) }
        let feed = FileManager.default.temporaryDirectory.appendingPathComponent("feed-\(UUID().uuidString).xml")
        defer { try? FileManager.default.removeItem(at: feed) }
        try Data("""
        <?xml version="1.0"?><rss version="2.0"><channel><title>T</title><link>https://old.example/</link>
        <item><title>Greek</title><link>https://old.example//greek/../feed-post/</link>
        <pubDate>Tue, 14 May 2019 09:30:00 +0000</pubDate><description>Hi.</description></item></channel></rss>
        """.utf8).write(to: feed)

        let hugo = try await Importer(options: site.options).run(source: source.path)
        let dotted = try #require(hugo.items.first { $0.title == "Dotted" })
        // `..y` and `more...` are names (Hugo wrote "vacances..." into URLs), not a step up.
        #expect(dotted.aliases == ["/posts/dotted/", "/a/b/c/", "/x/..y/", "/fine/"], "\(dotted.aliases)")
        for dropped in ["//greek/..", "/old/../../etc/"] {
            #expect(dotted.warnings.contains { $0.contains("alias '\(dropped)'") }, "\(dropped): \(dotted.warnings)")
        }
        let rss = try await Importer(options: site.options).run(source: feed.path)
        #expect(rss.items.first?.aliases == ["/feed-post/"], "\(rss.items.map(\.aliases))")
        for item in hugo.items + rss.items {
            for path in [item.file].compactMap({ $0 }) + item.aliases {
                #expect(!path.split(separator: "/").contains { $0 == ".." || $0 == "." }, "\(path)")
            }
        }
        try site.build()  // it used to fail on `aliases: ['//greek/..']`
    }

    /// A symlink in the source folder that leads out of it (a post linked to a file elsewhere, a
    /// folder linked to /etc, a bundle's or the static folder's file linked out) is never
    /// followed: the file is skipped, and the report says so.
    @Test func symlinksOutOfTheSourceAreSkippedAndReported() async throws {
        let site = try ImportTestSite()
        defer { site.remove() }
        let outside = FileManager.default.temporaryDirectory.appendingPathComponent("lectern-outside-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: outside) }
        try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
        let secret = "SECRET-\(UUID().uuidString)"
        try write("---\ntitle: Leaked\ndate: 2019-05-14\n---\n\(secret)\n", to: outside.appendingPathComponent("leak.md"))
        try write(secret, to: outside.appendingPathComponent("secret.png"))
        let source = try hugoSite { content in
            try write("---\ntitle: Honest\ndate: 2019-05-14\n---\n![](/images/secret.png) ![](/images/fine.png)\n",
                      to: content.appendingPathComponent("posts/honest.md"))
            let bundle = content.appendingPathComponent("posts/bundle")
            try write("---\ntitle: Bundle\ndate: 2019-05-15\n---\nSee [the file](secret.png).\n", to: bundle.appendingPathComponent("index.md"))
            try FileManager.default.createSymbolicLink(at: bundle.appendingPathComponent("secret.png"),
                                                       withDestinationURL: outside.appendingPathComponent("secret.png"))
            try FileManager.default.createSymbolicLink(at: content.appendingPathComponent("posts/leak.md"),
                                                       withDestinationURL: outside.appendingPathComponent("leak.md"))
            try FileManager.default.createSymbolicLink(at: content.appendingPathComponent("posts/etc"), withDestinationURL: outside)
            let images = content.deletingLastPathComponent().appendingPathComponent("static/images")
            try write("png", to: images.appendingPathComponent("fine.png"))
            try FileManager.default.createSymbolicLink(at: images.appendingPathComponent("secret.png"),
                                                       withDestinationURL: outside.appendingPathComponent("secret.png"))
        }
        defer { try? FileManager.default.removeItem(at: source) }
        let report = try await Importer(options: site.options).run(source: source.path)
        let leak = try #require(report.items.first { $0.origin.hasSuffix("posts/leak.md") }, "\(report.items.map(\.origin))")
        #expect(leak.outcome == .skipped && leak.reason?.contains("symbolic link") == true, "\(leak)")
        #expect(!report.items.contains { $0.origin.contains("posts/etc/") }, "nothing read through the folder link")
        let honest = try #require(report.items.first { $0.title == "Honest" })
        #expect(honest.images.contains { $0.file == "static/images/fine.png" })
        #expect(honest.images.contains { $0.file == nil && $0.error?.contains("symbolic link") == true }, "\(honest.images)")
        let bundle = try #require(report.items.first { $0.title == "Bundle" })
        #expect(bundle.images.contains { $0.file == nil && $0.error?.contains("symbolic link") == true }, "\(bundle.images)")
        // Nothing of the outside folder reached the site.
        let written = try FileManager.default.subpathsOfDirectory(atPath: site.root.path)
        for path in written {
            let data = FileManager.default.contents(atPath: site.root.appendingPathComponent(path).path) ?? Data()
            #expect(!String(decoding: data, as: UTF8.self).contains(secret), "\(path) holds the outside file")
        }
        // (No build here: "Honest" still shows the image that was not copied, which a build
        // reports as missing, as it does for any image the old site lacked.)
    }

    /// A repository's own files (README, AGENTS, TODO, LICENSE…) never become pages or posts,
    /// wherever they sit in the content folder.
    @Test func repositoryFilesNeverBecomePages() async throws {
        let site = try ImportTestSite()
        defer { site.remove() }
        let source = try hugoSite { content in
            try write("---\ntitle: A post\ndate: 2019-05-14\n---\nWords.\n", to: content.appendingPathComponent("posts/a.md"))
            try write("---\ntitle: Colophon\n---\nHow this is made.\n", to: content.appendingPathComponent("colophon.md"))
            for name in ["README.md", "AGENTS.md", "CLAUDE.md", "TODO.md", "LICENSE.md", "CHANGELOG.md", "posts/README.md"] {
                try write("# Notes for developers\n\nRun make.\n", to: content.appendingPathComponent(name))
            }
        }
        defer { try? FileManager.default.removeItem(at: source) }
        let report = try await Importer(options: site.options).run(source: source.path)
        #expect(Set(report.items.filter { $0.outcome != .skipped }.map(\.title)) == ["A post", "Colophon"], "\(report.items.map { ($0.title, $0.outcome) })")
        #expect(report.items.filter { $0.outcome == .skipped }.count == 7, "\(report.items.map { ($0.origin, $0.reason ?? "") })")
        #expect(report.items.filter { $0.outcome == .skipped }.allSatisfy { $0.reason?.contains("not a page of the blog") == true })
    }

    /// `--permalink`: the old URLs when nothing in the source states them; a post's own `url`
    /// still wins. Each old URL becomes an alias of the new one.
    @Test func aGivenPermalinkPatternNamesTheOldURLs() async throws {
        let site = try ImportTestSite()
        defer { site.remove() }
        let source = try hugoSite { content in
            try write("---\ntitle: Reboot time\ndate: 2019-05-14\nslug: reboot\n---\nWords.\n", to: content.appendingPathComponent("blog/reboot.md"))
            try write("---\ntitle: Own address\ndate: 2020-02-03\nurl: /notes/own/\n---\nWords.\n", to: content.appendingPathComponent("blog/own.md"))
        }
        defer { try? FileManager.default.removeItem(at: source) }
        var importOptions = site.options
        importOptions.permalink = "/blog/:year/:month/:slug/"
        let report = try await Importer(options: importOptions).run(source: source.path)
        let reboot = try #require(report.items.first { $0.title == "Reboot time" })
        #expect(reboot.url == "/2019/reboot/" && reboot.aliases == ["/blog/2019/05/reboot/"], "\(reboot.aliases)")
        #expect(report.items.first { $0.title == "Own address" }?.aliases == ["/notes/own/"])
        #expect(Importer.isPermalinkPattern("/blog/:year/:month/:slug/") && !Importer.isPermalinkPattern("blog/:slug")
                && !Importer.isPermalinkPattern("/blog/:year/"))
    }

    /// A minimal Hugo site in a temporary folder; `fill` gets its `content/`.
    func hugoSite(_ fill: (URL) throws -> Void) throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("lectern-hugo-\(UUID().uuidString)")
        let content = root.appendingPathComponent("content")
        try FileManager.default.createDirectory(at: content.appendingPathComponent("posts"), withIntermediateDirectories: true)
        try write("baseURL = 'https://old.example/'\ntitle = 'Old'\n", to: root.appendingPathComponent("hugo.toml"))
        try fill(content)
        return root
    }

    func write(_ text: String, to url: URL) throws {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: url, atomically: false, encoding: .utf8)
    }
}
