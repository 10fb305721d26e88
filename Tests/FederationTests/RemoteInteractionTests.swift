@testable import ActivityPub
import Testing

/// What a reader may type as their server under a post: a hostname, nothing else.
@Suite struct RemoteInteractionTests {
    @Test(arguments: [
        ("mastodon.social", "mastodon.social"), ("  Mastodon.Social  ", "mastodon.social"), ("https://mastodon.social/", "mastodon.social"),
        ("@me@hachyderm.io", "hachyderm.io"), ("me@fosstodon.org", "fosstodon.org"), ("social.example.", "social.example"),
        ("xn--bcher-kva.example", "xn--bcher-kva.example"),
    ])
    func hostnamesAreAccepted(typed: String, host: String) {
        #expect(RemoteInteraction.hostname(typed) == host)
    }

    @Test(arguments: ["", "localhost", "127.0.0.1", "[::1]", "mastodon.social:8443", "evil.example/path", "a b.example",
                      "javascript:alert(1)", "-bad.example", "bad-.example", "évil.example", "mastodon.social?x=1",
                      "user:pass@evil.example/x", String(repeating: "a", count: 64) + ".example", "1.2.3.4"])
    func anythingElseIsRefused(typed: String) {
        #expect(RemoteInteraction.hostname(typed) == nil)
    }

    @Test func onlyThisBlogsURLsAreSent() throws {
        let interaction = RemoteInteraction(baseURL: "https://blog.example")
        #expect(try interaction.redirect(instance: "mastodon.social", uri: "https://blog.example/2025/a-b/?x=1&y")
                == "https://mastodon.social/authorize_interaction?uri=https%3A%2F%2Fblog.example%2F2025%2Fa-b%2F%3Fx%3D1%26y")
        #expect(throws: RemoteInteraction.Refusal.notOurs) {
            try interaction.redirect(instance: "mastodon.social", uri: "https://blog.example.evil.example/")
        }
        #expect(throws: RemoteInteraction.Refusal.notAHostname) {
            try interaction.redirect(instance: "127.0.0.1", uri: "https://blog.example/2025/a/")
        }
    }
}
