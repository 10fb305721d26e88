import BlogModel
import Delivery
import Foundation
import LecternRuntime
import Storage
import Testing
import Webmention

/// webmention.rocks' 23 discovery tests, served by a local site as that site serves them, each
/// sent a webmention by the blog's real sender (the delivery queue, `WebmentionSender`): every
/// one must reach its endpoint, and none an `/error` endpoint or a second one.
@Suite(.serialized) struct WebmentionDiscoveryTests {
    func page(_ test: WebmentionRocksCase, base: String) -> FakeWebSite.Page {
        let fill = { (text: String) in text.replacingOccurrences(of: "{base}", with: base) }
        var headers = [("Content-Type", "text/html; charset=utf-8")]
        for value in test.linkHeaders { headers.append((test.headerName, fill(value))) }
        // views/layout.php and views/discovery-test.php, reduced to what discovery reads.
        let html = """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8" /><title>Webmention Rocks!</title>
            <link href="/assets/style.css" rel="stylesheet">
            \(fill(test.linkTag))
            </head><body>
            <div class="post-container h-entry"><div class="left p-author h-card"><a href="/"><img src="/assets/icon.png" class="u-photo" alt="Webmention Rocks!"></a></div>
            <h1 class="p-name"><a href="/test/\(test.number)">Discovery Test #\(test.number)</a></h1>
            <div class="e-content">\(fill(test.description))</div>
            <a href="/test/\(test.number)" class="u-url">Published</a></div>
            </body></html>
            """
        return FakeWebSite.Page(headers: headers, body: html)
    }

    @Test func allTwentyThreeDiscoveryTestsPass() async throws {
        let site = FakeWebSite()
        try await site.start()
        defer { site.stop() }
        let remote = try FakeInstance()
        let blog = try await BlogFixture(remote: remote, background: false)
        defer { blog.stop() }
        #expect(WebmentionRocksCase.all.count == 23)
        var expected: [String: String] = [:]  // target → endpoint path (and query)
        for test in WebmentionRocksCase.all where test.number != 23 {
            site.serve("/test/\(test.number)", page(test, base: site.base.value))
            let endpoint: String
            switch test.number {
            case 15: endpoint = "/test/15"                       // an empty href: the page itself
            case 21: endpoint = "/test/21/webmention?query=yes"  // the query string is kept
            default: endpoint = "/test/\(test.number)/webmention"
            }
            expected[site.url("/test/\(test.number)")] = endpoint
        }
        // Test 23: the target redirects (relative Location) to a page whose endpoint is relative to it.
        site.serve("/test/23/page", FakeWebSite.Page(status: 302, headers: [("Location", "page/key1")]))
        site.serve("/test/23/page/key1", FakeWebSite.Page(
            headers: [("Content-Type", "text/html"), ("Link", "<webmention-endpoint/key1>; rel=webmention")],
            body: #"<div class="h-entry"><h2 class="p-name">Discovery Test #23</h2><p><a rel="webmention" href="webmention-endpoint/key1">webmention endpoint</a></p></div>"#))
        expected[site.url("/test/23/page")] = "/test/23/page/webmention-endpoint/key1"

        let source = blog.postID
        try blog.store.webmentions.queueWebmentions(source: source, postPath: blog.post, targets: Array(expected.keys), links: Array(expected.keys))
        let report = await blog.runtime.webmentionSender().runOnce()
        #expect(report == .init(delivered: 23, retrying: 0, failed: 0))

        let posts = site.posts.value
        #expect(posts.count == 23)
        for (target, endpoint) in expected.sorted(by: { $0.key < $1.key }) {
            let sent = posts.filter { $0.form["target"] == target }
            #expect(sent.count == 1, "\(target): \(sent.count) webmentions")
            let reached = sent.first.map { $0.path + ($0.query.map { "?" + $0 } ?? "") }
            #expect(reached == endpoint, "\(target) went to \(reached ?? "nothing")")
            #expect(sent.first?.form["source"] == source)
        }
        #expect(!posts.contains { $0.path.contains("error") })
        #expect(site.gets.value["/test/23/page/key1"] == 1, "each page of test 23 is fetched once")
    }

    /// The parts alone, on the cases' own strings: the first `webmention` value of `Link` fields.
    @Test func linkHeaderValues() {
        let base = "https://rocks.example/test/1"
        func endpoint(_ fields: [String], name: String = "Link") -> String? {
            WebmentionDiscovery.endpoint(finalURL: base, headers: fields.map { (name.lowercased(), $0) }, body: [], contentType: "text/html")
        }
        #expect(endpoint(["</a>; rel=webmention"]) == "https://rocks.example/a")
        #expect(endpoint(["<https://x.example/e>; rel=\"other webmention\""]) == "https://x.example/e")
        #expect(endpoint(["<https://x.example/bad>; rel=\"not-webmention\""]) == nil)
        #expect(endpoint(["<https://x.example/e,1>; rel=\"other\", </b>; rel=\"webmention\""]) == "https://rocks.example/b")
        #expect(endpoint(["<https://x.example/e>; title=\"a, b\"; rel=webmention"]) == "https://x.example/e")
    }
}
