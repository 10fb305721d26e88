import Foundation
import OutboundHTTP
import Interactions
import LecternRuntime
import Logging
import GRDB
import Storage
import Testing

/// `lectern serve` on a disk with no room left (issue 41): it must wait quietly, not spin — low
/// CPU, the disk named in the log once a minute per component rather than every pass — tell
/// senders to come back later (503 with `Retry-After`) and store nothing, then recover by itself
/// once room returns: the inbox accepts again, activities are applied, the site rebuilds and
/// deliveries go out.
@Suite(.serialized) struct DiskFullTests {
    static let fullFor: Duration = .seconds(5)
    /// A core's share the server may use while it waits (with a backlog in the inbox it used
    /// 90 % of one: see `theInboxWorkerStopsAtAFullDiskInsteadOfSpinning`).
    static let cpuLimit = 0.2

    @Test func aFullDiskIsWaitedOutQuietlyAndRecoveredFromAlone() async throws {
        let disk = try SmallDisk(megabytes: 16)
        defer { disk.unmount() }
        let remote = try FakeInstance()
        try await remote.start()
        defer { remote.stop() }
        let root = disk.mountPoint.appendingPathComponent("site")
        #expect(try run([lecternBinary, "init", root.path]).0 == 0)
        let port = try freePort()
        let configFile = root.appendingPathComponent("lectern.yml")
        try (String(contentsOf: configFile, encoding: .utf8).replacingOccurrences(of: "127.0.0.1:8080", with: "127.0.0.1:\(port)")
             + "federation:\n  allowPrivateAddresses: true\n").write(to: configFile, atomically: true, encoding: .utf8)
        // The log goes to another disk, as journald's would.
        let logFile = FileManager.default.temporaryDirectory.appendingPathComponent("lectern-disk-full-\(UUID().uuidString).log")
        #expect(FileManager.default.createFile(atPath: logFile.path, contents: nil))
        defer { try? FileManager.default.removeItem(at: logFile) }
        let log = try FileHandle(forWritingTo: logFile)
        let server = Process()
        server.executableURL = URL(fileURLWithPath: lecternBinary)
        server.arguments = ["serve", "-s", root.path, "--port", String(port), "--watch"]
        server.standardOutput = log
        server.standardError = log
        try server.run()
        defer { if server.isRunning { server.terminate(); server.waitUntilExit() } }
        let base = "http://127.0.0.1:\(port)", inbox = base + "/inbox", post = base + "/2025/welcome-to-lectern/"
        #expect(try await eventually(within: 20) { (try? await HTTPClientForTests.get(base + "/", accept: "text/html"))?.status == 200 })
        let alice = remote.actorID("alice"), bob = remote.actorID("bob"), carol = remote.actorID("carol")
        #expect(try await remote.send(["id": alice + "/follows/1", "type": "Follow", "actor": alice, "object": base + "/actor"],
                                      as: "alice", to: inbox) == 202)
        #expect(try await eventually(within: 10) { remote.activities(type: "Accept").count == 1 })

        // A post written while there was room, moved into content/ once there is none (a rename
        // takes no space): the watcher sees it while the disk is full.
        let waiting = root.appendingPathComponent("waiting.md")
        try "---\ntitle: Written before the disk filled\ndate: \(dated())\n---\nPatience.\n".write(to: waiting, atomically: true, encoding: .utf8)
        let livePage = root.appendingPathComponent("public/2025/welcome-to-lectern/index.html")
        let pageBefore = try Data(contentsOf: livePage)
        try disk.fill()
        #expect(disk.available < 4096, "the disk is full (\(disk.available) bytes free)")
        let linesBefore = try lines(logFile).count
        let cpuBefore = try cpuSeconds(of: server.processIdentifier)
        let started = ContinuousClock.now
        try FileManager.default.moveItem(at: waiting, to: root.appendingPathComponent("content/posts/written-while-full.md"))

        // Senders keep trying: a like, a reply and a follow every quarter second.
        let reply = ["id": remote.base.value + "/notes/while-full", "type": "Note", "attributedTo": bob, "inReplyTo": post,
                     "content": "<p>Sent while the disk was full.</p>", "published": "2026-11-27T10:00:00Z",
                     "to": ["https://www.w3.org/ns/activitystreams#Public"]] as [String: Any]
        let create: [String: Any] = ["id": remote.base.value + "/notes/while-full/activity", "type": "Create", "actor": bob,
                                     "object": reply, "to": ["https://www.w3.org/ns/activitystreams#Public"]]
        let follow: [String: Any] = ["id": carol + "/follows/1", "type": "Follow", "actor": carol, "object": base + "/actor"]
        var answers: [String] = []
        var sent = 0
        while ContinuousClock.now - started < Self.fullFor {
            sent += 1
            let like: [String: Any] = ["id": alice + "/likes/while-full-\(sent)", "type": "Like", "actor": alice, "object": post]
            for (activity, name) in [(like, "alice"), (create, "bob"), (follow, "carol")] {
                let response = try await send(activity, as: name, to: inbox, from: remote)
                answers.append("\(response.status) Retry-After: \(response.header("retry-after") ?? "none")")
            }
            try await Task.sleep(for: .milliseconds(250))
        }
        let elapsed = ContinuousClock.now - started
        let cpu = try (cpuSeconds(of: server.processIdentifier) - cpuBefore) / seconds(elapsed)
        let whileFull = try lines(logFile).dropFirst(linesBefore)
        // One line per inbox request is the access log; anything else is the server talking to itself.
        let chatter = whileFull.filter { !$0.contains(" /inbox ") }
        print("disk full for \(elapsed): CPU \(Int(cpu * 100)) % of a core; \(whileFull.count) log lines, "
              + "\(chatter.count) besides the \(answers.count) inbox requests; answers: \(Dictionary(answers.map { ($0, 1) }, uniquingKeysWith: +))")
        #expect(cpu < Self.cpuLimit, "the server waits instead of spinning (\(Int(cpu * 100)) % of a core)")
        #expect(answers.allSatisfy { $0 == "503 Retry-After: \(30)" }, "every sender is told to come back later")
        #expect(chatter.count <= 12, "no flood: \(chatter.count) lines besides requests, e.g. \(chatter.suffix(5))")
        let diskFull = chatter.filter { $0.contains("disk full:") }
        #expect(!diskFull.isEmpty, "the log says the disk is full")
        // The builds that could not write were staged aside: the live tree is as it was.
        #expect(try Data(contentsOf: livePage) == pageBefore, "public/ untouched by the failed builds")
        #expect(try await HTTPClientForTests.get(base + "/", accept: "text/html").status == 200)
        let components = diskFull.map { $0.components(separatedBy: "disk full: ")[1].split(separator: " ").first ?? "" }
        #expect(Set(components).count == components.count, "once a minute per component: \(diskFull)")

        // Room again: the server picks up by itself; the senders try again.
        try disk.free()
        let freed = ContinuousClock.now
        #expect(try await eventually(within: 15) {
            try await send(["id": alice + "/likes/after", "type": "Like", "actor": alice, "object": post], as: "alice", to: inbox,
                           from: remote).status == 202
        })
        #expect(try await send(create, as: "bob", to: inbox, from: remote).status == 202)
        #expect(try await send(follow, as: "carol", to: inbox, from: remote).status == 202)
        let recovered = try await eventually(within: 20) {
            let page = String(decoding: try await HTTPClientForTests.get(post, accept: "text/html").body, as: UTF8.self)
            let accepted = remote.activities(type: "Accept").contains { ($0.object?["actor"] as? String) == carol }
            let announced = remote.activities(type: "Create").contains {
                $0.objectTitle == "Written before the disk filled"
            }
            return page.contains("Sent while the disk was full.") && accepted && announced
        }
        print("recovered \(ContinuousClock.now - freed) after the disk had room again")
        #expect(recovered, "the reply is shown, carol's follow accepted and the new post announced")
        #expect(try lines(logFile).dropFirst(linesBefore).contains { $0.contains("disk full no more:") && $0.contains("writes again") },
                "the log says when writing works again")

        server.terminate()
        server.waitUntilExit()
        // Nothing refused was kept: the likes sent while full are not counted, only the one after.
        let store = try Store(path: root.appendingPathComponent("data/lectern.sqlite").path)
        #expect(try store.reactions.reactionCounts(postPath: "/2025/welcome-to-lectern/").likes == 1)
        #expect(try store.comments.comments().count == 1)
    }

    /// The inbox worker with a backlog when the disk filled. Activities it applies without a write
    /// (likes of posts not the blog's: ignored) could not be cleared from the queue, so the same
    /// batch came back at once, again and again: the worker spun, logging each activity each
    /// pass (through `lectern serve`: 90 % of a core, 14,000 lines a second). It must stop the
    /// pass, say the disk is full, and try again 1, 2, 4… s later, with the backlog kept.
    @Test func theInboxWorkerStopsAtAFullDiskInsteadOfSpinning() async throws {
        let disk = try SmallDisk(megabytes: 16)
        defer { disk.unmount() }
        let root = disk.mountPoint.appendingPathComponent("site")
        #expect(try run([lecternBinary, "init", root.path]).0 == 0)
        let blog = try await OffPool.run { try Blog.open(root: root) }
        let backlog = 150
        for n in 0..<backlog {
            let like = #"{"id":"https://elsewhere.example/likes/\#(n)","type":"Like","actor":"https://elsewhere.example/users/x","object":"https://elsewhere.example/notes/1"}"#
            _ = try await blog.store.inbox.enqueueInbound(activityID: "https://elsewhere.example/likes/\(n)", actorID: "https://elsewhere.example/users/x",
                                                    json: like)
        }
        try disk.fill()
        let applied = Box(0), lines = Box<[String]>([])
        let worker = InboxWorker(queue: blog.store.inbox, processor: { blog.inboxProcessor() }, signal: QueueSignal(),
                                 logger: Logger(label: "inbox") { _ in CountingLog(lines: lines) },
                                 observe: { _ in applied.update { $0 += 1 } }, onChange: { _ in })
        // 3 s of it: passes at 0, 1 and 3 s at most; what they apply is counted (and logged) once cleared.
        let running = Task { await worker.run() }
        try await Task.sleep(for: .seconds(3))
        running.cancel()
        await running.value
        let diskFull = lines.value.filter { $0.contains("disk full: inbox waits") }
        print("inbox worker on a full disk, 3 s: \(applied.value) activities applied for a backlog of \(backlog), \(lines.value.count) log lines")
        #expect(applied.value == 0, "nothing counted as applied while it cannot be cleared (\(applied.value))")
        #expect(diskFull.count == 1, "said once: \(diskFull)")
        #expect(lines.value.count <= 3, "no line per activity per pass: \(lines.value.prefix(3))")
        #expect(try blog.store.inbox.inboundBacklog() == backlog, "nothing of the backlog is lost")
    }

    /// The delivery service with a delivery due when the disk filled: the row cannot be leased,
    /// and the service tried again every 50 ms, logging each time. It must wait, longer each
    /// time, say so once, and keep the delivery queued.
    @Test func deliveriesWaitAtAFullDiskInsteadOfRetryingAtOnce() async throws {
        let disk = try SmallDisk(megabytes: 16)
        defer { disk.unmount() }
        let root = disk.mountPoint.appendingPathComponent("site")
        #expect(try run([lecternBinary, "init", root.path]).0 == 0)
        let lines = Box<[String]>([])
        var options = Blog.Options()
        options.logger = Logger(label: "blog") { _ in CountingLog(lines: lines) }
        let blog = try await OffPool.run { [options] in try Blog.open(root: root, options: options) }
        // An inbox nobody listens on: nothing is sent either way, the lease is what fails.
        let inbox = "http://127.0.0.1:9/inbox"
        try blog.store.deliveries.enqueueActivity(id: "https://elsewhere.example/activity/1", type: "Create", objectID: nil, json: "{}", inboxes: [inbox])
        try disk.fill()
        let service = Task { try await DeliveryService(blog: blog).run() }
        try await Task.sleep(for: .seconds(3))
        service.cancel()
        _ = await service.result
        let said = lines.value
        print("deliveries on a full disk, 3 s: \(said.count) log lines, e.g. \(said.suffix(2))")
        #expect(said.count <= 2, "waits instead of trying every 50 ms: \(said.suffix(3))")
        #expect(said.contains { $0.contains("disk full: deliveries waits") })
        #expect(try blog.store.deliveries.delivery(activityID: "https://elsewhere.example/activity/1", inbox: inbox).state == .queued)
    }

    /// A restart on a full disk (after a reboot, say) with a post written meanwhile: the first
    /// build cannot write, so the site built before is served, and the new post is built once
    /// there is room again.
    @Test func aStartOnAFullDiskServesThePreviousSite() async throws {
        let disk = try SmallDisk(megabytes: 16)
        defer { disk.unmount() }
        let root = disk.mountPoint.appendingPathComponent("site")
        #expect(try run([lecternBinary, "init", root.path]).0 == 0)
        #expect(try run([lecternBinary, "build", "-s", root.path]).0 == 0)
        try "---\ntitle: Written before the reboot\ndate: \(dated())\n---\nPatience.\n"
            .write(to: root.appendingPathComponent("content/posts/before-the-reboot.md"), atomically: true, encoding: .utf8)
        try disk.fill()
        let (server, base, logFile) = try startServer(root)
        defer { server.stop() }
        #expect(try await eventually(within: 20) { (try? await HTTPClientForTests.get(base + "/2025/welcome-to-lectern/", accept: "text/html"))?.status == 200 },
                "the previous site is served: \(((try? String(contentsOf: logFile, encoding: .utf8)) ?? "").suffix(2000))")
        #expect(try lines(logFile).contains { $0.contains("could not build at start, serving the previous site")
            && ($0.contains("No space left") || $0.contains("disk is full")) })
        try disk.free()
        let page = base + "/\(thisYear)/written-before-the-reboot/"
        #expect(try await eventually(within: 30) { (try? await HTTPClientForTests.get(page, accept: "text/html"))?.status == 200 },
                "built once there is room: \(((try? String(contentsOf: logFile, encoding: .utf8)) ?? "").suffix(2000))")
    }

    /// The same, with the database closed cleanly before (no `-wal`, no `-shm`): SQLite cannot
    /// make its shared-memory file, so the blog cannot be opened at all. The built site is served
    /// read-only, everything else is 503 with `Retry-After` (a 404 would make a sender give up),
    /// the log says why, and once there is room the blog opens in the same process.
    @Test func aStartWithNoRoomForTheDatabaseServesTheSiteReadOnly() async throws {
        let disk = try SmallDisk(megabytes: 16)
        defer { disk.unmount() }
        let root = disk.mountPoint.appendingPathComponent("site")
        let database = root.appendingPathComponent("data/lectern.sqlite").path
        try await OffPool.run {
            #expect(try run([lecternBinary, "init", root.path]).0 == 0)
            #expect(try run([lecternBinary, "build", "-s", root.path]).0 == 0)
            do {  // closed at the end of the block, as a server stopped cleanly leaves it
                let queue = try DatabaseQueue(path: database)
                try queue.writeWithoutTransaction { try $0.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
            }
            for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: database + suffix) }
            try disk.fill()
        }
        let (server, base, logFile) = try startServer(root)
        defer { server.stop() }
        func log() -> String { ((try? String(contentsOf: logFile, encoding: .utf8)) ?? "").suffix(2000).description }
        #expect(try await eventually(within: 20) { (try? await HTTPClientForTests.get(base + "/2025/welcome-to-lectern/", accept: "text/html"))?.status == 200 },
                "the built site is served: \(log())")
        #expect(try lines(logFile).contains { $0.contains("read-only") && $0.contains("the disk is full") })
        let webfinger = try await HTTPClientForTests.get(base + "/.well-known/webfinger?resource=acct:owner@127.0.0.1", accept: "application/jrd+json")
        #expect(webfinger.status == 503 && webfinger.header("Retry-After") != nil, "\(webfinger.status)")
        let inbox = try await FetchClient(allowPrivateAddresses: true).perform(
            OutgoingRequest(method: "POST", url: base + "/inbox", headers: [("Content-Type", "application/activity+json")], body: Array("{}".utf8)),
            on: testTransfers)
        #expect(inbox.status == 503)
        try disk.free()
        #expect(try await eventually(within: 20) { (try? await HTTPClientForTests.get(base + "/actor", accept: "application/activity+json"))?.status == 200 },
                "opened once there is room: \(log())")
        #expect(server.process.isRunning)
    }

    /// `lectern serve` of `root` on a free port, its log in a file of its own.
    func startServer(_ root: URL) throws -> (server: ServerProcess, base: String, log: URL) {
        let port = try freePort()
        let logFile = FileManager.default.temporaryDirectory.appendingPathComponent("lectern-full-start-\(UUID().uuidString).log")
        #expect(FileManager.default.createFile(atPath: logFile.path, contents: nil))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: lecternBinary)
        process.arguments = ["serve", "-s", root.path, "--port", String(port)]
        process.standardError = try FileHandle(forWritingTo: logFile)
        try process.run()
        return (ServerProcess(process: process, log: logFile), "http://127.0.0.1:\(port)", logFile)
    }

    struct ServerProcess {
        let process: Process
        let log: URL

        func stop() {
            if process.isRunning { process.terminate(); process.waitUntilExit() }
            try? FileManager.default.removeItem(at: log)
        }
    }

    func send(_ activity: [String: Any], as name: String, to inbox: String, from remote: FakeInstance) async throws -> IncomingResponse {
        let parts = try remote.signedPost(activity, as: name, to: inbox)
        return try await FetchClient(allowPrivateAddresses: true)
            .perform(OutgoingRequest(method: "POST", url: parts.targetURI, headers: parts.headers, body: parts.body), on: testTransfers)
    }

    func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    func lines(_ file: URL) throws -> [Substring] {
        try String(contentsOf: file, encoding: .utf8).split(separator: "\n")
    }
}
