import Foundation
import Testing
@testable import Site

/// The search results page: snippets stay text, only the marks become markup.
@Suite struct SearchPageTests {
    @Test func snippetsAreEscapedAndMarked() throws {
        let site = try TestSite()
        defer { site.remove() }
        let page = try SearchPage(root: site.root, mark: ("\u{E000}", "\u{E001}"))
        #expect(page.snippetHTML("a <b>\u{E000}swift\u{E001}</b> & \"q\" \u{E000}actors\u{E001}")
                == "a &lt;b&gt;<mark>swift</mark>&lt;/b&gt; &amp; &quot;q&quot; <mark>actors</mark>")
        let hit = SearchPage.Hit(path: "/2025/x/", title: "X <y>", published: Date(timeIntervalSince1970: 0), snippet: "\u{E000}x\u{E001}")
        let html = try page.render(SearchPage.Outcome(query: "\"><script>", hits: [hit], total: 45))
        #expect(html.contains("45 posts match “&quot;&gt;&lt;script&gt;”."))
        #expect(html.contains("<a href=\"/2025/x/\">X &lt;y&gt;</a>"))
        #expect(html.contains("<p><mark>x</mark></p>"))
        #expect(html.contains("href=\"/search?q=%22%3E%3Cscript%3E&amp;page=2\""), "the next page keeps the query, encoded")
        #expect(!html.contains("<script>"))
    }
}
