import Foundation
import Storage
import Testing
@testable import WebServer

/// Answers the blog sends because a stranger asked go only to the asker's own server, once per
/// asker and object, within one hourly rate (docs/security.md): a quote request cannot aim the
/// blog's signed answers at a third party, nor multiply them.
@Suite(.serialized) struct AnswerBoundsTests {
    func quoteRequest(_ remote: FakeInstance, _ blog: BlogFixture, by name: String, status: String) -> [String: Any] {
        let actor = remote.actorID(name)
        return ["@context": ["https://www.w3.org/ns/activitystreams", ["QuoteRequest": "https://w3id.org/fep/044f#QuoteRequest"]],
                "id": actor + "/statuses/\(status)/quote", "type": "QuoteRequest", "actor": actor,
                "object": blog.postID, "instrument": actor + "/statuses/\(status)"]
    }

    /// Before: 200 requests from an actor whose `inbox` names a third party's server made the blog
    /// send 200 signed answers there and keep 200 authorizations.
    @Test func quoteAnswersNeverGoToAThirdParty() async throws {
        let victim = try FakeInstance(names: ["victim"])
        try await victim.start()
        defer { victim.stop() }
        try await withBlog { remote, blog in
            var mallory = FakeInstance.actorDocument("mallory", base: remote.base.value, pem: try remote.keys["mallory"]!.publicKey.pemSPKI())
            mallory["inbox"] = victim.sharedInbox
            mallory["endpoints"] = ["sharedInbox": victim.sharedInbox]
            remote.serve("/users/mallory", mallory)
            for n in 0..<20 {
                #expect(try await remote.send(quoteRequest(remote, blog, by: "mallory", status: "\(n)"), as: "mallory", to: blog.sharedInbox) == 202)
            }
            #expect(try await eventually { try blog.store.inbox.inboundBacklog() == 0 })
            try await Task.sleep(for: .seconds(1))  // time for deliveries, if any were queued
            #expect(victim.received.value.isEmpty, "nothing reached the third party")
            #expect(try blog.store.deliveries.deliveryStats().queued + blog.store.deliveries.deliveryStats().delivered == 0, "nothing was queued")
        }
    }

    /// The same quoting post asking again and again gets one answer a day.
    @Test func oneQuoteAnswerPerAskerAndPost() async throws {
        try await withBlog { remote, blog in
            for n in 0..<5 {
                // Each request its own id (as a server's retries would not have), the same quoting post.
                var request = quoteRequest(remote, blog, by: "alice", status: "1")
                request["id"] = remote.actorID("alice") + "/statuses/1/quote/\(n)"
                #expect(try await remote.send(request, as: "alice", to: blog.sharedInbox) == 202)
            }
            #expect(try await eventually { try blog.store.inbox.inboundBacklog() == 0 })
            #expect(try await eventually { !remote.activities(type: "Accept").isEmpty })
            try await Task.sleep(for: .seconds(1))  // time for more, if more were coming
            #expect(remote.activities(type: "Accept").count == 1, "one answer, not five")
        }
    }
}
