import Federation
import Foundation
import HTTPClient
import HTTPSignatures
import Hummingbird
import LecternCrypto
import Logging
import Site
import Store
import Testing
@testable import LecternServer

/// Starts an application in the background and returns the port it listens on.
private func start(_ make: (@escaping @Sendable (Int) async -> Void) -> some ApplicationProtocol)
async throws -> (port: Int, task: Task<Void, any Error>) {
    let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
    let app = make { port in continuation.yield(port) }
    let task = Task { try await app.runService(gracefulShutdownSignals: []) }
    for await port in ports { return (port, task) }
    throw CancellationError()
}

/// Another fediverse server: Alice's actor publishes her key inline; Bob's key is a separate
/// key document naming him as owner (as GoToSocial does).
private struct FakeRemote {
    let alice = try! PrivateKey.generate(.rsa(bits: 2048))
    let bob = try! PrivateKey.generate(.rsa(bits: 2048))

    func start() async throws -> (port: Int, task: Task<Void, any Error>) {
        let alicePEM = try alice.publicKey.pemSPKI(), bobPEM = try bob.publicKey.pemSPKI()
        var logger = Logger(label: "remote")
        logger.logLevel = .critical  // cancelled test servers report their shutdown as errors
        return try await LecternServerTests.start { onRunning in
            let router = Router()
            let base = PortBox()
            router.get("/users/alice") { _, _ in
                Self.json(["id": "\(base.url)/users/alice", "type": "Person", "preferredUsername": "alice",
                           "inbox": "\(base.url)/users/alice/inbox",
                           "publicKey": ["id": "\(base.url)/users/alice#main-key", "owner": "\(base.url)/users/alice",
                                         "publicKeyPem": alicePEM]])
            }
            router.get("/users/bob") { _, _ in
                Self.json(["id": "\(base.url)/users/bob", "type": "Person", "inbox": "\(base.url)/users/bob/inbox",
                           "publicKey": [["id": "\(base.url)/keys/bob", "owner": "\(base.url)/users/bob", "publicKeyPem": bobPEM]]])
            }
            router.get("/keys/bob") { _, _ in
                Self.json(["id": "\(base.url)/keys/bob", "type": "CryptographicKey", "owner": "\(base.url)/users/bob",
                           "publicKeyPem": bobPEM])
            }
            return Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
                               onServerRunning: { channel in
                                   let port = channel.localAddress?.port ?? 0
                                   base.set("http://127.0.0.1:\(port)")
                                   await onRunning(port)
                               }, logger: logger)
        }
    }

    static func json(_ object: [String: Any]) -> Response {
        let data = try! JSONSerialization.data(withJSONObject: object)
        return Response(status: .ok, headers: [.contentType: "application/activity+json"], body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}

/// The fake remote learns its own URL only once it listens.
private final class PortBox: @unchecked Sendable {
    private let lock = NSLock()
    private var value = ""
    var url: String { lock.withLock { value } }
    func set(_ url: String) { lock.withLock { value = url } }
}

@Suite struct AuthorizedFetchTests {
    @Test func signedFetchesOnlyWhenConfigured() async throws {
        let remote = FakeRemote()
        let (remotePort, remoteTask) = try await remote.start()
        defer { remoteTask.cancel() }
        let remoteBase = "http://127.0.0.1:\(remotePort)"

        let root = FileManager.default.temporaryDirectory.appendingPathComponent("lectern-secure-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        try SiteScaffold.create(at: root)
        let configFile = root.appendingPathComponent("lectern.yml")
        try (String(contentsOf: configFile, encoding: .utf8) + "federation:\n  authorizedFetch: true\n  allowPrivateAddresses: true\n")
            .write(to: configFile, atomically: true, encoding: .utf8)
        try SiteBuilder(root: root).build()
        let config = try SiteConfig.load(from: root)
        let store = try Store.inMemory()
        let activityPub = try ActivityPubSite(config: config, store: store,
                                              keys: KeyStore(folder: root.appendingPathComponent("data/keys")))
        try activityPub.reload(content: try ContentLoader(root: root, timeZone: config.timeZone).load(includeDrafts: false))
        var logger = Logger(label: "test")
        logger.logLevel = .critical
        let site = try LiveSite(publicFolder: root.appendingPathComponent("public"))
        let (port, serverTask) = try await start { onRunning in
            LecternServer.makeApplication(site: site, activityPub: activityPub, host: "127.0.0.1", port: 0, logger: logger,
                                          onServerRunning: onRunning)
        }
        defer { serverTask.cancel() }

        let client = HTTPClient(allowPrivateAddresses: true)
        func get(_ path: String, accept: String = "application/activity+json", as keyId: String? = nil,
                 key: PrivateKey? = nil) async throws -> Int {
            var request = HTTPRequestParts(method: "GET", url: "http://127.0.0.1:\(port)\(path)", headers: [("Accept", accept)])
            if let keyId, let key { try CavageSigner(keyId: keyId, key: key).sign(&request) }
            return try await client.perform(OutgoingRequest(url: request.targetURI, headers: request.headers)).status
        }
        let aliceKey = "\(remoteBase)/users/alice#main-key"

        #expect(try await get("/actor/outbox") == 401)
        #expect(try await get("/2025/welcome-to-lectern/") == 401)
        #expect(try await get("/actor") == 200, "the actor stays public")
        #expect(try await get("/instance-actor") == 200)
        #expect(try await get("/.well-known/webfinger?resource=acct:blog@127.0.0.1:8080", accept: "*/*") == 200)
        #expect(try await get("/2025/welcome-to-lectern/", accept: "text/html") == 200, "pages stay public")

        #expect(try await get("/actor/outbox", as: aliceKey, key: remote.alice) == 200)
        #expect(try await get("/2025/welcome-to-lectern/", as: aliceKey, key: remote.alice) == 200)
        #expect(try store.remoteKey(id: aliceKey)?.actorID == "\(remoteBase)/users/alice", "the key is cached with its owner")
        #expect(try store.remoteActor(id: "\(remoteBase)/users/alice")?.handle == "@alice@127.0.0.1")

        #expect(try await get("/actor/featured", as: "\(remoteBase)/keys/bob", key: remote.bob) == 200, "key documents work too")
        #expect(try await get("/actor/outbox", as: aliceKey, key: remote.bob) == 401, "a forged signature is refused")
        #expect(try await get("/actor/outbox", as: "\(remoteBase)/users/nobody#main-key", key: remote.bob) == 401)
    }
}
