import Foundation
import LecternRuntime
import OutboundHTTP
import Storage
import Testing

/// Email subscribers through `lectern serve` and a real SMTP server (aiosmtpd on loopback):
/// double opt-in, one mail per new post with the headers mail clients act on, one-click
/// unsubscribe, and every way a stranger could use the form to mail others refused.
@Suite(.serialized) struct NewsletterTests {
    static func config(_ sink: SMTPSink, extra: String = "") -> String {
        """
        newsletter:
          enabled: true
          smtp: smtp://127.0.0.1:\(sink.port)
          from: "Test Blög <blog@blog.example>"
          unsubscribeMailto: unsubscribe@blog.example
          perMinute: 6000
        \(extra)
        """
    }

    /// A real SMTP server, and a blog whose newsletter sends to it, both stopped after `body`.
    func withNewsletter(extra: String = "", _ body: (SMTPSink, BlogFixture) async throws -> Void) async throws {
        let sink = try SMTPSink()
        defer { sink.stop() }
        let remote = try FakeInstance()
        try await remote.start()
        defer { remote.stop() }
        let blog = try await BlogFixture(remote: remote, extraConfig: Self.config(sink, extra: extra))
        defer { blog.stop() }
        try await body(sink, blog)
    }

    func form(_ blog: BlogFixture, _ path: String, _ body: String) async throws -> IncomingResponse {
        try await FetchClient(allowPrivateAddresses: true).perform(
            OutgoingRequest(method: "POST", url: blog.base + path, headers: [("Content-Type", "application/x-www-form-urlencoded")],
                            body: Array(body.utf8)), on: testTransfers)
    }

    func newPost(_ blog: BlogFixture, _ slug: String, title: String) throws {
        let now = ISO8601DateFormatter().string(from: Date().addingTimeInterval(-60))
        try "---\ntitle: \(title)\ndate: \(now)\n---\nA paragraph with [a link](/about/).\n\nAnd a second one.\n"
            .write(to: blog.root.appendingPathComponent("content/posts/\(slug).md"), atomically: true, encoding: .utf8)
        try blog.rebuild()
    }

    @Test func subscribeConfirmReceiveAndUnsubscribeInOneClick() async throws {
        try await withNewsletter { sink, blog in try await subscribeConfirmReceiveAndUnsubscribe(sink, blog) }
    }

    func subscribeConfirmReceiveAndUnsubscribe(_ sink: SMTPSink, _ blog: BlogFixture) async throws {
        #expect(try await blog.get("/").body.contains(#"<form class="subscribe-form" action="/subscribe" method="post">"#))

        let answer = try await form(blog, "/subscribe", "email=reader%40example.com")
        #expect(answer.status == 200 && String(decoding: answer.body, as: UTF8.self).contains("Check your inbox"))
        _ = try await form(blog, "/subscribe", "email=lurker%40example.com")  // never confirms
        #expect(try await eventually(within: 10) { sink.mails(to: "reader@example.com").count == 1 })
        let confirmation = try #require(sink.mails(to: "reader@example.com").first)
        #expect(confirmation.header("Subject")?.hasPrefix("Confirm your subscription") == true)
        #expect(confirmation.from == "blog@blog.example")
        let text = try #require(confirmation.parts.first)
        let link = try #require(text.components(separatedBy: .whitespacesAndNewlines).first { $0.contains("/subscribe/confirm?token=") })
        let token = try #require(link.components(separatedBy: "token=").last)

        // Following the link (as a mail scanner would) confirms nothing: its page has a button.
        let page = try await blog.get(String(link.dropFirst(blog.base.count)))
        #expect(page.status == 200 && page.body.contains("Confirm my subscription"))
        #expect(try blog.store.subscribers.all().first { $0.email == "reader@example.com" }?.state == .pending)
        #expect(try await form(blog, "/subscribe/confirm", "token=\(token)").status == 200)
        #expect(try blog.store.subscribers.all().first { $0.email == "reader@example.com" }?.state == .confirmed)
        #expect(try await form(blog, "/subscribe/confirm", "token=\(token)").status == 410, "a link confirms once")

        try newPost(blog, "letter", title: "A letter to readers")
        #expect(try await eventually(within: 10) { sink.mails(to: "reader@example.com").count == 2 })
        let mail = try #require(sink.mails(to: "reader@example.com").last)
        #expect(mail.header("Subject") == "A letter to readers")
        let unsubscribe = try #require(mail.header("List-Unsubscribe"))
        #expect(unsubscribe.hasPrefix("<\(blog.base)/unsubscribe?token=") && unsubscribe.hasSuffix(", <mailto:unsubscribe@blog.example?subject=unsubscribe>"))
        #expect(mail.header("List-Unsubscribe-Post") == "List-Unsubscribe=One-Click")
        #expect(mail.header("Message-ID")?.hasSuffix("@127.0.0.1>") == true && mail.header("Date") != nil)
        #expect(mail.header("From") == "=?UTF-8?B?VGVzdCBCbMO2Zw==?= <blog@blog.example>", "a non-ASCII name is an encoded word")
        #expect(mail.header("Content-Type")?.hasPrefix("multipart/alternative;") == true)
        #expect(mail.parts.count == 2 && mail.parts[0].contains("A paragraph with a link.") && mail.parts[1].contains("href=\"\(blog.base)/about/\""))
        #expect(sink.mails(to: "lurker@example.com").count == 1, "an unconfirmed address gets its confirmation only")

        // One click (RFC 8058): the POST a mail client sends removes the address at once.
        let url = String(unsubscribe.dropFirst().prefix { $0 != ">" })
        let unsubscribed = try await form(blog, String(url.dropFirst(blog.base.count)), "List-Unsubscribe=One-Click")
        #expect(unsubscribed.status == 200)
        #expect(try blog.store.subscribers.all().map(\.email) == ["lurker@example.com"])
        try newPost(blog, "second", title: "Nobody reads this by mail")
        try await Task.sleep(for: .seconds(1.5))
        #expect(sink.mails(to: "reader@example.com").count == 2, "after unsubscribing, nothing more")
    }

    @Test func theFormCannotBeUsedToMailStrangers() async throws {
        try await withNewsletter(extra: "  confirmationsPerHour: 3\n") { sink, blog in try await formAbuse(sink, blog) }
    }

    func formAbuse(_ sink: SMTPSink, _ blog: BlogFixture) async throws {
        // Not addresses, or addresses carrying a header or a second recipient.
        for typed in ["nobody", "a@b", "a%0d%0aBcc:%20x@y.example@example.com", "a%0aBcc:%20x%40y.example%40example.com",
                      "%22q%20u%22%40example.com", "caf%C3%A9%40example.com", "a%40b.example%2C%20c%40d.example"] {
            #expect(try await form(blog, "/subscribe", "email=\(typed)").status == 400, "\(typed)")
        }
        #expect(try await form(blog, "/subscribe", "email=" + String(repeating: "a", count: 5000)).status == 413)
        _ = try blog.store.blocks.block(.domain, "spam.example")
        #expect(try await form(blog, "/subscribe", "email=x%40mail.spam.example").status == 403)
        // The same address twice: one confirmation a day.
        #expect(try await form(blog, "/subscribe", "email=victim%40example.com").status == 200)
        #expect(try await form(blog, "/subscribe", "email=victim%40example.com").status == 200)
        // The hour's cap (3 here), all addresses together.
        #expect(try await form(blog, "/subscribe", "email=b%40example.com").status == 200)
        #expect(try await form(blog, "/subscribe", "email=c%40example.com").status == 200)
        #expect(try await form(blog, "/subscribe", "email=d%40example.com").status == 503)
        #expect(try await eventually(within: 10) { sink.received.count == 3 })
        try await Task.sleep(for: .seconds(1))
        #expect(sink.mails(to: "victim@example.com").count == 1 && sink.received.count == 3, "\(sink.received.map(\.to))")
        #expect(try blog.store.subscribers.all().allSatisfy { $0.state == .pending }, "nobody is subscribed without confirming")
    }

    /// A relay that refuses an address for good (550) fails that mail; one that asks to try
    /// later (451) keeps it queued; the others are sent meanwhile.
    @Test func refusalsForGoodAndForNowAreToldApart() async throws {
        try await withNewsletter { sink, blog in try await refusals(sink, blog) }
    }

    func refusals(_ sink: SMTPSink, _ blog: BlogFixture) async throws {
        let addresses = ["bounce@example.com", "busy@example.com", "fine@example.com"].compactMap(MailAddressForTests.make)
        #expect(try blog.runtime.addSubscribers(addresses, origin: .imported) == 3)
        try newPost(blog, "news", title: "News")
        #expect(try await eventually(within: 10) { sink.mails(to: "fine@example.com").count == 1 })
        // The relay holds fine@'s mail before the worker hears its 250 and marks it sent, and the
        // worker may refuse bounce@ first: wait for all three outcomes together.
        let settled = try await eventually(within: 5) {
            let counts = try blog.store.mails.counts()
            return counts.failed == 1 && counts.sent == 1 && counts.queued == 1
        }
        let counts = try blog.store.mails.counts()
        #expect(settled, "\(counts)")
        #expect(try blog.store.subscribers.all().first { $0.email == "bounce@example.com" }?.failures == 1)
    }
}

import BlogModel
enum MailAddressForTests {
    static func make(_ text: String) -> MailAddress? { MailAddress(text) }
}
