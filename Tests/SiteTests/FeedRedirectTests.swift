import Foundation
import Testing
@testable import Site

/// The feed addresses of other generators redirect to this site's feeds, unless the site has a
/// file or an alias there itself.
@Suite struct FeedRedirectTests {
    @Test func otherGeneratorsFeedsRedirectUnlessTheSiteUsesThePath() throws {
        let site = try TestSite()
        defer { site.remove() }
        try site.post("a", title: "First", date: "2025-01-01", extra: "aliases: [/atom.xml]\n")
        try site.write("content/pages/rss.md", "---\ntitle: About our feeds\nslug: rss\n---\nText.\n")
        try site.write("static/index.rss", "<rss/>")
        try site.build()
        let redirects = Redirects.load(publicFolder: site.root.appendingPathComponent("public"))
        #expect(redirects["/index.xml"] == "/rss.xml" && redirects["/feed/"] == "/rss.xml" && redirects["/feed/feed.xml"] == "/feed.xml")
        #expect(redirects["/atom.xml"] == "/2025/first/", "the site's own alias comes first")
        #expect(redirects["/rss/"] == nil, "a page of the site is there")
        #expect(redirects["/index.rss"] == nil, "a static file of the site is there")
    }
}
