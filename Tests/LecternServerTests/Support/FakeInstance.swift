import DataIntegrity
import Foundation
import OutboundHTTP
import HTTPSignatures
import Hummingbird
import LecternCrypto
import Logging
import Synchronization

/// Another fediverse server, in process, with its own keys: actors (alice publishes her key
/// inline; bob's is a separate key document, as GoToSocial does), WebFinger, and inboxes that
/// verify every signature they get by fetching the sender's key, and record what arrived.
final class FakeInstance: Sendable {
    struct Received: Sendable {
        let path: String
        let activity: [String: any Sendable]
        /// The key that signed it, verified; nil when verification failed.
        let verifiedKeyID: String?
        /// Signed with RFC 9421 (else draft-cavage).
        let rfc9421: Bool
        var signatureInput: String? = nil
        /// FEP-8fcf's `Collection-Synchronization`, if it came with one.
        var synchronization: String? = nil
        /// For a Create or Update: what fetching its object's id answered at once, as a
        /// follower's server does (200 when the blog already served what it announced).
        var objectFetchStatus: Int? = nil
        var type: String? { activity["type"] as? String }
        var object: [String: any Sendable]? { activity["object"] as? [String: any Sendable] }
        /// The object's title: its `name`, else the one value of its `nameMap` (how posts carry it).
        var objectTitle: String? {
            object?["name"] as? String ?? (object?["nameMap"] as? [String: String])?.values.first
        }
    }

    static let names = ["alice", "bob", "carol", "mallory", "owner"]
    let keys: [String: PrivateKey]
    let base = Box("")
    /// Extra documents served as JSON at exact paths (an attacker's forged key document, say);
    /// they take precedence over the built-in routes.
    let documents = Box<[String: Data]>([:])
    /// GET requests received, per path (to count key fetches).
    let gets = Box<[String: Int]>([:])
    /// GETs answered 503 before a path is served, per path (a key server failing for a while).
    let failingGets = Box<[String: Int]>([:])
    /// Every `User-Agent` the blog sent, GETs and POSTs alike.
    let userAgents = Box<Set<String>>([])
    let received = Box<[Received]>([])
    /// Statuses inboxes answer with, in turn, per path (then 202).
    let scripted = Box<[String: [Int]]>([:])
    /// Seconds an inbox waits before answering, per path.
    let delays = Box<[String: Double]>([:])
    /// A server that knows only one signature standard: requests signed with this one (POSTs to
    /// inboxes and signed GETs) get 401, with `acceptSignature` as `Accept-Signature` if set.
    let refuses = Box<SignatureStandard?>(nil)
    let acceptSignature = Box<String?>(nil)
    /// Every signed request, in order: its path and standard (also the refused ones).
    let signedRequests = Box<[(method: String, path: String, standard: SignatureStandard)]>([])
    private let application = Box<RunningApplication?>(nil)

    /// Ed25519 keys for object integrity proofs (FEP-8b32), listed in each actor's
    /// `assertionMethod` (FEP-521a) as `<actor>#ed25519-key` when `assertionMethods` is set.
    let assertionKeys: [String: PrivateKey]
    let assertionMethods: Bool

    init(names: [String] = FakeInstance.names, assertionMethods: Bool = false) throws {
        keys = Dictionary(uniqueKeysWithValues: try names.map { ($0, try PrivateKey.generate(.rsa(bits: 2048))) })
        assertionKeys = Dictionary(uniqueKeysWithValues: try names.map { ($0, try PrivateKey.generate(.ed25519)) })
        self.assertionMethods = assertionMethods
    }

    func assertionKeyID(_ name: String) -> String { actorID(name) + "#ed25519-key" }

    /// `document` with an eddsa-jcs-2022 proof by `name`'s Ed25519 key (or `key`, under `keyID`).
    func prove(_ document: [String: Any], by name: String, keyID: String? = nil, key: PrivateKey? = nil,
               created: Date = Date()) throws -> [String: Any] {
        let value = try CanonicalJSON.parse(Array(try JSONSerialization.data(withJSONObject: document))).members!
        let formatter = ISO8601DateFormatter()
        let signed = try EddsaJcs2022.sign(value, key: key ?? assertionKeys[name]!, verificationMethod: keyID ?? assertionKeyID(name),
                                           created: formatter.string(from: created))
        return try JSONSerialization.jsonObject(with: Data(CanonicalJSON.object(signed).canonical())) as! [String: Any]
    }

    /// Serves `document` at `path` from now on.
    func serve(_ path: String, _ document: [String: Any]) {
        let data = try! JSONSerialization.data(withJSONObject: document)
        documents.update { $0[path] = data }
    }

    func getCount(_ path: String) -> Int { gets.value[path] ?? 0 }

    func actorID(_ name: String) -> String { "\(base.value)/users/\(name)" }
    func keyID(_ name: String) -> String { name == "bob" ? "\(base.value)/keys/bob" : "\(actorID(name))#main-key" }
    var sharedInbox: String { "\(base.value)/inbox" }
    var host: String { String(base.value.dropFirst("http://".count)) }
    /// As the double-knock's memory keys it.
    var origin: String { "http://\(host)" }

    func start() async throws {
        let pems = try keys.mapValues { try $0.publicKey.pemSPKI() }
        let multikeys = assertionMethods ? try assertionKeys.mapValues { Multikey.ed25519(publicKey: try $0.publicKey.rawEd25519()) } : [:]
        let base = self.base
        let router = Router()
        router.add(middleware: SignatureStandardGate(refuses: refuses, acceptSignature: acceptSignature, log: signedRequests))
        router.add(middleware: ServedDocuments(documents: documents, gets: gets, failing: failingGets, userAgents: userAgents))
        router.get("/users/:name") { _, context -> Response in
            let name = context.parameters.get("name") ?? ""
            guard let pem = pems[name] else { return Response(status: .notFound) }
            return Self.json(Self.actorDocument(name, base: base.value, pem: pem, multikey: multikeys[name]))
        }
        router.get("/keys/bob") { _, _ in
            Self.json(["id": "\(base.value)/keys/bob", "type": "CryptographicKey", "owner": "\(base.value)/users/bob",
                       "publicKeyPem": pems["bob"]!])
        }
        router.get("/.well-known/webfinger") { request, _ -> Response in
            let resource = request.uri.queryParameters["resource"].map(String.init) ?? ""
            guard let name = pems.keys.first(where: { resource == "acct:\($0)@\(base.value.dropFirst("http://".count))" }) else {
                return Response(status: .notFound)
            }
            return Self.json(["subject": resource, "links": [["rel": "self", "type": "application/activity+json",
                                                              "href": "\(base.value)/users/\(name)"]]])
        }
        // A redirect loop, for key lookups that must give up.
        router.get("/loop/:n") { _, context -> Response in
            let next = (Int(context.parameters.get("n") ?? "0") ?? 0) + 1
            return Response(status: .found, headers: [.location: "\(base.value)/loop/\(next)"])
        }
        let received = self.received, scripted = self.scripted, delays = self.delays
        let inbox: @Sendable (Request, BasicRequestContext) async throws -> Response = { request, _ in
            var request = request
            let body = try await request.collectBody(upTo: 1 << 20)
            let path = request.uri.path
            if let delay = delays.value[path] { try await Task.sleep(for: .milliseconds(Int(delay * 1000))) }
            var status = 202
            scripted.update { script in
                if var statuses = script[path], !statuses.isEmpty { status = statuses.removeFirst(); script[path] = statuses }
            }
            if status == 429 { return Response(status: .tooManyRequests, headers: [.retryAfter: "120"]) }
            if status >= 400 { return Response(status: .init(code: status)) }
            var parts = HTTPRequestParts(method: "POST", url: "http://\(request.head.authority ?? "")\(path)",
                                         headers: [("Host", request.head.authority ?? "")]
                                             + request.headers.map { ($0.name.rawName, $0.value) },
                                         body: Array(buffer: body))
            parts.body = Array(buffer: body)
            let verified = try? await SignatureVerifier().verify(parts, keys: HTTPKeyFetcher())
            let object = (try? JSONSerialization.jsonObject(with: Data(buffer: body))) as? [String: any Sendable] ?? [:]
            let rfc9421 = request.headers[HTTPFields.Element.Name("Signature-Input")!] != nil
            var fetched: Int?
            if ["Create", "Update"].contains(object["type"] as? String),
               let objectID = (object["object"] as? [String: any Sendable])?["id"] as? String, objectID.hasPrefix("http") {
                fetched = try? await FetchClient(allowPrivateAddresses: true)
                    .perform(OutgoingRequest(url: objectID, headers: [("Accept", "application/activity+json")]), on: testTransfers).status
            }
            received.update {
                $0.append(Received(path: path, activity: object, verifiedKeyID: verified?.keyId, rfc9421: rfc9421,
                                   signatureInput: request.headers[HTTPFields.Element.Name("Signature-Input")!],
                                   synchronization: request.headers[HTTPFields.Element.Name("Collection-Synchronization")!],
                                   objectFetchStatus: fetched))
            }
            return Response(status: .init(code: status))
        }
        router.post("/inbox", use: inbox)
        router.post("/users/:name/inbox", use: inbox)
        let (port, application) = try await startApplication { onRunning in
            Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
                        onServerRunning: { channel in
                            let port = channel.localAddress?.port ?? 0
                            base.value = "http://127.0.0.1:\(port)"
                            await onRunning(port)
                        }, logger: quietLogger("remote"))
        }
        _ = port
        self.application.value = application
    }

    func stop() { application.value?.stop() }

    /// The actor document of `name` as served (alice publishes her key inline, bob a key document),
    /// with its Ed25519 key as `assertionMethod` when given one.
    static func actorDocument(_ name: String, base: String, pem: String, multikey: String? = nil) -> [String: Any] {
        let id = "\(base)/users/\(name)"
        var actor: [String: Any] = [
            "@context": ["https://www.w3.org/ns/activitystreams", "https://w3id.org/security/v1"],
            "id": id, "type": "Person", "preferredUsername": name, "name": name.capitalized,
            "url": "\(base)/@\(name)", "inbox": "\(id)/inbox", "endpoints": ["sharedInbox": "\(base)/inbox"],
            "icon": ["type": "Image", "url": "\(base)/avatars/\(name).png"],
        ]
        actor["publicKey"] = name == "bob"
            ? [["id": "\(base)/keys/bob", "owner": id, "publicKeyPem": pem]]
            : ["id": "\(id)#main-key", "owner": id, "publicKeyPem": pem] as [String: Any]
        if let multikey {
            actor["assertionMethod"] = [["id": "\(id)#ed25519-key", "type": "Multikey", "controller": id, "publicKeyMultibase": multikey]]
        }
        return actor
    }

    /// Serves `name`'s actor document with `fields` changed (a profile URL elsewhere, an
    /// `alsoKnownAs`, a `followers` collection…).
    func serveActor(_ name: String, _ fields: [String: Any]) throws {
        let multikey = assertionMethods ? try assertionKeys[name].map { Multikey.ed25519(publicKey: try $0.publicKey.rawEd25519()) } : nil
        var actor = Self.actorDocument(name, base: base.value, pem: try keys[name]!.publicKey.pemSPKI(), multikey: multikey)
        actor.merge(fields) { _, new in new }
        serve("/users/\(name)", actor)
    }

    static func json(_ object: [String: Any]) -> Response {
        let data = try! JSONSerialization.data(withJSONObject: object)
        return Response(status: .ok, headers: [.contentType: "application/activity+json"], body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    // MARK: sending to the blog

    /// A signed POST of `activity` as `name` (draft-cavage, as Mastodon signs), ready to send or
    /// to tamper with.
    func signedPost(_ activity: Any, as name: String, to url: String, key: String? = nil, keyID: String? = nil,
                    date: Date = Date()) throws -> HTTPRequestParts {
        let body = try JSONSerialization.data(withJSONObject: activity)
        var parts = HTTPRequestParts(method: "POST", url: url, headers: [("Content-Type", "application/activity+json")],
                                     body: Array(body))
        try CavageSigner(keyId: keyID ?? self.keyID(name), key: keys[key ?? name]!).sign(&parts, now: date)
        return parts
    }

    func post(_ parts: HTTPRequestParts) async throws -> Int {
        try await FetchClient(allowPrivateAddresses: true)
            .perform(OutgoingRequest(method: "POST", url: parts.targetURI, headers: parts.headers, body: parts.body), on: testTransfers).status
    }

    func send(_ activity: [String: Any], as name: String, to url: String) async throws -> Int {
        try await post(try signedPost(activity, as: name, to: url))
    }

    func activities(at path: String? = nil, type: String? = nil) -> [Received] {
        received.value.filter { (path == nil || $0.path == path) && (type == nil || $0.type == type) }
    }
}

/// A server that takes one signature standard only: logs each signed request's standard and
/// refuses the other with 401 (and `Accept-Signature`, when set), before anything else looks.
struct SignatureStandardGate: RouterMiddleware {
    let refuses: Box<SignatureStandard?>
    let acceptSignature: Box<String?>
    let log: Box<[(method: String, path: String, standard: SignatureStandard)]>

    func handle(_ request: Request, context: BasicRequestContext,
                next: (Request, BasicRequestContext) async throws -> Response) async throws -> Response {
        let standard: SignatureStandard? = request.headers[HTTPFields.Element.Name("Signature-Input")!] != nil ? .rfc9421
            : request.headers[HTTPFields.Element.Name("Signature")!] != nil ? .cavage : nil
        guard let standard else { return try await next(request, context) }
        log.update { $0.append((request.method.rawValue, request.uri.path, standard)) }
        guard standard == refuses.value else { return try await next(request, context) }
        var headers: HTTPFields = [:]
        if let asked = acceptSignature.value { headers[HTTPFields.Element.Name("Accept-Signature")!] = asked }
        return Response(status: .unauthorized, headers: headers)
    }
}

/// Counts every GET and answers those for which a document was put in place with `serve`.
struct ServedDocuments: RouterMiddleware {
    let documents: Box<[String: Data]>
    let gets: Box<[String: Int]>
    let failing: Box<[String: Int]>
    let userAgents: Box<Set<String>>

    func handle(_ request: Request, context: BasicRequestContext,
                next: (Request, BasicRequestContext) async throws -> Response) async throws -> Response {
        if let agent = request.headers[.userAgent] { userAgents.update { _ = $0.insert(agent) } }
        guard request.method == .get else { return try await next(request, context) }
        gets.update { $0[request.uri.path, default: 0] += 1 }
        let fails = failing.update { failing -> Bool in
            guard let left = failing[request.uri.path], left > 0 else { return false }
            failing[request.uri.path] = left - 1
            return true
        }
        if fails { return Response(status: .serviceUnavailable) }
        guard let data = documents.value[request.uri.path] else { return try await next(request, context) }
        return Response(status: .ok, headers: [.contentType: "application/activity+json"],
                        body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}

/// Keys for the fake inbox's verifier: fetched from the sender (the blog) over plain HTTP.
struct HTTPKeyFetcher: SignatureKeyProvider {
    func publicKey(for keyId: String, refresh: Bool) async throws -> PublicKey {
        let url = String(keyId.split(separator: "#")[0])
        let response = try await FetchClient(allowPrivateAddresses: true)
            .perform(OutgoingRequest(url: url, headers: [("Accept", "application/activity+json")]), on: testTransfers)
        let document = try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any]
        // A key document of its own (a rotated key), naming an owner on its origin, as GoToSocial
        // accepts them; or an actor whose `publicKey` is the key.
        if document?["id"] as? String == keyId, let pem = document?["publicKeyPem"] as? String,
           let owner = document?["owner"] as? String, URL(string: owner)?.host == URL(string: keyId)?.host {
            return try PublicKey(pem: pem)
        }
        guard let key = document?["publicKey"] as? [String: Any], key["id"] as? String == keyId, let pem = key["publicKeyPem"] as? String
        else { throw SignatureError.keyUnavailable(keyId) }
        return try PublicKey(pem: pem)
    }
}
