@testable import ActivityPub
import Foundation
import Testing
@testable import Site
import Storage

@Suite struct DocumentTests {
    /// Compares with `Golden/<name>.json` (pretty-printed). LECTERN_UPDATE_GOLDEN=1 rewrites
    /// the files; review the diff.
    private func golden(_ name: String, _ data: Data) throws {
        let object = try JSONSerialization.jsonObject(with: data)
        let pretty = try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
        let text = String(decoding: pretty, as: UTF8.self) + "\n"
        let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden/\(name).json")
        if ProcessInfo.processInfo.environment["LECTERN_UPDATE_GOLDEN"] != nil { try Data(text.utf8).write(to: source) }
        #expect(text == (try String(contentsOf: source, encoding: .utf8)), "\(name) differs from its golden file")
        try validate(object, path: name)
    }

    /// Every `id`, `inbox`, `outbox`… is an absolute URL on our host.
    private func validate(_ value: Any, path: String) throws {
        let urlKeys: Set<String> = ["id", "inbox", "outbox", "followers", "following", "featured", "sharedInbox", "owner",
                                    "attributedTo", "actor", "replies", "partOf", "first", "last", "next", "prev", "url", "href"]
        if let object = value as? [String: Any] {
            for (key, child) in object {
                if urlKeys.contains(key), let text = child as? String {
                    #expect(text.hasPrefix("https://blog.example/") || text.hasPrefix("https://ada.example"),
                            "\(path).\(key) = \(text) is not an absolute URL on our host")
                }
                try validate(child, path: "\(path).\(key)")
            }
        } else if let array = value as? [Any] {
            for (index, child) in array.enumerated() { try validate(child, path: "\(path)[\(index)]") }
        }
    }

    private func object(_ data: Data) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test func actorDocuments() throws {
        let fixture = try FederationFixture()
        defer { fixture.remove() }
        try golden("actor", fixture.site.actorJSON)
        try golden("instance-actor", fixture.site.instanceActorJSON)
        let actor = try object(fixture.site.actorJSON)
        for field in ["id", "type", "preferredUsername", "inbox", "outbox", "followers", "following", "publicKey", "endpoints"] {
            #expect(actor[field] != nil, "actor needs \(field)")
        }
        let key = try #require(actor["publicKey"] as? [String: String])
        #expect(key["publicKeyPem"]?.hasPrefix("-----BEGIN PUBLIC KEY-----") == true)
        #expect(try !String(decoding: fixture.site.actorJSON, as: UTF8.self).contains("PRIVATE"))
    }

    @Test func articleAndTombstone() throws {
        let fixture = try FederationFixture()
        defer { fixture.remove() }
        guard case .article(let served) = try #require(fixture.site.post(path: "/2025/second-post/")) else {
            Issue.record("expected an article"); return
        }
        let article = try served.data()
        try golden("article", article)
        let content = try #require(try object(article)["content"] as? String)
        #expect(content.contains("href=\"https://blog.example/2025/first-post/\""), "links are absolute")
        #expect(!content.contains("class=\"anchor\""), "heading self-links are not federated")

        // The post disappears from the site: its id now answers with a Tombstone.
        var content2 = try FederationFixture.content()
        content2.posts.removeFirst()
        try fixture.site.reload(content: content2, now: Date(timeIntervalSince1970: 1_750_000_000))
        guard case .gone(let tombstone) = try #require(fixture.site.post(path: "/2025/second-post/")) else {
            Issue.record("expected a tombstone"); return
        }
        try golden("tombstone", tombstone)
        #expect(fixture.site.post(path: "/2025/no-such-post/") == nil)
    }

    @Test func reloadRendersOnlyEditedPostsAgain() throws {
        let fixture = try FederationFixture()
        defer { fixture.remove() }
        func article(_ path: String) -> Data? {
            if case .article(let served)? = fixture.site.post(path: path) { return try? served.data() }
            return nil
        }
        let first = article("/2025/first-post/"), second = article("/2025/second-post/")
        var content = try FederationFixture.content()
        content.posts[1] = try ContentParser(timeZone: TimeZone(identifier: "UTC")!).post(
            source: "---\ntitle: First post\ndate: 2025-01-01\n---\nEdited text.\n", file: "content/posts/first.md")
        try fixture.site.reload(content: content, now: Date(timeIntervalSince1970: 1_760_000_000))
        let edited = try #require(article("/2025/first-post/"))
        #expect(edited != first && String(decoding: edited, as: UTF8.self).contains("Edited text."))
        #expect(article("/2025/second-post/") == second, "the unchanged post is reused as it was")
        let outbox = String(decoding: try fixture.site.outbox(page: 1), as: UTF8.self)
        #expect(outbox.contains("Edited text."), "the outbox shows the edit too")
    }

    @Test func collections() throws {
        let fixture = try FederationFixture()
        defer { fixture.remove() }
        try golden("outbox", try fixture.site.outbox(page: nil))
        try golden("outbox-page-1", try fixture.site.outbox(page: 1))
        try golden("featured", try fixture.site.featured())
        try golden("following", try fixture.site.following(page: nil))
        try golden("followers", try fixture.site.followers(page: nil))
        try golden("replies", try #require(try fixture.site.replies(postPath: "/2025/first-post/", page: nil)))
        #expect(try fixture.site.replies(postPath: "/2025/nope/", page: nil) == nil)
        let page = try object(try fixture.site.outbox(page: 1))
        let items = try #require(page["orderedItems"] as? [[String: Any]])
        #expect(items.map { $0["type"] as? String } == ["Create", "Create"])
        #expect(items.compactMap { (($0["object"] as? [String: Any])?["nameMap"] as? [String: String])?["en"] } == ["Second post", "First post"])
    }

    @Test func followersListedOnlyWhenPublic() throws {
        let fixture = try FederationFixture(followersPublic: true)
        defer { fixture.remove() }
        #expect(try object(try fixture.site.followers(page: 1))["orderedItems"] as? [String] == [])
        let hidden = try FederationFixture()
        defer { hidden.remove() }
        #expect(try object(try hidden.site.followers(page: 1))["orderedItems"] == nil)
    }

    @Test func discoveryDocuments() throws {
        let fixture = try FederationFixture()
        defer { fixture.remove() }
        try golden("webfinger", try #require(try fixture.site.webFinger(resource: "acct:notes@blog.example")))
        try golden("nodeinfo", try fixture.site.nodeInfo())
        try golden("nodeinfo-links", try fixture.site.nodeInfoLinks())
        #expect(fixture.site.hostMeta.contains("template=\"https://blog.example/.well-known/webfinger?resource={uri}\""))
    }

    @Test(arguments: [
        ("acct:notes@blog.example", true), ("acct:NOTES@BLOG.EXAMPLE", true), ("notes@blog.example", true),
        ("@notes@blog.example", true), ("acct%3Anotes%40blog.example", true), ("https://blog.example/actor", true),
        ("https://blog.example/", true), ("acct:other@blog.example", false), ("acct:notes@evil.example", false),
        ("acct:notes", false), ("https://evil.example/actor", false), ("", false),
    ])
    func webFingerResources(resource: String, found: Bool) throws {
        let fixture = try FederationFixture()
        defer { fixture.remove() }
        #expect((try fixture.site.webFinger(resource: resource) != nil) == found)
    }
}

@Suite struct ContentNegotiationTests {
    @Test(arguments: [
        ("text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8", false),  // Firefox
        ("*/*", false),
        ("", false),
        ("application/activity+json", true),
        ("application/activity+json, application/ld+json", true),  // Mastodon's fetches
        ("application/ld+json; profile=\"https://www.w3.org/ns/activitystreams\"", true),
        ("application/ld+json;profile=\"https://www.w3.org/ns/activitystreams https://w3id.org/security/v1\"", true),
        ("application/ld+json; profile=\"https://example.org/other\"", false),
        ("text/html;q=0.9, application/activity+json", true),
        ("text/html, application/activity+json;q=0.5", false),
        ("application/activity+json;q=0", false),
        ("application/json", false),
        ("APPLICATION/Activity+JSON ; Q=0.7 , Text/HTML;q=0.6", true),
        ("\tapplication/activity+json\t;\tq=1.0", true),
        ("application/activity+json;q=", true),  // a parameter without a value is ignored
        ("application/activity+json;q= ", true),
        ("application/ld+json;profile=", true),
        ("text/html;level=1;q=0.8, application/ld+json;q=0.8;profile=\"https://www.w3.org/ns/activitystreams\"", true),
        ("application/activity+jsonx, text/plain", false),
    ])
    func matrix(accept: String, wantsJSON: Bool) {
        #expect(ContentNegotiation.wantsActivityJSON(accept: accept) == wantsJSON, "\(accept)")
    }
}
