import Foundation
import HTTPSignatures
import Hummingbird
import LecternCrypto
import Logging
import Synchronization

/// Many fediverse servers in one process: `instances` Hummingbird servers, each on a loopback
/// address and port of its own (127.0.1.N:P, so the blog sees as many hosts as a real fan-out
/// reaches and its per-host limits apply as they would), each with `actorsPerInstance` actors
/// sharing the instance's RSA key. Every server also answers as the personal inbox of any
/// follower seeded onto it (`/users/<name>/inbox`, on any 127.x address: they bind 0.0.0.0).
///
/// Inboxes verify each signature with the blog's key, consult `FaultPlan` (chaos) and record
/// every arrival in `DeliveryLog`.
final class FakeFediverse: Sendable {
    let instances: Int
    let actorsPerInstance: Int
    let basePort: Int
    let keys: [PrivateKey]
    let log: DeliveryLog
    let faults: FaultPlan?
    /// How long a stalled inbox waits before answering (past the blog's timeout).
    let stallSeconds: Double
    private let blogKey = Mutex<PublicKey?>(nil)
    private let tasks = Mutex<[Task<Void, any Error>]>([])

    init(instances: Int, actorsPerInstance: Int, basePort: Int, faults: FaultPlan?, stallSeconds: Double) throws {
        self.instances = instances
        self.actorsPerInstance = actorsPerInstance
        self.basePort = basePort
        self.faults = faults
        self.stallSeconds = stallSeconds
        keys = try (0..<instances).map { _ in try PrivateKey.generate(.rsa(bits: 2048)) }
        log = DeliveryLog()
    }

    var actorCount: Int { instances * actorsPerInstance }

    /// Actor `n` (0..<actorCount), as the blog sees it.
    func actor(_ n: Int) -> FakeActor {
        let instance = n % instances
        let base = "http://127.0.1.\(instance + 1):\(basePort + instance)"
        let id = "\(base)/users/a\(n / instances)"
        return FakeActor(index: n, id: id, inbox: id + "/inbox", base: base, key: keys[instance])
    }

    /// A personal inbox for seeded follower `n` (chaos: thousands of them), spread over
    /// 250 loopback addresses and every instance's port.
    func followerInbox(_ n: Int) -> (actor: String, inbox: String) {
        let base = "http://127.0.2.\(n % 250 + 1):\(basePort + n % instances)"
        return ("\(base)/users/f\(n)", "\(base)/users/f\(n)/inbox")
    }

    func setBlogKey(_ key: PublicKey) { blogKey.withLock { $0 = key } }

    func start() async throws {
        for instance in 0..<instances {
            let router = Router()
            let pem = try keys[instance].publicKey.pemSPKI()
            let port = basePort + instance
            router.get("/users/:name") { request, context -> Response in
                let name = context.parameters.get("name") ?? ""
                guard name.hasPrefix("a") else { return Response(status: .notFound) }
                let base = "http://\(request.head.authority ?? "127.0.1.\(instance + 1):\(port)")"
                let id = "\(base)/users/\(name)"
                return Self.json([
                    "@context": ["https://www.w3.org/ns/activitystreams", "https://w3id.org/security/v1"],
                    "id": id, "type": "Person", "preferredUsername": name, "name": "Soak \(name)", "url": id,
                    "inbox": id + "/inbox", "outbox": id + "/outbox", "endpoints": ["sharedInbox": "\(base)/inbox"],
                    "publicKey": ["id": id + "#main-key", "owner": id, "publicKeyPem": pem],
                ])
            }
            let inbox: @Sendable (Request, BasicRequestContext) async throws -> Response = { [self] request, _ in
                try await receive(request)
            }
            router.post("/inbox", use: inbox)
            router.post("/users/:name/inbox", use: inbox)
            let app = Application(router: router, configuration: .init(address: .hostname("0.0.0.0", port: port), backlog: 4096),
                                  logger: Self.quiet)
            tasks.withLock { $0.append(Task { try await app.runService(gracefulShutdownSignals: []) }) }
        }
        // Listening before anyone is told where they are.
        for instance in 0..<instances {
            var up = false
            for _ in 0..<100 where !up {
                up = (try? await Net.get(actor(instance).id, accept: "application/activity+json").status) == 200
                if !up { try await Task.sleep(for: .milliseconds(20)) }
            }
            guard up else { throw SoakError("fake instance \(instance) did not start on port \(basePort + instance)") }
        }
    }

    func stop() { tasks.withLock { $0.forEach { $0.cancel() } } }

    private func receive(_ request: Request) async throws -> Response {
        var request = request
        let arrived = Date()
        let body = Array(buffer: try await request.collectBody(upTo: 1 << 20))
        let authority = request.head.authority ?? ""
        let inbox = "http://\(authority)\(request.uri.path)"
        let object = (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any] ?? [:]
        let activityID = object["id"] as? String ?? "?"
        let type = object["type"] as? String ?? "?"
        let attempt = log.attempts(inbox: inbox, activity: activityID)
        let fault = faults?.fault(inbox: inbox, activity: activityID, attempt: attempt) ?? .none
        switch fault {
        case .status(let code):
            log.record(inbox: inbox, activity: activityID, type: type, at: arrived, answer: .status(code), signatureValid: nil)
            return Response(status: .init(code: code))
        case .retryAfter(let seconds):
            log.record(inbox: inbox, activity: activityID, type: type, at: arrived, answer: .retryAfter(seconds), signatureValid: nil)
            return Response(status: .tooManyRequests, headers: [.retryAfter: String(seconds)])
        case .stall:
            // Past the blog's timeout: it gives up, and this server drops the work.
            log.record(inbox: inbox, activity: activityID, type: type, at: arrived, answer: .stall, signatureValid: nil)
            try await Task.sleep(for: .milliseconds(Int(stallSeconds * 1000)))
            return Response(status: .serviceUnavailable)
        case .reset:
            // Headers promising a body, one byte of it, then the connection is dropped.
            log.record(inbox: inbox, activity: activityID, type: type, at: arrived, answer: .reset, signatureValid: nil)
            return Response(status: .accepted, headers: [.contentLength: "64"], body: ResponseBody { writer in
                try await writer.write(ByteBuffer(string: "x"))
                throw SoakError("connection dropped on purpose")
            })
        case .none:
            break
        }
        let parts = HTTPRequestParts(method: "POST", url: inbox,
                                     headers: [("Host", authority)] + request.headers.map { ($0.name.rawName, $0.value) }, body: body)
        var valid = false
        if let key = blogKey.withLock({ $0 }) {
            valid = (try? await SignatureVerifier().verify(parts, keys: FixedKey(key: key))) != nil
        }
        log.record(inbox: inbox, activity: activityID, type: type, at: arrived, answer: valid ? .accepted : .status(401), signatureValid: valid)
        return Response(status: valid ? .accepted : .unauthorized)
    }

    static func json(_ object: [String: Any]) -> Response {
        let data = (try? JSONSerialization.data(withJSONObject: object)) ?? Data()
        return Response(status: .ok, headers: [.contentType: "application/activity+json"], body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    static let quiet: Logger = {
        var logger = Logger(label: "fake-fediverse")
        logger.logLevel = .critical
        return logger
    }()
}

/// One of the fake fediverse's actors.
struct FakeActor: Sendable {
    let index: Int
    let id: String
    let inbox: String
    let base: String
    let key: PrivateKey
    var keyID: String { id + "#main-key" }
}

/// The blog's one key, fetched once.
struct FixedKey: SignatureKeyProvider {
    let key: PublicKey
    func publicKey(for keyId: String, refresh: Bool) async throws -> PublicKey { key }
}

struct SoakError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
