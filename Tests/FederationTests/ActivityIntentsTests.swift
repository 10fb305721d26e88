import Testing
@testable import Federation

/// FEP-3b86 intents as servers publish them (the FEP's examples, Mastodon's subscribe template,
/// WordPress 7.6's `Create`), and what the reply form does with them.
@Suite struct ActivityIntentsTests {
    let post = "https://blog.example/2025/hello/"
    let escaped = "https%3A%2F%2Fblog.example%2F2025%2Fhello%2F"

    func jrd(_ links: [[String: String]], actor: String = "https://social.example/users/me") -> [String: Any] {
        ["subject": "acct:me@social.example",
         "links": [["rel": "self", "type": "application/activity+json", "href": actor]] + links]
    }

    @Test func createIntentWinsAndUnknownVariablesExpandToNothing() {
        let intents = ActivityIntents(jrd: jrd([
            ["rel": ActivityIntents.subscribeRel, "template": "https://social.example/authorize_interaction?uri={uri}"],
            ["rel": ActivityIntents.createRel, "template": "https://social.example/share?inReplyTo={inReplyTo}&text={content}"],
        ]))
        #expect(intents.reply(to: post) == "https://social.example/share?inReplyTo=\(escaped)&text=")
    }

    @Test func objectThenSubscribeAreTheFallbacks() {
        let object = ActivityIntents(jrd: jrd([
            ["rel": ActivityIntents.createRel, "template": "https://social.example/share?text={content}"],  // no inReplyTo: not a reply
            ["rel": ActivityIntents.objectRel, "template": "https://social.example/intents/object?objectId={object}"],
        ]))
        #expect(object.reply(to: post) == "https://social.example/intents/object?objectId=\(escaped)")
        let mastodon = ActivityIntents(jrd: jrd([
            ["rel": ActivityIntents.subscribeRel, "template": "https://social.example/authorize_interaction?uri={uri}"],
        ]))
        #expect(mastodon.reply(to: post) == "https://social.example/authorize_interaction?uri=\(escaped)")
        #expect(ActivityIntents(jrd: jrd([])).reply(to: post) == nil)
    }

    /// A WebFinger answer cannot send the reader anywhere but the account's own server.
    @Test(arguments: [
        "https://bank.example/transfer?to={inReplyTo}", "javascript:alert({inReplyTo})", "http://social.example/share?r={inReplyTo}",
        "https://user@social.example/share?r={inReplyTo}", "https://social.example/share?r={inReplyTo", "//social.example/{inReplyTo}",
    ])
    func templatesOffTheAccountsServerAreRefused(template: String) {
        let intents = ActivityIntents(jrd: jrd([["rel": ActivityIntents.createRel, "template": template]]))
        #expect(intents.reply(to: post) == nil)
    }

    @Test func aServerOnASubdomainOfTheHandlesDomainIsItsOwn() {
        let intents = ActivityIntents(jrd: jrd([["rel": ActivityIntents.createRel, "template": "https://social.example/share?r={inReplyTo}"]],
                                               actor: "https://example/users/me"))
        #expect(intents.reply(to: post) != nil)
        let noActor = ActivityIntents(jrd: ["links": [["rel": ActivityIntents.createRel, "template": "https://social.example/s?r={inReplyTo}"]]])
        #expect(noActor.reply(to: post) == nil, "no self link: nothing ties the template to the account")
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
