import BlogModel
import Foundation
import OutboundHTTP
import HTTPSignatures
import Hummingbird
import Interactions
import LecternCrypto
import Logging
import Site
import Storage
import Testing
@testable import WebServer

@Suite struct AuthorizedFetchTests {
    @Test func signedFetchesOnlyWhenConfigured() async throws {
        let remote = try FakeInstance()
        try await remote.start()
        defer { remote.stop() }
        let remoteBase = remote.base.value

        let root = FileManager.default.temporaryDirectory.appendingPathComponent("lectern-secure-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        try SiteScaffold.create(at: root)
        let configFile = root.appendingPathComponent("lectern.yml")
        // The blog's baseURL names the port it listens on: signed requests must be addressed to it.
        let port = try freePort()
        try (String(contentsOf: configFile, encoding: .utf8).replacingOccurrences(of: "127.0.0.1:8080", with: "127.0.0.1:\(port)")
             + "federation:\n  authorizedFetch: true\n  allowPrivateAddresses: true\n")
            .write(to: configFile, atomically: true, encoding: .utf8)
        try SiteBuilder(root: root).build()
        let config = try SiteConfig.load(from: root)
        let store = try Store.inMemory()
        let activityPub = try BlogActor(config: config, store: store,
                                              keys: KeyStore(folder: root.appendingPathComponent("data/keys")), render: MarkdownRenderer.federatedBody)
        try activityPub.reload(content: try ContentLoader(root: root, timeZone: config.timeZone).load(includeDrafts: false))
        let logger = quietLogger("test")
        let site = try ServedFiles(publicFolder: root.appendingPathComponent("public"))
        let (_, application) = try await startApplication { onRunning in
            LecternServer.makeApplication(site: site, activityPub: { activityPub }, host: "127.0.0.1", port: port, logger: logger,
                                          onServerRunning: onRunning)
        }
        defer { application.stop() }

        let client = FetchClient(allowPrivateAddresses: true)
        func get(_ path: String, accept: String = "application/activity+json", as keyId: String? = nil,
                 key: PrivateKey? = nil) async throws -> Int {
            var request = HTTPRequestParts(method: "GET", url: "http://127.0.0.1:\(port)\(path)", headers: [("Accept", accept)])
            if let keyId, let key { try CavageSigner(keyId: keyId, key: key).sign(&request) }
            return try await client.perform(OutgoingRequest(url: request.targetURI, headers: request.headers), on: testTransfers).status
        }
        let aliceKey = "\(remoteBase)/users/alice#main-key"

        #expect(try await get("/actor/outbox") == 401)
        #expect(try await get("/2025/welcome-to-lectern/") == 401)
        #expect(try await get("/actor") == 200, "the actor stays public")
        #expect(try await get("/instance-actor") == 200)
        #expect(try await get("/.well-known/webfinger?resource=acct:blog@127.0.0.1:\(port)", accept: "*/*") == 200)
        #expect(try await get("/2025/welcome-to-lectern/", accept: "text/html") == 200, "pages stay public")

        #expect(try await get("/actor/outbox", as: aliceKey, key: remote.keys["alice"]!) == 200)
        #expect(try await get("/2025/welcome-to-lectern/", as: aliceKey, key: remote.keys["alice"]!) == 200)
        #expect(try store.actors.remoteKey(id: aliceKey)?.actorID == "\(remoteBase)/users/alice", "the key is cached with its owner")
        #expect(try store.actors.remoteActor(id: "\(remoteBase)/users/alice")?.handle == "@alice@\(remote.host)")

        #expect(try await get("/actor/featured", as: "\(remoteBase)/keys/bob", key: remote.keys["bob"]!) == 200, "key documents work too")
        #expect(try await get("/actor/outbox", as: aliceKey, key: remote.keys["bob"]!) == 401, "a forged signature is refused")
        #expect(try await get("/actor/outbox", as: "\(remoteBase)/users/nobody#main-key", key: remote.keys["bob"]!) == 401)
        _ = try store.blocks.block(.actor, "\(remoteBase)/users/alice")
        #expect(try await get("/actor/outbox", as: aliceKey, key: remote.keys["alice"]!) == 403, "blocks apply to signed fetches")
    }
}
