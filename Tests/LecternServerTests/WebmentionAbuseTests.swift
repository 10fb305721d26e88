import BlogModel
import Foundation
import OutboundHTTP
import LecternRuntime
import Storage
import Testing
import Webmention

/// Attacks on the webmention endpoint and its verifier, through the real server: each asserts
/// what the attacker gets (a refusal, or nothing stored) and that honest senders still get in.
extension WebmentionTests {
    /// A page whose one element has 50,000 `e-` classes over about 1 MiB (before the parser's
    /// bounds, 50,000 copies of it): verified in seconds, and the worker goes on to the next one.
    @Test func aParserBombIsVerifiedQuicklyAndTheWorkerGoesOn() async throws {
        try await withSite { (site, blog) async throws in
            let classes = (0..<50_000).map { "e-a\($0)" }.joined(separator: " ")
            let head = "<div class=\"h-entry\"><a href=\"\(blog.postID)\">t</a><div class=\"\(classes)\">"
            let filler = String(repeating: String(repeating: "x", count: 99) + "\n", count: ((1 << 20) - 200 - head.utf8.count) / 100)
            site.serve("/bomb", html: head + filler + "</div></div>")
            site.serve("/after", html: reply(to: blog.postID, text: "Right after the bomb"))
            let clock = ContinuousClock.now
            #expect(try await send(blog, source: site.url("/bomb"), target: blog.postID).status == 202)
            #expect(try await send(blog, source: site.url("/after"), target: blog.postID).status == 202)
            #expect(try await eventually(within: 10) { try tables(blog.store)[0] == 0 }, "both verified")
            #expect(ContinuousClock.now - clock < .seconds(10))
            #expect(try blog.store.comments.comment(id: site.url("/after")) != nil)
        }
    }

    /// Subdomains of one site share its bounds: 20 from each of 50 subdomains, and only the
    /// first 20 in all are queued; another site still gets in.
    @Test func aFloodFromSubdomainsIsBoundedPerSite() async throws {
        try await withSite(background: false) { (_, blog) async throws in
            var statuses: [Int] = []
            for sub in 0..<50 {
                for index in 0..<20 {
                    statuses.append(try await send(blog, source: "http://a\(sub).evil.example/\(index)", target: blog.postID).status)
                }
            }
            #expect(statuses.prefix(Webmentions.webmentionsQueuedPerHost).allSatisfy { $0 == 202 })
            #expect(statuses[Webmentions.webmentionsQueuedPerHost] == 429)
            #expect(statuses.dropFirst(Webmentions.webmentionsQueuedPerHost).allSatisfy { $0 == 429 })
            #expect(try tables(blog.store)[0] == Webmentions.webmentionsQueuedPerHost)
            #expect(try await send(blog, source: "http://www.honest.example/p", target: blog.postID).status == 202)
            #expect(try await send(blog, source: "http://x.honest.co.uk/p", target: blog.postID).status == 202)
            #expect(Webmentions.webmentionSite("a.b.honest.co.uk") == "honest.co.uk")
            #expect(Webmentions.webmentionSite("a7.evil.example") == "evil.example")
            // Addresses of one network are one site.
            var addresses: [Int] = []
            for host in 1...21 { addresses.append(try await send(blog, source: "http://10.9.8.\(host):9/p", target: blog.postID).status) }
            #expect(addresses.prefix(20).allSatisfy { $0 == 202 } && addresses.last == 429)
            #expect(Webmentions.webmentionSite("[2001:db8:1:2:3::1]") == Webmentions.webmentionSite("2001:db8:1:2:ffff::9"))
            #expect(Webmentions.webmentionSite("[2001:db8:1:2:3::1]") != Webmentions.webmentionSite("[2001:db8:1:3::1]"))
            // Kept in the last hour counts per site too: 60 kept from subdomains close it.
            for index in 0..<Webmentions.webmentionsKeptPerHostPerHour {
                try await blog.store.webmentions.keepWebmention(KeptWebmention(source: "https://k\(index).kept.example/p", target: blog.postID,
                                                                   postPath: blog.post, kind: .like, authorID: "x#webmention-author"))
            }
            #expect(try await send(blog, source: "http://new.kept.example/p", target: blog.postID).status == 429)
        }
    }

    /// Sites are registrable domains by the Public Suffix List. Before, `s0.bad.io … s24.bad.io`
    /// were 25 sites (three labels kept after a 2–3 letter label) and all 25 got 202.
    @Test func subdomainsOfAShortDomainAreOneSite() async throws {
        try await withSite(background: false) { (_, blog) async throws in
            var statuses: [Int] = []
            for sub in 0..<25 { statuses.append(try await send(blog, source: "http://s\(sub).bad.io/p", target: blog.postID).status) }
            #expect(statuses.prefix(Webmentions.webmentionsQueuedPerHost).allSatisfy { $0 == 202 })
            #expect(statuses.dropFirst(Webmentions.webmentionsQueuedPerHost).allSatisfy { $0 == 429 }, "\(statuses)")
            #expect(Webmentions.webmentionSite("s7.bad.io") == "bad.io")
            #expect(Webmentions.webmentionSite("www.example.co.uk") == "example.co.uk")
            // A public suffix that people host under: each account is a site of its own.
            #expect(Webmentions.webmentionSite("alice.github.io") == "alice.github.io")
            #expect(Webmentions.webmentionSite("alice.github.io") != Webmentions.webmentionSite("bob.github.io"))
            #expect(Webmentions.webmentionSite("Blog.Example.COM.") == "example.com")
        }
    }

    /// One address is one site: every other spelling of an IPv4 address is refused. Before, these
    /// six all got 202 and became six sites, sources and comments for one page.
    @Test func anAddressIsOneSpelling() async throws {
        try await withSite(background: false) { (_, blog) async throws in
            for host in ["1572395042", "0x5db8d822", "0135.0270.0330.042", "093.184.216.34", "93.12113954", "93.184.216.34.",
                         "0x5d.0xb8.0xd8.0x22", "example.123"] {
                let (status, text) = try await send(blog, source: "http://\(host)/p", target: blog.postID)
                #expect(status == 400 && text.contains("dotted-quad"), "\(host): \(status) \(text)")
            }
            #expect(try tables(blog.store)[0] == 0, "nothing queued")
            #expect(try await send(blog, source: "http://93.184.216.34/p", target: blog.postID).status == 202)
            #expect(try await send(blog, source: "http://[2001:db8::1]/p", target: blog.postID).status == 202)
        }
    }

    /// A re-send of a queued webmention keeps its attempts (and its wait): re-sending cannot
    /// keep a failing source in the queue for ever, nor make it due at once.
    @Test func aResendKeepsItsAttempts() async throws {
        try await withSite(background: false) { (site, blog) async throws in
            let source = site.url("/down")
            #expect(try await send(blog, source: source, target: blog.postID).status == 202)
            let queued = try #require(try blog.store.webmentions.dueWebmentions(limit: 10).first)
            let later = Date().addingTimeInterval(600)
            try await blog.store.webmentions.failWebmention(seq: queued.seq, error: "down", retryAt: later)
            #expect(try await send(blog, source: source, target: blog.postID).status == 202)
            let again = try #require(try blog.store.webmentions.dueWebmentions(limit: 10, now: .distantFuture).first)
            #expect(again.attempts == 1)
            #expect(try blog.store.webmentions.dueWebmentions(limit: 10).isEmpty, "still waiting for its retry")
        }
    }

    /// Sources that stall do not hold up another site's webmention.
    @Test func aStalledSiteDoesNotHoldUpAnother() async throws {
        try await withSite { (site, blog) async throws in
            let port = site.host.split(separator: ":").last!
            for index in 0..<4 {
                site.serve("/stall/\(index)", FakeWebSite.Page(body: reply(to: blog.postID, text: "slow"), delay: 12))
                #expect(try await send(blog, source: site.url("/stall/\(index)"), target: blog.postID).status == 202)
            }
            site.serve("/quick", html: reply(to: blog.postID, text: "Quick one"))
            let quick = "http://localhost:\(port)/quick"
            #expect(try await send(blog, source: quick, target: blog.postID).status == 202)
            #expect(try await eventually(within: 4) { try blog.store.comments.comment(id: quick) != nil })
        }
    }

    /// Four sites whose pages stall, each its own site (`sN.localhost`), and then an honest one:
    /// the honest webmention is verified within seconds (before: it waited for a slot).
    @Test func stallingSitesDoNotDelayAnHonestOne() async throws {
        try await withSite { (site, blog) async throws in
            let port = site.host.split(separator: ":").last!
            for index in 0..<4 {
                site.serve("/stall/\(index)", FakeWebSite.Page(body: reply(to: blog.postID, text: "slow"), delay: 12))
                #expect(try await send(blog, source: "http://s\(index).localhost:\(port)/stall/\(index)", target: blog.postID).status == 202)
            }
            try await Task.sleep(for: .milliseconds(300))  // the stalling fetches are under way
            site.serve("/honest", html: reply(to: blog.postID, text: "Honest one"))
            let honest = "http://honest.localhost:\(port)/honest"
            let sent = ContinuousClock.now
            #expect(try await send(blog, source: honest, target: blog.postID).status == 202)
            #expect(try await eventually(within: 3) { try blog.store.comments.comment(id: honest) != nil })
            print("honest webmention verified \(ContinuousClock.now - sent) after it was sent, beside four stalling sites")
        }
    }

    /// Sources being tried again (here eight that stalled before, due now) share one slot: a new
    /// webmention is verified at once beside them.
    @Test func retriesOfStalledSourcesShareOneSlot() async throws {
        try await withSite(background: false) { (site, blog) async throws in
            let port = site.host.split(separator: ":").last!
            for index in 0..<8 {
                site.serve("/stall/\(index)", FakeWebSite.Page(body: reply(to: blog.postID, text: "slow"), delay: 12))
                #expect(try await send(blog, source: "http://r\(index).localhost:\(port)/stall/\(index)", target: blog.postID).status == 202)
            }
            for mention in try blog.store.webmentions.dueWebmentions(limit: 10) {
                try await blog.store.webmentions.failWebmention(seq: mention.seq, error: "timed out", retryAt: Date().addingTimeInterval(-1))
            }
            #expect(try blog.store.webmentions.dueWebmentions(limit: 10).allSatisfy { $0.attempts == 1 })
            site.serve("/honest", html: reply(to: blog.postID, text: "Honest one"))
            let honest = "http://honest.localhost:\(port)/honest"
            #expect(try await send(blog, source: honest, target: blog.postID).status == 202)
            let runtime = blog.runtime
            let worker = WebmentionWorker(queue: blog.store.webmentions, verifier: { runtime.webmentionVerifier() }, signal: QueueSignal()) { _ in }
            let drain = Task { try await worker.drain() }
            defer { drain.cancel() }
            #expect(try await eventually(within: 3) { try blog.store.comments.comment(id: honest) != nil })
        }
    }

    /// A redirect to another host is refused: a blocked domain behind an unblocked one stores
    /// nothing, and no page speaks under the redirecting host's author.
    @Test func aRedirectToAnotherHostIsRefused() async throws {
        try await withSite { (site, blog) async throws in
            let port = site.host.split(separator: ":").last!
            site.serve("/final", html: reply(to: blog.postID, text: "From a blocked domain"))
            site.serve("/hop", FakeWebSite.Page(status: 302, headers: [("Location", "http://localhost:\(port)/final")]))
            _ = try blog.store.blocks.block(.domain, "localhost")
            #expect(try await send(blog, source: site.url("/hop"), target: blog.postID).status == 202)
            #expect(try await eventually { try tables(blog.store)[0] == 0 })
            #expect(try tables(blog.store) == [0, 0, 0, 0])
            #expect(site.gets.value["/final"] == nil, "never fetched")
            #expect(try await !blog.get(blog.post).body.contains("From a blocked domain"))
        }
    }

    /// One page is one comment: a fragment is not another source, and a URL that is not the
    /// entry's own (`u-url`) is refused.
    @Test func variantsOfASourceAreNotMoreComments() async throws {
        try await withSite { (site, blog) async throws in
            let source = site.url("/victim")
            site.serve("/victim", html: """
                <article class="h-entry"><a class="p-author h-card" href="/">Victor</a>
                <div class="e-content">Great post! <a class="u-in-reply-to" href="\(blog.postID)">re</a></div>
                <a class="u-url" href="\(source)">perma</a></article>
                """)
            #expect(try await send(blog, source: source, target: blog.postID).status == 202)
            #expect(try await eventually { try blog.store.comments.comment(id: source) != nil })
            site.serve("/moved", FakeWebSite.Page(status: 301, headers: [("Location", source)]))
            for variant in [source + "#x", source + "?x=1", site.url("/./victim"), site.url("//victim"), site.url("/moved")] {
                #expect(try await send(blog, source: variant, target: blog.postID).status == 202)
            }
            #expect(try await eventually { try tables(blog.store)[0] == 0 })
            #expect(try tables(blog.store) == [0, 1, 1, 0])
            #expect(try blog.store.comments.comment(id: source) != nil)
        }
    }

    /// The blog's own pages are not sources: its home page links to every post, and its own
    /// redirect (`/interact`) must not lend its host to someone else's page.
    @Test func aSourceOnTheBlogsOwnHostIsRefused() async throws {
        try await withSite(extraConfig: "  hostAliases: [\"blog-alias.example\"]\n") { (_, blog) async throws in
            let dotted = blog.base.replacingOccurrences(of: "127.0.0.1", with: "127.0.0.1.")
            for source in [blog.base + "/?spam=text", blog.base + "/interact?instance=evil.example", "http://blog-alias.example/x",
                           "http://BLOG-ALIAS.example./x", dotted + "/"] {
                let answer = try await send(blog, source: source, target: blog.postID)
                #expect(answer.status == 400, "\(source): \(answer.text)")
            }
            #expect(try tables(blog.store) == [0, 0, 0, 0])
        }
    }

    /// Shutting down: a drain stops between sources, not after its whole batch.
    @Test func aDrainStopsWhenCancelled() async throws {
        try await withSite(background: false) { (site, blog) async throws in
            for index in 0..<6 {
                site.serve("/stall/\(index)", FakeWebSite.Page(body: reply(to: blog.postID, text: "slow"), delay: 30))
                #expect(try await send(blog, source: site.url("/stall/\(index)"), target: blog.postID).status == 202)
            }
            let runtime = blog.runtime
            let worker = WebmentionWorker(queue: blog.store.webmentions, verifier: { runtime.webmentionVerifier() }, signal: QueueSignal()) { _ in }
            let task = Task { try await worker.drain() }
            try await Task.sleep(for: .seconds(1))
            let clock = ContinuousClock.now
            task.cancel()
            _ = try? await task.value
            #expect(ContinuousClock.now - clock < .seconds(9), "stopped in \(ContinuousClock.now - clock)")
        }
    }

    /// A comment the owner deleted stays deleted when its source sends it again.
    @Test func aCommentTheOwnerDeletedDoesNotComeBack() async throws {
        try await withSite { (site, blog) async throws in
            let source = site.url("/again")
            site.serve("/again", html: reply(to: blog.postID, text: "Unwanted"))
            #expect(try await send(blog, source: source, target: blog.postID).status == 202)
            #expect(try await eventually { try blog.store.comments.comment(id: source) != nil })
            _ = try blog.store.comments.removeComment(id: source)
            #expect(try await send(blog, source: source, target: blog.postID).status == 202)
            #expect(try await eventually { try tables(blog.store)[0] == 0 })
            try await Task.sleep(for: .milliseconds(300))
            #expect(try blog.store.comments.comment(id: source) == nil)
        }
    }
}
