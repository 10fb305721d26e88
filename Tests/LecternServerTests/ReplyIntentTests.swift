import Foundation
import OutboundHTTP
import Testing

/// The reply form with a handle: the reader's server's FEP-3b86 intent, found with one
/// WebFinger lookup (kept for the next reader), else `authorize_interaction`.
@Suite struct ReplyIntentTests {
    func interact(_ blog: BlogFixture, _ typed: String) async throws -> (status: Int, location: String?) {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        let query = "instance=\(typed.addingPercentEncoding(withAllowedCharacters: allowed)!)&uri="
            + blog.postID.addingPercentEncoding(withAllowedCharacters: allowed)!
        let response = try await HTTPClientForTests.get(blog.base + "/interact?" + query, accept: "text/html")
        return (response.status, response.header("location"))
    }

    @Test func aHandlesCreateIntentIsUsedAndRemembered() async throws {
        try await withBlog { remote, blog in
            remote.serve("/.well-known/webfinger", [
                "subject": "acct:alice@\(remote.host)",
                "links": [["rel": "self", "type": "application/activity+json", "href": remote.actorID("alice")],
                          ["rel": "https://w3id.org/fep/3b86/Create", "template": "\(remote.base.value)/share?inReplyTo={inReplyTo}&text={content}"]],
            ])
            let first = try await interact(blog, "@alice@\(remote.host)")
            #expect(first.status == 303)
            let expected = "\(remote.base.value)/share?inReplyTo="
                + blog.postID.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(.init(charactersIn: "-._~")))! + "&text="
            #expect(first.location == expected)
            #expect(try await interact(blog, "alice@\(remote.host)").location == expected)
            #expect(remote.getCount("/.well-known/webfinger") == 1, "the second reader's answer came from memory")
            // A bare server name asks nobody: Mastodon's authorize_interaction, as before.
            #expect(try await interact(blog, "mastodon.social").location?.hasPrefix("https://mastodon.social/authorize_interaction?uri=") == true)
            #expect(remote.getCount("/.well-known/webfinger") == 1)
        }
    }

    @Test func aTemplateToAnotherServerIsNotFollowed() async throws {
        try await withBlog { remote, blog in
            remote.serve("/.well-known/webfinger", [
                "links": [["rel": "self", "type": "application/activity+json", "href": remote.actorID("alice")],
                          ["rel": "https://w3id.org/fep/3b86/Create", "template": "https://bank.example/pay?to={inReplyTo}"]],
            ])
            let answer = try await interact(blog, "@alice@\(remote.host)")
            #expect(answer.status == 400 && answer.location == nil, "no redirect off the account's server")
            #expect(remote.getCount("/.well-known/webfinger") == 1)
        }
    }

    /// The follow card: the reader's `Follow` intent for the blog's actor (whatever `uri` says),
    /// else their server's `authorize_interaction` for the actor.
    @Test func theFollowCardSendsAReaderToTheirServersFollowIntent() async throws {
        try await withBlog { remote, blog in
            remote.serve("/.well-known/webfinger", [
                "subject": "acct:alice@\(remote.host)",
                "links": [["rel": "self", "type": "application/activity+json", "href": remote.actorID("alice")],
                          ["rel": "http://ostatus.org/schema/1.0/subscribe", "template": "\(remote.base.value)/authorize_interaction?uri={uri}"],
                          ["rel": "https://w3id.org/fep/3b86/Follow", "template": "\(remote.base.value)/intents/follow?object={object}"]],
            ])
            var allowed = CharacterSet.alphanumerics
            allowed.insert(charactersIn: "-._~")
            func follow(_ typed: String, uri: String = "") async throws -> (status: Int, location: String?) {
                let response = try await HTTPClientForTests.get(blog.base + "/interact?intent=follow&instance="
                    + typed.addingPercentEncoding(withAllowedCharacters: allowed)! + "&uri=" + uri, accept: "text/html")
                return (response.status, response.header("location"))
            }
            let actor = blog.actor.addingPercentEncoding(withAllowedCharacters: allowed)!
            let answer = try await follow("@alice@\(remote.host)", uri: "https%3A%2F%2Fevil.example%2F")
            #expect(answer.status == 303 && answer.location == "\(remote.base.value)/intents/follow?object=\(actor)", "\(answer)")
            #expect(try await follow("social.example").location == "https://social.example/authorize_interaction?uri=\(actor)")
            #expect(try await follow("").status == 400)
        }
    }
}
