import BlogModel
import Foundation
import OutboundHTTP
import LecternRuntime
import Storage
import Testing

/// Webmention through the real server: a fake web site's pages are the sources, `POST
/// /webmention` is the way in, the page and the store are what a reader and the owner see.
/// Hostile requests each assert their status and that nothing was stored.
@Suite(.serialized) struct WebmentionTests {
    func withSite<T>(privateAddresses: Bool = true, background: Bool = true, extraConfig: String = "",
                     _ body: (FakeWebSite, BlogFixture) async throws -> T) async throws -> T {
        let site = FakeWebSite()
        try await site.start()
        defer { site.stop() }
        let remote = try FakeInstance()
        let blog = try await BlogFixture(remote: remote, extraConfig: extraConfig, privateAddresses: privateAddresses, background: background)
        defer { blog.stop() }
        return try await body(site, blog)
    }

    func send(_ blog: BlogFixture, source: String, target: String, contentType: String = "application/x-www-form-urlencoded",
              body: [UInt8]? = nil) async throws -> (status: Int, text: String) {
        let form = body ?? Array("source=\(escape(source))&target=\(escape(target))".utf8)
        let response = try await FetchClient(allowPrivateAddresses: true).perform(
            OutgoingRequest(method: "POST", url: blog.base + "/webmention", headers: [("Content-Type", contentType)], body: form),
            on: testTransfers)
        // webmention.rocks receiver test 1 (lib/Rocks/ReceiverTestData.php): a 200 or 202 carries no
        // `Location` (only a 201 would, with where the status can be read).
        #expect(!(200...202).contains(response.status) || (response.status == 201) == (response.header("location") != nil))
        return (response.status, String(decoding: response.body, as: UTF8.self))
    }

    func escape(_ value: String) -> String {
        value.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-._~"))) ?? ""
    }

    func reply(to target: String, text: String, author: String = "Wendy Web", kind: String = "u-in-reply-to") -> String {
        """
        <!doctype html><html><body>
        <article class="h-entry">
          <span class="p-author h-card"><img class="u-photo" src="/wendy.png" alt=""><a class="p-name u-url" href="/">\(author)</a></span>
          <p>In reply to <a class="\(kind)" href="\(target)">this post</a></p>
          <div class="e-content"><p>\(text) <script>alert(1)</script></p></div>
          <time class="dt-published" datetime="2026-11-20T10:00:00Z">20 Nov</time>
        </article>
        </body></html>
        """
    }

    func tables(_ store: Store) throws -> [Int] {
        let counts = try store.rowCounts()
        return ["webmention_queue", "webmentions", "comments", "reactions"].map { counts[$0] ?? -1 }
    }

    @Test func aReplyBecomesACommentEditedAndRemovedWhenGone() async throws {
        try await withSite { (site, blog) async throws in
            let page = try await blog.get(blog.post)
            #expect(page.body.contains("<link rel=\"webmention\" href=\"\(blog.base)/webmention\">"))
            let head = try await HTTPClientForTests.get(blog.base + blog.post, accept: "text/html")
            #expect(head.headers.contains { $0.name == "link" && $0.value == "<\(blog.base)/webmention>; rel=\"webmention\"" })

            let source = site.url("/notes/1")
            site.serve("/notes/1", html: reply(to: blog.postID, text: "Lovely post, from my own site."))
            let answer = try await send(blog, source: source, target: blog.postID)
            #expect(answer.status == 202, "\(answer.text)")
            #expect(try await eventually { try await blog.get(blog.post).body.contains("Lovely post, from my own site.") })
            let comment = try #require(try blog.store.comments.comment(id: source))
            #expect(!comment.contentHTML.contains("script"), "sanitized like a fediverse reply")
            #expect(comment.state == .approved)
            let author = try #require(try blog.store.actors.remoteActor(id: comment.authorID))
            #expect(author.name == "Wendy Web")
            #expect(author.url == site.url("/"))
            #expect(author.icon == site.url("/wendy.png"))
            #expect(try await blog.get(blog.post).body.contains("Wendy Web"))

            // Sent again with new words: the comment is edited, not doubled.
            site.serve("/notes/1", html: reply(to: blog.postID, text: "Lovely post, corrected."))
            #expect(try await send(blog, source: source, target: blog.postID).status == 202)
            #expect(try await eventually { try await blog.get(blog.post).body.contains("Lovely post, corrected.") })
            #expect(try tables(blog.store)[2] == 1)

            // Gone: sent again, the source answers 410, and the comment goes.
            site.serve("/notes/1", html: "gone", status: 410)
            #expect(try await send(blog, source: source, target: blog.postID).status == 202)
            #expect(try await eventually { try blog.store.comments.comment(id: source) == nil })
            #expect(try await eventually { try await !blog.get(blog.post).body.contains("Lovely post") })
            #expect(try tables(blog.store) == [0, 0, 0, 0])
        }
    }

    @Test func aLikeCountsAndAPageWithoutEntryIsAMention() async throws {
        try await withSite { (site, blog) async throws in
            site.serve("/likes/1", html: reply(to: blog.postID, text: "liked", kind: "u-like-of"))
            #expect(try await send(blog, source: site.url("/likes/1"), target: blog.postID).status == 202)
            #expect(try await eventually { try blog.store.reactions.reactionCounts(postPath: blog.post).likes == 1 })
            #expect(try blog.store.comments.comment(id: site.url("/likes/1")) == nil)

            // The like's page no longer links: sent again, the like goes.
            site.serve("/likes/1", html: "<div class=\"h-entry\"><p class=\"e-content\">changed my mind</p></div>")
            #expect(try await send(blog, source: site.url("/likes/1"), target: blog.postID).status == 202)
            #expect(try await eventually { try blog.store.reactions.reactionCounts(postPath: blog.post).likes == 0 })

            site.serve("/plain", html: "<p>See <a href=\"\(blog.postID)\">this</a>.</p>")
            #expect(try await send(blog, source: site.url("/plain"), target: blog.postID).status == 202)
            #expect(try await eventually { try blog.store.comments.comment(id: site.url("/plain")) != nil })
            #expect(try blog.store.comments.comment(id: site.url("/plain"))?.contentHTML.contains("mentioned at") == true)
        }
    }

    /// A source behind redirects is read at the end of at most three (each hop judged again).
    @Test func redirectsAreFollowedUpToThree() async throws {
        try await withSite { (site, blog) async throws in
            func redirect(_ from: String, to: String) { site.serve(from, FakeWebSite.Page(status: 302, headers: [("Location", to)])) }
            site.serve("/final", html: reply(to: blog.postID, text: "Behind three redirects"))
            redirect("/a1", to: "/a2"); redirect("/a2", to: "a3"); redirect("/a3", to: site.url("/final"))
            redirect("/b1", to: "/b2"); redirect("/b2", to: "/b3"); redirect("/b3", to: "/b4"); redirect("/b4", to: "/final")
            #expect(try await send(blog, source: site.url("/a1"), target: blog.postID).status == 202)
            #expect(try await send(blog, source: site.url("/b1"), target: blog.postID).status == 202)
            #expect(try await eventually { try blog.store.comments.comment(id: site.url("/a1")) != nil })
            #expect(try await eventually { try tables(blog.store)[0] == 0 })
            #expect(try blog.store.comments.comment(id: site.url("/b1")) == nil, "four redirects are one too many")
            #expect(site.gets.value["/b4"] == 1 && site.gets.value["/final"] == 1)
        }
    }

    @Test func aSourceThatDoesNotLinkIsRefused() async throws {
        try await withSite { (site, blog) async throws in
            site.serve("/nolink", html: "<div class=\"h-entry\"><p class=\"e-content\">No link here</p></div>")
            #expect(try await send(blog, source: site.url("/nolink"), target: blog.postID).status == 202)
            #expect(try await eventually { try tables(blog.store)[0] == 0 })
            #expect(site.gets.value["/nolink"] == 1)
            #expect(try tables(blog.store) == [0, 0, 0, 0])
        }
    }

    @Test func hostileRequestsAreRefusedAndStoreNothing() async throws {
        try await withSite { (site, blog) async throws in
            site.serve("/ok", html: reply(to: blog.postID, text: "hi"))
            let cases: [(String, String, String?, [UInt8]?, Int)] = [
                (site.url("/ok"), "https://elsewhere.example/2025/x/", nil, nil, 400),           // target not ours
                (site.url("/ok"), blog.base + "/2025/no-such-post/", nil, nil, 400),             // not a post
                (blog.postID, blog.postID, nil, nil, 400),                                        // source = target
                ("javascript:alert(1)", blog.postID, nil, nil, 400),                              // not http(s)
                (site.url("/ok"), blog.postID, "application/json", nil, 400),                     // not a form
                (site.url("/ok"), blog.postID, nil, Array(repeating: UInt8(ascii: "a"), count: 9000), 413),  // oversize
                (site.url("/ok"), blog.postID, nil, Array("source=\(site.url("/ok"))".utf8), 400),  // no target
            ]
            for (source, target, type, body, status) in cases {
                let answer = try await send(blog, source: source, target: target,
                                            contentType: type ?? "application/x-www-form-urlencoded", body: body)
                #expect(answer.status == status, "\(source) → \(target): \(answer.text)")
                #expect(!answer.text.isEmpty)
            }
            #expect(try tables(blog.store) == [0, 0, 0, 0])
        }
    }

    /// The fediverse's rules hold: a blocked domain is refused at once (or dropped when blocked
    /// while it waited), keyword filters drop, moderation holds.
    @Test func blocksFiltersAndModerationApply() async throws {
        try await withSite(extraConfig: "comments:\n  moderation: closed\n  drop: [casino]\n") { (site, blog) async throws in
            let port = site.host.split(separator: ":").last!
            _ = try blog.store.blocks.block(.domain, "localhost")
            let blocked = try await send(blog, source: "http://localhost:\(port)/ok", target: blog.postID)
            #expect(blocked.status == 403, "\(blocked.text)")

            site.serve("/spam", html: reply(to: blog.postID, text: "Visit my casino"))
            site.serve("/held", html: reply(to: blog.postID, text: "A fine post"))
            #expect(try await send(blog, source: site.url("/spam"), target: blog.postID).status == 202)
            #expect(try await send(blog, source: site.url("/held"), target: blog.postID).status == 202)
            #expect(try await eventually { try blog.store.comments.comment(id: site.url("/held")) != nil })
            #expect(try blog.store.comments.comment(id: site.url("/held"))?.state == .pending, "closed moderation holds it")
            #expect(try await !blog.get(blog.post).body.contains("A fine post"))
            #expect(try blog.store.comments.comment(id: site.url("/spam")) == nil, "dropped by the keyword filter")
            // The comment is written before the webmention's row and the queue's end: wait for those.
            #expect(try await eventually { try tables(blog.store) == [0, 1, 1, 0] }, "\((try? tables(blog.store)) ?? [])")
        }
    }

    @Test func aPrivateSourceIsRefused() async throws {
        try await withSite(privateAddresses: false) { (site, blog) async throws in
            for source in [site.url("/ok"), "https://127.0.0.1/x", "https://localhost/x", "https://[::1]/x", "https://10.0.0.1/x"] {
                let answer = try await send(blog, source: source, target: blog.postID)
                #expect(answer.status == 400, "\(source): \(answer.text)")
            }
            #expect(try tables(blog.store) == [0, 0, 0, 0])
            #expect(site.gets.value.isEmpty, "never fetched")
        }
    }

    @Test func oversizeAndSlowSourcesStoreNothing() async throws {
        try await withSite { (site, blog) async throws in
            site.serve("/huge", html: reply(to: blog.postID, text: String(repeating: "x", count: (1 << 20) + 10)))
            site.serve("/slow", FakeWebSite.Page(body: reply(to: blog.postID, text: "slow"), delay: 12))
            let clock = ContinuousClock.now
            #expect(try await send(blog, source: site.url("/slow"), target: blog.postID).status == 202)
            #expect(try await send(blog, source: site.url("/huge"), target: blog.postID).status == 202)
            #expect(ContinuousClock.now - clock < .seconds(2), "answered at once, whatever the sources do")
            #expect(try await eventually(within: 20) {
                try blog.store.webmentions.dueWebmentions(limit: 10, now: .distantFuture).filter { $0.attempts > 0 }.count == 1
            }, "the slow one timed out and waits for a later try")
            #expect(try await eventually { try tables(blog.store)[0] == 1 }, "the huge one is dropped")
            let counts = try tables(blog.store)
            #expect(counts[1...] == [0, 0, 0])
        }
    }

    @Test func aFloodFromOneDomainIsBounded() async throws {
        // Verification off (no background workers), so the queue only grows by requests.
        try await withSite(background: false) { (site, blog) async throws in
            var statuses: [Int] = []
            for index in 0..<(Webmentions.webmentionsQueuedPerHost + 5) {
                statuses.append(try await send(blog, source: site.url("/flood/\(index)"), target: blog.postID).status)
            }
            #expect(statuses.prefix(Webmentions.webmentionsQueuedPerHost).allSatisfy { $0 == 202 })
            #expect(statuses.suffix(5).allSatisfy { $0 == 429 })
            #expect(try tables(blog.store) == [Webmentions.webmentionsQueuedPerHost, 0, 0, 0])
            // Another host still gets in.
            #expect(try await send(blog, source: "http://localhost:\(site.host.split(separator: ":").last!)/other", target: blog.postID).status == 202)
        }
    }

    @Test func publishingSendsOneWebmentionRetriedOn5xx() async throws {
        try await withSite(background: false) { (site, blog) async throws in
            site.serve("/article", FakeWebSite.Page(headers: [("Content-Type", "text/html"), ("Link", "</endpoint?x=1>; rel=\"webmention\"")],
                                                     body: "<p>An article.</p>"))
            site.scripted.update { $0["/endpoint"] = [503] }
            let year = Calendar(identifier: .gregorian).component(.year, from: Date())
            let file = blog.root.appendingPathComponent("content/posts/linking.md")
            try "---\ntitle: Linking\ndate: \(ISO8601DateFormatter().string(from: Date()))\n---\n\nSee [this article](\(site.url("/article"))) and [mine](/).\n"
                .write(to: file, atomically: true, encoding: .utf8)
            try blog.rebuild()
            let first = await blog.runtime.webmentionSender().runOnce()
            #expect(first == .init(delivered: 0, retrying: 1, failed: 0))
            let second = await blog.runtime.webmentionSender().runOnce(now: Date().addingTimeInterval(3600))
            #expect(second == .init(delivered: 1, retrying: 0, failed: 0))
            let posts = site.posts.value
            #expect(posts.count == 2)
            #expect(posts.allSatisfy { $0.path == "/endpoint" && $0.query == "x=1" && $0.contentType == "application/x-www-form-urlencoded" })
            #expect(posts.last?.form == ["source": blog.base + "/\(year)/linking/", "target": site.url("/article")])
            #expect(await blog.runtime.delivery.runOnce().attempts == 0, "the activity worker leaves webmentions alone")

            // Removed: the link is told again, so the receiver can drop it.
            try FileManager.default.removeItem(at: file)
            try blog.rebuild()
            #expect(await blog.runtime.webmentionSender().runOnce().delivered == 1)
            #expect(site.posts.value.count == 3)
        }
    }
}
