import BlogModel
import Foundation
import Hummingbird
import HummingbirdTesting
import Interactions
import LecternCrypto
import Logging
import Site
import Storage
import Testing
@testable import WebServer

/// The real server on an ephemeral port, with the ActivityPub surface of a scaffolded site.
private func withFederatedServer(_ test: @escaping @Sendable (any TestClientProtocol, URL, BlogActor) async throws -> Void)
async throws {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("lectern-ap-serve-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: root) }
    try SiteScaffold.create(at: root)
    try SiteBuilder(root: root).build()
    let config = try SiteConfig.load(from: root)
    let activityPub = try BlogActor(config: config, store: try Store.inMemory(),
                                          keys: KeyStore(folder: root.appendingPathComponent("data/keys")), render: MarkdownRenderer.federatedBody)
    try activityPub.reload(content: try ContentLoader(root: root, timeZone: config.timeZone).load(includeDrafts: false))
    var logger = Logger(label: "test")
    logger.logLevel = .critical  // cancelled test servers report their shutdown as errors
    let app = LecternServer.makeApplication(site: try ServedFiles(publicFolder: root.appendingPathComponent("public")),
                                            activityPub: { activityPub }, host: "127.0.0.1", port: 0, logger: logger)
    try await app.test(.live) { client in try await test(client, root, activityPub) }
}

private func json(_ response: TestResponse) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any])
}

@Suite struct ActivityPubServerTests {
    let post = "/2025/welcome-to-lectern/"
    let activityJSON = "application/activity+json; charset=utf-8"

    @Test(arguments: [("application/activity+json", true), ("application/ld+json; profile=\"https://www.w3.org/ns/activitystreams\"", true),
                      ("text/html,application/xhtml+xml,*/*;q=0.8", false), ("*/*", false), (nil, false)] as [(String?, Bool)])
    func postURLNegotiates(accept: String?, wantsJSON: Bool) async throws {
        try await withFederatedServer { client, _, _ in
            let headers: HTTPFields = accept.map { [.accept: $0] } ?? [:]
            try await client.execute(uri: post, method: .get, headers: headers) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.vary]?.contains("Accept") == true)
                if wantsJSON {
                    #expect(response.headers[.contentType] == activityJSON)
                    let article = try json(response)
                    #expect(article["type"] as? String == "Article")
                    #expect(article["id"] as? String == "http://127.0.0.1:8080\(post)")
                } else {
                    #expect(response.headers[.contentType] == "text/html; charset=utf-8")
                    #expect(response.headers[HTTPFields.Element.Name("Link")!]
                            == "<http://127.0.0.1:8080\(post)>; rel=\"alternate\"; type=\"application/activity+json\"")
                }
            }
        }
    }

    @Test func removedPostAnswers410InBothForms() async throws {
        try await withFederatedServer { client, root, activityPub in
            try FileManager.default.removeItem(at: root.appendingPathComponent("content/posts/2025-01-12-welcome-to-lectern.md"))
            let config = try SiteConfig.load(from: root)
            try activityPub.reload(content: try ContentLoader(root: root, timeZone: config.timeZone).load(includeDrafts: false))
            try await client.execute(uri: post, method: .get, headers: [.accept: "application/activity+json"]) { response in
                #expect(response.status == .gone)
                let tombstone = try json(response)
                #expect(tombstone["type"] as? String == "Tombstone")
            }
            try await client.execute(uri: post, method: .get) { response in
                #expect(response.status == .gone)
                #expect(String(buffer: response.body).contains("This post was removed"))
            }
            try await client.execute(uri: "/2025/never-existed/", method: .get, headers: [.accept: "application/activity+json"]) {
                #expect($0.status == .notFound)
            }
        }
    }

    @Test func discoveryRoutes() async throws {
        try await withFederatedServer { client, _, _ in
            try await client.execute(uri: "/.well-known/webfinger?resource=acct%3Ablog%40127.0.0.1%3A8080", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "application/jrd+json; charset=utf-8")
                #expect(response.headers[.accessControlAllowOrigin] == "*")
                let jrd = try json(response)
                #expect(jrd["subject"] as? String == "acct:blog@127.0.0.1:8080")
            }
            try await client.execute(uri: "/.well-known/webfinger?resource=acct:someone@127.0.0.1:8080", method: .get) {
                #expect($0.status == .notFound)
            }
            try await client.execute(uri: "/.well-known/webfinger", method: .get) { #expect($0.status == .badRequest) }
            try await client.execute(uri: "/.well-known/host-meta", method: .get) { response in
                #expect(response.headers[.contentType] == "application/xrd+xml; charset=utf-8")
                #expect(String(buffer: response.body).contains("/.well-known/webfinger?resource={uri}"))
            }
            try await client.execute(uri: "/.well-known/nodeinfo", method: .get) { response in
                let links = try #require(try json(response)["links"] as? [[String: String]])
                #expect(links.first?["href"] == "http://127.0.0.1:8080/nodeinfo/2.1")
            }
            try await client.execute(uri: "/nodeinfo/2.1", method: .get) { response in
                let info = try json(response)
                #expect((info["usage"] as? [String: Any])?["localPosts"] as? Int == 3)
                #expect(info["openRegistrations"] as? Bool == false)
            }
        }
    }

    @Test func actorsAndCollections() async throws {
        try await withFederatedServer { client, _, _ in
            for uri in ["/actor", "/instance-actor", "/actor/outbox", "/actor/outbox?page=1", "/actor/followers",
                        "/actor/following", "/actor/featured", "\(post)replies", "\(post)replies?page=1"] {
                try await client.execute(uri: uri, method: .get, headers: [.accept: "application/activity+json"]) { response in
                    #expect(response.status == .ok, "\(uri)")
                    #expect(response.headers[.contentType] == activityJSON, "\(uri)")
                    let document = try json(response)
                    #expect((document["id"] as? String)?.hasPrefix("http://127.0.0.1:8080/") == true, "\(uri)")
                }
            }
            try await client.execute(uri: "/actor/outbox?page=0", method: .get) { #expect($0.status == .badRequest) }
            try await client.execute(uri: "/2025/no-such-post/replies", method: .get) { #expect($0.status == .notFound) }
            try await client.execute(uri: "/@blog", method: .get, headers: [.accept: "text/html"]) { response in
                #expect(response.status == .found)
                #expect(response.headers[.location] == "/")
            }
            try await client.execute(uri: "/@blog", method: .get, headers: [.accept: "application/activity+json"]) { response in
                let actor = try json(response)
                #expect(actor["type"] as? String == "Person")
            }
        }
    }
}
