// Load generators for bench/inbox and bench/fanout: a fake fediverse server (actors with keys,
// inboxes that verify signatures and add latency) plus a signed-request blaster, all in one
// process so the blog under test is the only other thing running.
//
//   federation-bench inbox  <blog-url> <site-folder> <post-paths,…> [actors] [notes] [concurrency]
//   federation-bench sink   <port> <blog-actor-url> <expected> [latency-ms]
//   federation-bench seed   <site-folder> <sink-port> <shared-inboxes> <personal-inboxes> <followers>
//   federation-bench stall  <blog-url> <count>   (signed POSTs whose key servers never answer)
//   federation-bench reply  <blog-url> <post-path> (one more reply: how long until the page shows it)
import Foundation
import OutboundHTTP
import HTTPSignatures
import Hummingbird
import LecternCrypto
import Logging
import Storage
import Synchronization

let arguments = CommandLine.arguments
guard arguments.count >= 2 else { fatalError("usage: federation-bench inbox|sink|seed …") }
let logger: Logger = {
    var logger = Logger(label: "bench")
    logger.logLevel = .critical
    return logger
}()

func percentile(_ values: [Double], _ p: Double) -> Double {
    let sorted = values.sorted()
    return sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))]
}

nonisolated func serve(_ router: Router<BasicRequestContext>, host: String, port: Int) -> Task<Void, any Error> {
    let app = Application(router: router, configuration: .init(address: .hostname(host, port: port), backlog: 4096), logger: logger)
    return Task { try await app.runService(gracefulShutdownSignals: []) }
}

/// Actors 0..<actors with keys, served on a loopback port: their documents are what the blog
/// fetches to verify their signatures (once; then cached).
func actorServer(actors: Int, port: Int = 18_290) async throws -> (base: String, keys: [PrivateKey], task: Task<Void, any Error>) {
    let base = "http://127.0.0.1:\(port)"
    let keys = try (0..<actors).map { _ in try PrivateKey.generate(.rsa(bits: 2048)) }
    let pems = try keys.map { try $0.publicKey.pemSPKI() }
    let router = Router()
    router.get("/users/:n") { _, context -> Response in
        let n = Int(context.parameters.get("n") ?? "") ?? -1
        guard pems.indices.contains(n) else { return Response(status: .notFound) }
        let id = "\(base)/users/\(n)"
        let actor: [String: Any] = ["id": id, "type": "Person", "preferredUsername": "u\(n)", "name": "User \(n)", "inbox": "\(id)/inbox",
                                    "publicKey": ["id": "\(id)#main-key", "owner": id, "publicKeyPem": pems[n]]]
        return Response(status: .ok, headers: [.contentType: "application/activity+json"],
                        body: .init(byteBuffer: ByteBuffer(bytes: try JSONSerialization.data(withJSONObject: actor))))
    }
    let task = serve(router, host: "127.0.0.1", port: port)
    try await Task.sleep(for: .milliseconds(300))
    return (base, keys, task)
}

/// User and system CPU time of this process so far.
func processCPUSeconds() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
}

/// A signed `Create(Note)` replying to `target`, ready to send to the blog's shared inbox.
func signedReply(base: String, actor n: Int, note: String, to target: String, text: String, blog: String,
                 signer: CavageSigner) -> OutgoingRequest {
    let id = "\(base)/users/\(n)/notes/\(note)"
    let create: [String: Any] = [
        "id": "\(id)/activity", "type": "Create", "actor": "\(base)/users/\(n)",
        "object": ["id": id, "type": "Note", "attributedTo": "\(base)/users/\(n)", "inReplyTo": target,
                   "content": "<p>\(text)</p>", "published": "2026-11-22T10:00:00Z",
                   "to": ["https://www.w3.org/ns/activitystreams#Public"]],
    ]
    var parts = HTTPRequestParts(method: "POST", url: blog + "/inbox", headers: [("Content-Type", "application/activity+json")],
                                 body: Array(try! JSONSerialization.data(withJSONObject: create)))
    try! signer.sign(&parts)
    return OutgoingRequest(method: "POST", url: parts.targetURI, headers: parts.headers, body: parts.body)
}

switch arguments[1] {
case "reply":
    // One more reply to a post, then how long until its page shows it (what a commenter waits).
    let blog = arguments[2], post = arguments[3]
    // An actor of its own (another port): the load's actors are cached with other keys.
    let (base, keys, server) = try await actorServer(actors: 1, port: 18_291)
    let words = "Fresh reply \(UUID().uuidString.prefix(8))"
    let request = signedReply(base: base, actor: 0, note: UUID().uuidString, to: blog + post, text: words, blog: blog,
                              signer: CavageSigner(keyId: "\(base)/users/0#main-key", key: keys[0]))
    let client = FetchClient(allowPrivateAddresses: true)
    let start = ContinuousClock.now
    let status = try await client.perform(request).status
    var shown = false
    while !shown, ContinuousClock.now - start < .seconds(30) {
        let page = try await client.perform(OutgoingRequest(url: blog + post, headers: [("Accept", "text/html")]))
        shown = String(decoding: page.body, as: UTF8.self).contains(words)
        if !shown { try await Task.sleep(for: .milliseconds(20)) }
    }
    let elapsed = ContinuousClock.now - start
    print(String(format: "new comment: inbox answered %d, shown on the page after %.2f s%@", status,
                 Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18, shown ? "" : " (NOT SHOWN in 30 s)"))
    server.cancel()

case "inbox":
    // Sustained signed Create(Note) replies from many actors; keys are fetched once from here.
    let blog = arguments[2], site = arguments[3], posts = arguments[4].split(separator: ",").map(String.init)
    let actors = arguments.count > 5 ? Int(arguments[5])! : 100
    let notes = arguments.count > 6 ? Int(arguments[6])! : 20_000
    let concurrency = arguments.count > 7 ? Int(arguments[7])! : 64
    let (base, keys, server) = try await actorServer(actors: actors)
    let runID = UUID().uuidString.prefix(8)
    // Sign everything first (in parallel), so the measured run is the blog's work, not ours.
    let signer = keys.enumerated().map { CavageSigner(keyId: "\(base)/users/\($0.offset)#main-key", key: $0.element) }
    let requests: [OutgoingRequest] = await withTaskGroup(of: [(Int, OutgoingRequest)].self) { group in
        let cores = ProcessInfo.processInfo.activeProcessorCount
        for worker in 0..<cores {
            group.addTask {
                stride(from: worker, to: notes, by: cores).map { i in
                    let n = i % actors
                    return (i, signedReply(base: base, actor: n, note: "\(runID)-\(i)", to: blog + posts[i % posts.count],
                                           text: "Reply \(i) to the post.", blog: blog, signer: signer[n]))
                }
            }
        }
        var all: [(Int, OutgoingRequest)] = []
        for await chunk in group { all += chunk }
        return all.sorted { $0.0 < $1.0 }.map(\.1)
    }
    let store = try Store(path: site + "/data/lectern.sqlite")
    let before = try store.rowCounts()["comments"] ?? 0
    let transfers = ConcurrentTransfers(client: FetchClient(allowPrivateAddresses: true), maximumInFlight: concurrency)
    var next = 0, latencies: [Double] = [], started: [Int64: ContinuousClock.Instant] = [:], statuses: [Int: Int] = [:], busy: [Int] = []
    let cpuBefore = processCPUSeconds()
    let clock = ContinuousClock.now
    transfers.run(next: { free in
        let batch = (next..<min(requests.count, next + free)).map { (Int64($0), requests[$0]) }
        for (token, _) in batch { started[token] = .now }
        next += batch.count
        return batch
    }, completed: { token, result in
        let elapsed = ContinuousClock.now - started[token]!
        latencies.append(Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1000)
        let status = (try? result.get().status) ?? 0
        statuses[status, default: 0] += 1
        if status == 503 { busy.append(Int(token)) }
    })
    let seconds = { (d: Duration) in Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18 }(ContinuousClock.now - clock)
    let generatorCPU = processCPUSeconds() - cpuBefore
    // A 503 asks the sender to come back later (a key the blog could not fetch in time, from a
    // server it had not met yet): sent again, as a real server would, up to three times.
    let answeredBusy = busy.count
    for _ in 0..<3 where !busy.isEmpty {
        try await Task.sleep(for: .seconds(1))
        let again = busy
        busy = []
        var queue = again
        transfers.run(next: { free in
            let batch = queue.prefix(free).map { (Int64($0), requests[$0]) }
            queue.removeFirst(batch.count)
            return batch
        }, completed: { token, result in
            if ((try? result.get().status) ?? 0) == 503 { busy.append(Int(token)) }
        })
    }
    // Every accepted reply must become exactly one comment once the queue drains, and the held
    // queue too: a reply whose key could not be fetched in time is held and tried again later
    // (35 s after it came), while this process still serves the keys.
    var drained = ContinuousClock.now
    while try store.inbox.inboundBacklog() > 0 { try await Task.sleep(for: .milliseconds(50)); drained = .now }
    var held = try store.heldInbound.heldInboundCount()
    let heldAtDrain = held
    let heldDeadline = ContinuousClock.now + .seconds(180)
    while ContinuousClock.now < heldDeadline {
        let backlog = try store.inbox.inboundBacklog()
        guard held > 0 || backlog > 0 else { break }
        try await Task.sleep(for: .milliseconds(200))
        held = try store.heldInbound.heldInboundCount()
    }
    let after = try store.rowCounts()["comments"] ?? 0
    let drainSeconds = { (d: Duration) in Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18 }(drained - clock)
    print("| \(notes) replies from \(actors) actors, \(concurrency) connections | \(Int(Double(notes) / seconds)) | "
          + String(format: "%.1f ms | %.1f ms | %.1f s | ", percentile(latencies, 0.5), percentile(latencies, 0.99), drainSeconds)
          + "\(statuses.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", ")) | "
          + "\(after - before) (\(after - before == notes ? "none lost or doubled" : "MISMATCH")"
          + (heldAtDrain > 0 ? "; \(heldAtDrain) held for a key, stored later" : "") + (held > 0 ? "; \(held) STILL HELD" : "")
          + (answeredBusy > 0 ? "; \(answeredBusy) answered 503 and were sent again" + (busy.isEmpty ? "" : ", \(busy.count) STILL REFUSED") : "")
          + ") |")
    // The load was signed before the clock started; sending it still costs this process CPU on
    // the same two cores as the blog.
    print(String(format: "\nLoad generator CPU while sending (pre-signed requests, libcurl): %.2f s in %.2f s, %.0f %% of one core.",
                 generatorCPU, seconds, 100 * generatorCPU / seconds))
    server.cancel()

case "sink":
    // Inboxes on every 127.x address: verify each signature, wait `latency`, count arrivals.
    let port = Int(arguments[2])!, blogActor = arguments[3], expected = Int(arguments[4])!
    let latency = arguments.count > 5 ? Int(arguments[5])! : 50
    let response = try await FetchClient(allowPrivateAddresses: true)
        .perform(OutgoingRequest(url: blogActor, headers: [("Accept", "application/activity+json")]))
    let actor = try JSONSerialization.jsonObject(with: Data(response.body)) as! [String: Any]
    let key = try PublicKey(pem: (actor["publicKey"] as! [String: Any])["publicKeyPem"] as! String)
    struct Keys: SignatureKeyProvider { let key: PublicKey; func publicKey(for keyId: String, refresh: Bool) async throws -> PublicKey { key } }
    let counts = Mutex<(valid: Int, invalid: Int, paths: [String: Int], first: ContinuousClock.Instant?, last: ContinuousClock.Instant?)>((0, 0, [:], nil, nil))
    let router = Router()
    router.post("/**") { request, _ -> Response in
        var request = request
        let body = try await request.collectBody(upTo: 1 << 20)
        let parts = HTTPRequestParts(method: "POST", url: "http://\(request.head.authority ?? "")\(request.uri.path)",
                                     headers: [("Host", request.head.authority ?? "")] + request.headers.map { ($0.name.rawName, $0.value) },
                                     body: Array(buffer: body))
        let valid = (try? await SignatureVerifier().verify(parts, keys: Keys(key: key))) != nil
        try await Task.sleep(for: .milliseconds(latency))
        counts.withLock {
            if valid { $0.valid += 1 } else { $0.invalid += 1 }
            $0.paths["\(request.head.authority ?? "")\(request.uri.path)", default: 0] += 1
            $0.first = $0.first ?? .now
            $0.last = .now
        }
        return Response(status: valid ? .accepted : .unauthorized)
    }
    let server = serve(router, host: "0.0.0.0", port: port)
    FileHandle.standardError.write(Data("sink ready\n".utf8))
    while counts.withLock({ $0.valid + $0.invalid }) < expected { try await Task.sleep(for: .milliseconds(20)) }
    let (valid, invalid, paths) = counts.withLock { ($0.valid, $0.invalid, $0.paths) }
    print("sink: \(valid) valid, \(invalid) invalid signatures; \(paths.count) distinct inboxes; \(paths.values.filter { $0 > 1 }.count) got duplicates")
    server.cancel()

case "seed":
    // Followers for bench/fanout: `shared` shared inboxes (several followers each) and
    // `personal` followers with only their own inbox, spread over 127.0.0.2–127.0.0.251.
    let site = arguments[2], port = Int(arguments[3])!, shared = Int(arguments[4])!, personal = Int(arguments[5])!
    let followers = Int(arguments[6])!
    let store = try Store(path: site + "/data/lectern.sqlite")
    func host(_ n: Int) -> String { "127.0.0.\(2 + n % 250):\(port)" }
    for n in 0..<followers {
        let actor: RemoteActor
        if n < followers - personal {
            let inbox = n % shared
            actor = RemoteActor(id: "http://\(host(inbox))/users/\(n)", inbox: "http://\(host(inbox))/users/\(n)/inbox",
                                sharedInbox: "http://\(host(inbox))/inbox/\(inbox)")
        } else {
            let m = n + shared
            actor = RemoteActor(id: "http://\(host(m))/users/\(n)", inbox: "http://\(host(m))/users/\(n)/inbox")
        }
        try store.actors.saveRemoteActor(actor, keys: [])
        try store.followers.addFollower(actorID: actor.id, followActivityID: actor.id + "/follow")
    }
    print("seeded \(followers) followers; \(try store.followers.followerInboxes().count) distinct inboxes")

case "stall":
    // A listening socket that never accepts (the kernel completes connections into its backlog,
    // then nothing answers), and `count` signed inbox POSTs whose keyIds point at it, each from
    // another loopback address so that no per-host limit is what protects the blog.
    let blog = arguments[2], count = Int(arguments[3])!
    let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = INADDR_ANY
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, length) == 0 && getsockname(listener, $0, &length) == 0 }
    }
    listen(listener, 4096)
    let port = Int(UInt16(bigEndian: address.sin_port))
    let key = try PrivateKey.generate(.rsa(bits: 2048))
    let requests = try (0..<count).map { n -> OutgoingRequest in
        let actor = "http://127.0.\(1 + (n + 1) / 250).\((n + 1) % 250 + 2):\(port)/users/s\(n)"
        let like: [String: Any] = ["id": actor + "/likes/1", "type": "Like", "actor": actor, "object": blog + "/"]
        var parts = HTTPRequestParts(method: "POST", url: blog + "/inbox", headers: [("Content-Type", "application/activity+json")],
                                     body: Array(try JSONSerialization.data(withJSONObject: like)))
        try CavageSigner(keyId: actor + "#main-key", key: key).sign(&parts)
        return OutgoingRequest(method: "POST", url: parts.targetURI, headers: parts.headers, body: parts.body)
    }
    var client = FetchClient(allowPrivateAddresses: true)
    client.totalTimeout = .seconds(60)
    let transfers = ConcurrentTransfers(client: client, maximumInFlight: count)
    var next = 0, statuses: [Int: Int] = [:], slowest = 0.0
    let clock = ContinuousClock.now
    FileHandle.standardError.write(Data("stalling \(count) key fetches\n".utf8))
    transfers.run(next: { free in
        let batch = (next..<min(requests.count, next + free)).map { (Int64($0), requests[$0]) }
        next += batch.count
        return batch
    }, completed: { _, result in
        statuses[(try? result.get().status) ?? 0, default: 0] += 1
        let elapsed = ContinuousClock.now - clock
        slowest = max(slowest, Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
    })
    print("stall: \(count) POSTs answered (\(statuses.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", "))), the last after \(String(format: "%.1f", slowest)) s")
    close(listener)

default:
    fatalError("unknown mode \(arguments[1])")
}
