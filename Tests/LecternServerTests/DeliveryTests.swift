import ActivityStreams
import Dates
import Delivery
import Foundation
import HTTPSignatures
import Interactions
import Storage
import Testing
@testable import WebServer

/// Publishing and the delivery worker against a fake remote whose inboxes verify signatures.
@Suite(.serialized) struct DeliveryTests {
    /// `count` followers on the fake instance; those `shared` use its shared inbox.
    func addFollowers(_ store: Store, remote: FakeInstance, prefix: String, count: Int, shared: Bool) throws {
        for index in 0..<count {
            let id = remote.actorID("\(prefix)\(index)")
            try store.actors.saveRemoteActor(RemoteActor(id: id, handle: "@\(prefix)\(index)@\(remote.host)", inbox: id + "/inbox",
                                                  sharedInbox: shared ? remote.sharedInbox : nil), keys: [])
            try store.followers.addFollower(actorID: id, followActivityID: id + "/follow")
        }
    }

    /// A delivery worker with the blog's key, allowed to reach the fake remote on loopback.
    func makeWorker(_ blog: BlogFixture, _ adjust: (inout DeliveryWorker.Settings) -> Void = { _ in }) -> DeliveryWorker {
        var settings = DeliveryWorker.Settings(userAgent: "test")
        settings.allowPrivateAddresses = true
        adjust(&settings)
        let (keyID, site) = (blog.actor + "#main-key", blog.runtime.activityPub)
        return DeliveryWorker(queue: blog.store.deliveries, signingKey: { (keyID, try site.actorKey) }, settings: settings)
    }

    /// Queues a Create with id `<actor>#<name>` for `inboxes`.
    func queueCreate(_ blog: BlogFixture, _ name: String, to inboxes: [String]) throws {
        try Outbox(queue: blog.store.deliveries, proofs: nil).send(Activity(id: blog.actor + "#\(name)", type: .create, actor: blog.actor,
                                                    object: blog.actor + "#\(name)/object"), to: inboxes)
    }

    func writePost(_ blog: BlogFixture, slug: String, body: String) throws {
        let file = blog.root.appendingPathComponent("content/posts/\(slug).md")
        try "---\ntitle: \(slug)\ndate: \(ISO8601DateFormatter().string(from: Date()))\n---\n\n\(body)\n"
            .write(to: file, atomically: true, encoding: .utf8)
    }

    /// libcurl is linked: where it cannot be loaded, the loader refuses to start `lectern deliver`
    /// and says why, so the queue waits unchanged (no attempt counted, no host marked failing)
    /// and goes out once libcurl is there.
    @Test func withoutLibcurlTheQueueWaitsUnchanged() async throws {
        try await withBlog(background: false) { remote, blog in
            try addFollowers(blog.store, remote: remote, prefix: "w", count: 1, shared: true)
            try queueCreate(blog, "waiting", to: [remote.sharedInbox])
            let before = try blog.store.deliveries.deliveryStats()
            #expect(before.queued == 1)
            let libraries = blog.root.appendingPathComponent("broken-lib")
            try FileManager.default.createDirectory(at: libraries, withIntermediateDirectories: true)
            try Data("not a library".utf8).write(to: libraries.appendingPathComponent("libcurl.so.4"))
            let (status, output) = try run([lecternBinary, "deliver", "-s", blog.root.path], environment: ["LD_LIBRARY_PATH": libraries.path])
            #expect(status == 127 && output.contains("error while loading shared libraries") && output.contains("libcurl.so.4"),
                    "\(output)")
            #expect(try blog.store.deliveries.deliveryStats() == before)

            let delivered = try lectern(["deliver"], site: blog.root)
            #expect(delivered.contains("1 delivered"), "\(delivered)")
        }
    }

    @Test func fanOutCreateUpdateDeleteOncePerInbox() async throws {
        try await withBlog(background: false) { remote, blog in
            try addFollowers(blog.store, remote: remote, prefix: "s", count: 20, shared: true)
            try addFollowers(blog.store, remote: remote, prefix: "p", count: 10, shared: false)

            let year = Calendar(identifier: .gregorian).component(.year, from: Date())
            let path = "/\(year)/fresh/"
            try writePost(blog, slug: "fresh", body: "A new post.")
            try blog.rebuild()
            let first = await blog.runtime.delivery.runOnce()
            #expect(first == DeliveryWorker.Report(delivered: 11, retrying: 0, failed: 0), "20 followers share one inbox, 10 have their own")
            let creates = remote.activities(type: "Create")
            #expect(creates.count == 11)
            #expect(Set(creates.map(\.path)).count == 11, "each inbox exactly once")
            #expect(creates.allSatisfy { $0.verifiedKeyID == blog.actor + "#main-key" })
            #expect(creates.allSatisfy { ($0.object?["id"] as? String) == blog.base + path })

            // Restarting (a new publisher over the same store) announces nothing twice.
            #expect(try blog.runtime.publish().report.isEmpty)
            #expect(await blog.runtime.delivery.runOnce().attempts == 0)

            try writePost(blog, slug: "fresh", body: "A new post, corrected.")
            try blog.rebuild()
            #expect(await blog.runtime.delivery.runOnce().delivered == 11)
            let updates = remote.activities(type: "Update")
            #expect(updates.count == 11)
            #expect((updates.first?.object?["content"] as? String)?.contains("corrected") == true)
            #expect(updates.first?.object?["updated"] != nil)

            try FileManager.default.removeItem(at: blog.root.appendingPathComponent("content/posts/fresh.md"))
            try blog.rebuild()
            #expect(await blog.runtime.delivery.runOnce().delivered == 11)
            let deletes = remote.activities(type: "Delete")
            #expect(deletes.count == 11)
            #expect(deletes.allSatisfy { ($0.object?["id"] as? String) == blog.base + path && $0.verifiedKeyID != nil })
            #expect(try await blog.get(path).status == 410)
            #expect(remote.activities(type: "Create").count == 11, "the scaffold's posts were never announced (first publish)")

            // Back again: announced to every inbox anew, under a new id (the first Create's id was
            // seen by them all, and its queue rows are there).
            try writePost(blog, slug: "fresh", body: "A new post, restored.")
            try blog.rebuild()
            #expect(await blog.runtime.delivery.runOnce().delivered == 11)
            let again = remote.activities(type: "Create").dropFirst(11)
            #expect(again.count == 11 && Set(again.map(\.path)).count == 11)
            #expect(again.allSatisfy { ($0.object?["content"] as? String)?.contains("restored") == true })
            let ids = Set(again.compactMap { $0.activity["id"] as? String })
            #expect(ids.count == 1 && !ids.contains(blog.base + path + "#create"), "\(ids)")
            #expect(try await blog.get(path).status == 200)
        }
    }

    @Test func failuresAreRetriedWithGrowingDelaysOrGivenUp() async throws {
        try await withBlog(background: false) { remote, blog in
            let store = blog.store
            let closed = "http://127.0.0.1:\(try freePort())/inbox"
            let inboxes = ["500": remote.actorID("r500") + "/inbox", "429": remote.actorID("r429") + "/inbox",
                           "400": remote.actorID("r400") + "/inbox", "410": remote.actorID("r410") + "/inbox",
                           "slow": remote.actorID("slow") + "/inbox", "refused": closed]
            remote.scripted.value = ["/users/r500/inbox": [500], "/users/r429/inbox": [429], "/users/r400/inbox": [400, 400],
                                     "/users/r410/inbox": [410]]  // a 400 to both standards of the double-knock
            remote.delays.value = ["/users/slow/inbox": 3]
            try await store.actors.saveRemoteActor(RemoteActor(id: remote.actorID("r410"), inbox: inboxes["410"]!), keys: [])
            try store.followers.addFollower(actorID: remote.actorID("r410"), followActivityID: "f")
            let worker = makeWorker(blog) { $0.requestTimeout = .seconds(1) }
            try queueCreate(blog, "test/1", to: Array(inboxes.values))
            func row(_ key: String) throws -> Delivery {
                try store.deliveries.delivery(activityID: blog.actor + "#test/1", inbox: inboxes[key]!)
            }

            let start = Date()
            let first = await worker.runOnce()
            #expect(first == DeliveryWorker.Report(delivered: 0, retrying: 4, failed: 2))
            #expect(try row("400").state == .failed, "a 400 (to RFC 9421, then to draft-cavage) is final")
            #expect(try row("410").state == .failed)
            #expect(try !store.followers.isFollower(remote.actorID("r410")), "410 from a follower's inbox removes the follower")
            let firstDelay = try row("500").nextAttemptAt.timeIntervalSince1970 - start.timeIntervalSince1970
            #expect((23...40).contains(firstDelay), "first retry after about 30 s: \(firstDelay)")
            #expect(try row("429").nextAttemptAt.timeIntervalSince1970 - start.timeIntervalSince1970 >= 119, "Retry-After is honoured")
            #expect(try row("refused").state == .queued && row("slow").state == .queued)
            #expect(try row("slow").lastStatus == nil, "a timeout has no status")

            // An hour later: the 500 and 429 hosts answer now; the others fail again, waiting longer.
            let later = Date().addingTimeInterval(3600)
            let second = await worker.runOnce(now: later)
            #expect(second.delivered == 2)
            #expect(try row("500").state == .delivered && row("429").state == .delivered)
            let refused = try row("refused")
            #expect(refused.attempts == 2, "\(refused)")
            let secondDelay = try row("refused").nextAttemptAt.timeIntervalSince1970 - later.timeIntervalSince1970
            #expect(secondDelay > firstDelay && (47...75).contains(secondDelay), "delays grow: \(firstDelay) then \(secondDelay)")
            #expect(remote.activities(at: "/users/r500/inbox").count == 1)
            #expect(remote.activities(at: "/users/r500/inbox").first?.verifiedKeyID == blog.actor + "#main-key")

            // After about two days of failures a delivery is given up.
            let policy = RetryPolicy()
            #expect(policy.decide(status: 503, error: nil, retryAfter: nil, attempts: 12, queuedAt: start,
                                  now: start.addingTimeInterval(47 * 3600), jitter: 1).next == .failed)
            #expect(policy.decide(status: 503, error: nil, retryAfter: nil, attempts: 3, queuedAt: start, now: start, jitter: 1).next
                    == .retry(at: start.addingTimeInterval(240)))
            // The policy decides everything the store saves: the host's health and the followers.
            #expect(policy.decide(status: 404, error: nil, retryAfter: nil, attempts: 0, queuedAt: start, now: start).hostDown == false)
            #expect(policy.decide(status: 410, error: nil, retryAfter: nil, attempts: 0, queuedAt: start, now: start).removeFollowers)
            #expect(policy.decide(status: nil, error: .timedOut, retryAfter: nil, attempts: 0, queuedAt: start, now: start).hostDown)
            // Nothing sent because libcurl cannot start here says nothing about the host; it is retried.
            let unsent = policy.decide(status: nil, error: .unavailable("curl_global_init failed"), retryAfter: nil, attempts: 0,
                                       queuedAt: start, now: start, jitter: 1)
            #expect(!unsent.hostDown && unsent.next == .retry(at: start.addingTimeInterval(30)), "\(unsent)")
            let inFifty = Date(timeIntervalSince1970: (start.timeIntervalSince1970 + 3000).rounded(.down))
            let dated = policy.decide(status: 429, error: nil, retryAfter: HTTPDate.format(inFifty),
                                      attempts: 0, queuedAt: start, now: start, jitter: 1)
            #expect(dated.next == .retry(at: start.addingTimeInterval(inFifty.timeIntervalSince(start))), "Retry-After as an HTTP date")
        }
    }

    /// Jobs waiting in a worker's buffer behind slow requests (here: one host, one request at a
    /// time, 0.4 s each) keep their lease: a second worker running meanwhile (`lectern deliver`
    /// beside the server) finds nothing to take, and no inbox gets the activity twice.
    @Test func waitingJobsKeepTheirLease() async throws {
        try await withBlog(background: false) { remote, blog in
            let inboxes = (0..<12).map { remote.actorID("w\($0)") + "/inbox" }
            remote.delays.value = Dictionary(uniqueKeysWithValues: (0..<12).map { ("/users/w\($0)/inbox", 0.4) })
            func slowHostWorker() -> DeliveryWorker { makeWorker(blog) { $0.concurrency = 2; $0.perHost = 1; $0.lease = 2 } }
            let first = slowHostWorker(), second = slowHostWorker()
            try queueCreate(blog, "lease/1", to: inboxes)
            let firstPass = Task { await first.runOnce() }
            var secondDelivered = 0
            while remote.activities(type: "Create").count < inboxes.count, secondDelivered < inboxes.count {
                secondDelivered += await second.runOnce().delivered
                try await Task.sleep(for: .milliseconds(100))
            }
            let firstDelivered = await firstPass.value.delivered
            let paths = remote.activities(type: "Create").map(\.path)
            #expect(Set(paths).count == inboxes.count, "every inbox got it")
            #expect(paths.count == inboxes.count, "none twice: \(paths.count - inboxes.count) repeated")
            #expect(firstDelivered + secondDelivered == inboxes.count)
        }
    }

    /// A request that cannot even start (here: an inbox that is not http(s)) while nothing else is
    /// in flight (one request at a time): the pass goes on with the rest instead of ending there
    /// and leaving them leased until the lease runs out.
    @Test func requestsThatCannotStartDoNotEndThePass() async throws {
        try await withBlog(background: false) { remote, blog in
            let worker = makeWorker(blog) { $0.concurrency = 1 }
            let unstartable = ["ftp://127.0.0.1/a/inbox", "ftp://127.0.0.1/b/inbox"]
            let good = [remote.actorID("g0") + "/inbox", remote.actorID("g1") + "/inbox"]
            try queueCreate(blog, "start/1", to: unstartable + good)
            let report = await worker.runOnce()
            #expect(report.attempts == 4 && report.delivered == 2, "every job tried in one pass: \(report)")
            #expect(remote.activities(type: "Create").count == 2)
        }
    }

    /// `kill -9` of `lectern deliver` in the middle of a fan-out: a restart completes it.
    @Test func killedWorkerLosesNothing() async throws {
        let lectern = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("lectern")
        try #require(FileManager.default.isExecutableFile(atPath: lectern.path), "build the lectern executable first")
        try await withBlog(extraConfig: "delivery:\n  perHost: 32\n", background: false) { remote, blog in
            let followers = 300
            try addFollowers(blog.store, remote: remote, prefix: "k", count: followers, shared: false)
            remote.delays.value = Dictionary(uniqueKeysWithValues: (0..<followers).map { ("/users/k\($0)/inbox", 0.2) })
            try writePost(blog, slug: "big-news", body: "Everyone should get this.")
            try blog.rebuild()

            let process = Process()
            process.executableURL = lectern
            process.arguments = ["deliver", "--site", blog.root.path]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            #expect(try await eventually(within: 20) { remote.activities(type: "Create").count >= 40 })
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            let beforeRestart = remote.activities(type: "Create").count
            #expect(beforeRestart < followers, "killed mid-fan-out (\(beforeRestart) of \(followers) delivered)")

            // The restart: rows the dead worker held come back once their lease (60 s) is over.
            let report = await blog.runtime.delivery.runOnce(now: Date().addingTimeInterval(61))
            #expect(report.failed == 0)
            let stats = try blog.store.deliveries.deliveryStats()
            #expect(stats.delivered == followers && stats.queued == 0)
            let paths = remote.activities(type: "Create").map(\.path)
            #expect(Set(paths).count == followers, "every inbox got it")
            #expect(paths.count - followers <= 32, "at most the requests in flight at the kill are repeated: \(paths.count - followers)")
        }
    }

    @Test func digestRespectsItsIntervalAndReportsEachItemOnce() async throws {
        let remote = try FakeInstance()
        try await remote.start()
        defer { remote.stop() }
        let blog = try await BlogFixture(remote: remote, extraConfig: "digest:\n  interval: 1h\n", owner: remote.actorID("owner"),
                                         background: false)
        defer { blog.stop() }
        let store = blog.store
        let digest = blog.runtime.digest()
        func comment(_ n: Int) async throws {
            let author = remote.actorID("alice")
            try await store.actors.saveRemoteActor(RemoteActor(id: author, handle: "@alice@\(remote.host)", name: "Alice", inbox: author + "/inbox"), keys: [])
            _ = try await store.comments.insertComment(CommentRecord(id: "\(author)/notes/\(n)", postPath: blog.post, parentID: nil, authorID: author,
                                                  url: nil, contentHTML: "<p>Comment number \(n)</p>", summary: nil, sensitive: false,
                                                  language: nil, visibility: .public, state: .approved, publishedAt: Date()))
        }
        let t0 = Date()
        #expect(try await digest.sendIfDue(now: t0) == .nothingNew, "nothing new, no message")
        try await comment(1)
        try await comment(2)
        #expect(try await digest.sendIfDue(now: t0) == .sent(items: 2, to: "@owner@\(remote.host)"))
        try await comment(3)
        guard case .tooSoon(let next) = try await digest.sendIfDue(now: t0.addingTimeInterval(600)) else {
            Issue.record("a second digest within the interval must wait")
            return
        }
        #expect(abs(next.timeIntervalSince(t0) - 3600) < 0.01)
        #expect(try await digest.sendIfDue(now: t0.addingTimeInterval(3601)) == .sent(items: 1, to: "@owner@\(remote.host)"))
        #expect(try await digest.sendIfDue(now: t0.addingTimeInterval(9000)) == .nothingNew)
        #expect(await blog.runtime.delivery.runOnce(now: t0.addingTimeInterval(9001)).delivered == 2)
        // Both go out in one pass, concurrently: order them by what they say.
        let messages = remote.activities(at: "/users/owner/inbox", type: "Create").compactMap { $0.object?["content"] as? String }
            .sorted { $0.contains("number 1") && !$1.contains("number 1") }
        #expect(messages.count == 2)
        #expect(messages[0].contains("Comment number 1") && messages[0].contains("Comment number 2") && !messages[0].contains("number 3"))
        #expect(messages[1].contains("Comment number 3") && !messages[1].contains("number 1"))
    }
}
