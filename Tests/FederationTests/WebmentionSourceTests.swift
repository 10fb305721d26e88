import BlogModel
import Foundation
import Testing
@testable import Webmention

/// How a source page is read for its target: the link, the kind, the content, the author.
@Suite struct WebmentionSourceTests {
    let target = "https://blog.example/2025/post/"
    let source = "https://them.example/notes/1"

    func read(_ body: String) -> WebmentionSource? { WebmentionSource.read(html: body, source: source, target: target) }

    @Test func aLinkIsAnAttributeEqualToTheTargetOnceNormalized() {
        #expect(read("<a href=\"https://BLOG.example/2025/post/#comments\">x</a>") != nil, "host case and fragment ignored")
        #expect(read("<img src=\"https://blog.example/2025/post/\">") != nil)
        #expect(read("<a href=\"https://blog.example/2025/post\">x</a>") == nil, "another URL")
        #expect(read("<!-- <a href=\"https://blog.example/2025/post/\">x</a> -->") == nil, "a comment is no link")
        #expect(read("<p>https://blog.example/2025/post/</p>") == nil, "text is no link")
        #expect(read("<base href=\"https://blog.example/\"><a href=\"/2025/post/\">x</a>") != nil, "resolved against <base>")
        #expect(read("<a href=\"/2025/post/\">x</a>") == nil, "resolved against the source")
        #expect(WebmentionSource.read(html: "<a href=\"/2025/post/\">x</a>", source: "https://blog.example/other", target: target) != nil)
    }

    @Test func kindsFromTheEntrysProperties() {
        func entry(_ inner: String) -> String { "<div class=\"h-entry\">\(inner)<p class=\"e-content\">words</p></div>" }
        #expect(read(entry("<a class=\"u-like-of\" href=\"\(target)\">♥</a>"))?.kind == .like)
        #expect(read(entry("<a class=\"u-repost-of\" href=\"\(target)\">⟳</a>"))?.kind == .repost)
        #expect(read(entry("<a class=\"u-in-reply-to\" href=\"\(target)\">re</a>"))?.kind == .reply)
        #expect(read(entry("<div class=\"u-in-reply-to h-cite\"><a class=\"u-url\" href=\"\(target)\">re</a></div>"))?.kind == .reply)
        #expect(read(entry("<a class=\"u-like-of\" href=\"https://else.example/\">♥</a> <a href=\"\(target)\">x</a>"))?.kind == .mention,
                "a like of something else that links here is a mention")
        let plain = read("<p><a href=\"\(target)\">x</a></p>")
        #expect(plain?.kind == .mention)
        #expect(plain?.contentHTML == "<p>mentioned at <a href=\"\(source)\">\(source)</a></p>")
        #expect(plain?.author.name == "them.example")
    }

    @Test func contentAndAuthor() {
        let page = """
            <div class="h-card"><a class="u-url p-name" href="\(source)">Page Owner</a></div>
            <div class="h-feed"><div class="h-entry">
              <a class="u-in-reply-to" href="\(target)">re</a><p class="p-summary">Short</p>
              <time class="dt-published" datetime="2026-01-02T03:04:05Z">then</time>
            </div></div>
            """
        let read = read(page)
        #expect(read?.contentHTML == "<p>Short</p>", "no e-content: the summary, escaped")
        #expect(read?.published == "2026-01-02T03:04:05Z")
        #expect(read?.author.name == "Page Owner", "the representative h-card (its url is the page)")
        let withAuthor = self.read("""
            <div class="h-entry"><a class="p-author" href="https://them.example/">https://them.example/</a>
            <a class="u-in-reply-to" href="\(target)">re</a><div class="e-content"><b>Bold</b> words</div></div>
            """)
        #expect(withAuthor?.author == .init(name: "them.example", url: "https://them.example/", photo: nil))
        #expect(withAuthor?.contentHTML == "<b>Bold</b> words")
    }

    /// The author's id is on the source's host whatever the page claims.
    @Test func authorsStayOnTheSourcesHost() {
        let claimed = WebmentionVerifier.authorRecord(.init(name: "Someone Famous", url: "https://mastodon.example/@famous", photo: nil),
                                                      source: source)
        #expect(claimed.id == source + "#webmention-author")
        #expect(claimed.url == "https://mastodon.example/@famous" && claimed.handle == "them.example" && claimed.inbox == "")
        let own = WebmentionVerifier.authorRecord(.init(name: "Them", url: "https://them.example/about#me", photo: nil), source: source)
        #expect(own.id == "https://them.example/about#webmention-author")
    }
}
