@testable import ActivityPub
import Foundation
import Testing

/// FEP-3b86 intents as servers publish them (the FEP's examples, Mastodon's subscribe template,
/// WordPress 7.6's `Create`), and what the reply form does with them.
@Suite struct ActivityIntentsTests {
    let post = "https://blog.example/2025/hello/"
    let escaped = "https%3A%2F%2Fblog.example%2F2025%2Fhello%2F"

    /// An answer as a server writes it, read as the blog reads every answer.
    func jrd(_ links: [[String: String]], actor: String = "https://social.example/users/me") -> JRD {
        let answer: [String: Any] = ["subject": "acct:me@social.example",
                                     "links": [["rel": "self", "type": "application/activity+json", "href": actor]] + links]
        return try! JSONDecoder().decode(JRD.self, from: JSONSerialization.data(withJSONObject: answer))
    }

    @Test func createIntentWinsAndUnknownVariablesExpandToNothing() {
        let intents = ActivityIntents(jrd: jrd([
            ["rel": ActivityIntents.subscribeRel, "template": "https://social.example/authorize_interaction?uri={uri}"],
            ["rel": ActivityIntents.createRel, "template": "https://social.example/share?inReplyTo={inReplyTo}&text={content}"],
        ]))
        #expect(intents.reply(to: post, host: "social.example") == "https://social.example/share?inReplyTo=\(escaped)&text=")
    }

    @Test func objectThenSubscribeAreTheFallbacks() {
        let object = ActivityIntents(jrd: jrd([
            ["rel": ActivityIntents.createRel, "template": "https://social.example/share?text={content}"],  // no inReplyTo: not a reply
            ["rel": ActivityIntents.objectRel, "template": "https://social.example/intents/object?objectId={object}"],
        ]))
        #expect(object.reply(to: post, host: "social.example") == "https://social.example/intents/object?objectId=\(escaped)")
        let mastodon = ActivityIntents(jrd: jrd([
            ["rel": ActivityIntents.subscribeRel, "template": "https://social.example/authorize_interaction?uri={uri}"],
        ]))
        #expect(mastodon.reply(to: post, host: "social.example") == "https://social.example/authorize_interaction?uri=\(escaped)")
        #expect(ActivityIntents(jrd: jrd([])).reply(to: post, host: "social.example") == nil)
    }

    /// Following the blog: the `Follow` intent with the actor as `object` (Pleroma, WordPress,
    /// and Emissary, which writes it as `href`), else the subscribe template.
    @Test func followIntentThenSubscribe() {
        let actor = "https://blog.example/actor", escapedActor = "https%3A%2F%2Fblog.example%2Factor"
        let follow = ActivityIntents(jrd: jrd([
            ["rel": ActivityIntents.subscribeRel, "template": "https://social.example/authorize_interaction?uri={uri}"],
            ["rel": ActivityIntents.followRel, "href": "https://social.example/intents/follow?object={object}"],
        ]))
        #expect(follow.follow(actor, host: "social.example") == "https://social.example/intents/follow?object=\(escapedActor)")
        let mastodon = ActivityIntents(jrd: jrd([
            ["rel": ActivityIntents.subscribeRel, "template": "https://social.example/authorize_interaction?uri={uri}"],
        ]))
        #expect(mastodon.follow(actor, host: "social.example") == "https://social.example/authorize_interaction?uri=\(escapedActor)")
        let elsewhere = ActivityIntents(jrd: jrd([["rel": ActivityIntents.followRel, "template": "https://bank.example/f?o={object}"]]))
        #expect(elsewhere.follow(actor, host: "social.example") == nil)
    }

    /// A WebFinger answer cannot send the reader anywhere but the account's own server.
    @Test(arguments: [
        "https://bank.example/transfer?to={inReplyTo}", "javascript:alert({inReplyTo})", "http://social.example/share?r={inReplyTo}",
        "https://user@social.example/share?r={inReplyTo}", "https://social.example/share?r={inReplyTo", "//social.example/{inReplyTo}",
    ])
    func templatesOffTheAccountsServerAreRefused(template: String) {
        let intents = ActivityIntents(jrd: jrd([["rel": ActivityIntents.createRel, "template": template]]))
        #expect(intents.reply(to: post, host: "social.example") == nil)
    }

    /// The typed handle's server, or one of its subdomains (a domain that answers WebFinger for
    /// `me@example.com` and serves from `social.example.com`); never a parent domain, and never
    /// on the word of the WebFinger answer itself (its `self` link is the same author's).
    @Test func onlyTheTypedServerOrItsSubdomainsAreFollowed() {
        let delegated = ActivityIntents(jrd: jrd([["rel": ActivityIntents.createRel, "template": "https://social.example.com/share?r={inReplyTo}"]],
                                                 actor: "https://social.example.com/users/me"))
        #expect(delegated.reply(to: post, host: "example.com") != nil)
        let elsewhere = ActivityIntents(jrd: jrd([["rel": ActivityIntents.createRel, "template": "https://login.bank.example/x?r={inReplyTo}"]],
                                                 actor: "https://bank.example/users/x"))
        #expect(elsewhere.reply(to: post, host: "social.example") == nil, "the JRD's own self link vouches for nothing")
        let parent = ActivityIntents(jrd: jrd([["rel": ActivityIntents.createRel, "template": "https://co.uk/x?r={inReplyTo}"]],
                                              actor: "https://evil.co.uk/users/me"))
        #expect(parent.reply(to: post, host: "evil.co.uk") == nil, "a parent domain (here a public suffix) is not the server")
        let broken = ActivityIntents(jrd: jrd([["rel": ActivityIntents.createRel, "template": "https://social.example/x?r={inReplyTo}\r\nSet-Cookie: a=b"]]))
        #expect(broken.reply(to: post, host: "social.example") == nil, "a URL with characters outside RFC 3986 is no URL")
    }

    @Test(arguments: [("@me@social.example", "me", "social.example"), ("me@Social.Example", "me", "social.example"),
                      (" @a.b_c-d@hachyderm.io ", "a.b_c-d", "hachyderm.io")])
    func handlesAreRead(typed: String, user: String, host: String) {
        let account = RemoteInteraction.account(typed)
        #expect(account?.user == user && account?.host == host)
    }

    @Test(arguments: ["social.example", "@@social.example", "me@127.0.0.1:8080", "me@social.example/x", "m e@social.example",
                      "me@evil.example@social.example", "\u{00E9}@social.example"])
    func anythingElseIsNoHandle(typed: String) {
        #expect(RemoteInteraction.account(typed) == nil)
    }
}
