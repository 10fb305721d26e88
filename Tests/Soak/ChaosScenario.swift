import Foundation
import OutboundHTTP
import Storage
import Synchronization

/// `make chaos`: a fan-out to thousands of inboxes that answer 500, 429 with `Retry-After`,
/// stall past the timeout or drop the connection (seeded), an inbox burst at the same time, and
/// `lectern serve` killed with SIGKILL three times and restarted. Afterwards every inbox must
/// have each activity at least once and at most twice, every reply answered 202 must be a
/// comment, `public/` whole, the database intact, the queue empty, and every retry on time.
struct ChaosScenario {
    struct Settings {
        var posts = 200
        var inboxes = 3000
        var replies = 2000
        var instances = 30
        var actorsPerInstance = 10
        var kills = 3
        /// The kills fall at random moments of this window, from the first publish.
        var killWindow = 60.0
        var faultRate = 0.3
        var timeout = 3.0
        var firstRetry = 2.0
        var seed: UInt64 = 1
        var drainWithin = 300.0
    }

    let settings: Settings
    let site: SiteUnderTest
    let basePort: Int

    func run() async throws -> ChaosReport {
        let s = settings
        print("chaos: seed \(s.seed); \(s.inboxes) follower inboxes, \(s.replies) replies, \(s.kills) kills within \(s.killWindow) s")
        let delivery = "  timeout: \(Int(s.timeout))s\n  firstRetry: \(Int(s.firstRetry))s\n"
        try await onThread { try site.create(posts: s.posts, delivery: delivery) }
        let faults = FaultPlan(seed: s.seed, rate: s.faultRate, faultyAttempts: 2, longestRetryAfter: 5)
        let fediverse = try FakeFediverse(instances: s.instances, actorsPerInstance: s.actorsPerInstance, basePort: basePort,
                                          faults: faults, stallSeconds: s.timeout + 1)
        try await fediverse.start()
        defer { fediverse.stop() }
        let store = try Store(path: site.database)
        for n in 0..<s.inboxes {
            let follower = fediverse.followerInbox(n)
            try await store.actors.saveRemoteActor(RemoteActor(id: follower.actor, inbox: follower.inbox), keys: [])
            try store.followers.addFollower(actorID: follower.actor, followActivityID: follower.actor + "/follow")
        }
        try await site.start()
        let blogActor = site.baseURL + "/actor"
        fediverse.setBlogKey(try await SoakScenario.blogKey(blogActor))
        let catalog = try await SiteCatalog.load(baseURL: site.baseURL)
        let traffic = InboxTraffic(blogURL: site.baseURL, blogActor: blogActor, runID: "chaos\(s.seed)")
        let stats = LoadStats()
        let driver = LoadDriver(stats: stats)
        let kills = Locked<[Date]>([])
        let replies = Locked<(accepted: [String], refused: [String: Int])>(([], [:]))
        var random = SplitMix64(seed: s.seed)
        // Each kill falls when the inboxes have seen a random share of the two fan-outs' requests
        // (so it is mid-fan-out), or at the end of the window if they never see that many.
        let killAt = (0..<s.kills).map { _ in 0.1 + random.unit() * 0.8 }.sorted()
        let downFor = (0..<s.kills).map { _ in 300 + Int(random.next() % 700) }
        let start = Date()

        await withDiscardingTaskGroup { group in
            group.addTask {
                // The fan-outs: a new post, then an edit of it, each to every follower's inbox.
                // The edit comes while the post's own fan-out is half done.
                let date = Date(timeIntervalSinceNow: -5)
                await SoakScenario.publish(site: site, stats: stats, slug: "chaos-news", title: "Chaos news", body: "First version.", date: date)
                await Self.waitUntil(fediverse.log, reaches: s.inboxes / 2, orUntil: start.addingTimeInterval(s.killWindow / 2))
                await SoakScenario.publish(site: site, stats: stats, slug: "chaos-news", title: "Chaos news",
                                           body: "Second version, edited.", date: date, kind: "publish an edit")
            }
            group.addTask {
                // The inbox burst: each reply sent until the blog answers (a sender retries a
                // refused connection or a 503, as servers do), 32 at a time.
                await driver.steady("inbox reply", rate: Double(s.replies) / (s.killWindow / 2), until: start.addingTimeInterval(s.killWindow),
                                    cap: 32, waits: true) { tick in
                    guard tick < s.replies else { return }
                    let actor = fediverse.actor(tick % fediverse.actorCount)
                    let post = catalog.posts[tick % catalog.posts.count]
                    let activity = traffic.activity(.reply, by: actor, post: post, n: tick)
                    for attempt in 0..<60 {
                        guard let request = try? traffic.request(activity, by: actor, rfc9421: tick % 2 == 0) else { return }
                        let status = await driver.timed("inbox reply", request)?.status
                        if status == 202 { replies.withLock { $0.accepted.append(traffic.noteID(actor, tick)) }; return }
                        if let status, status < 500 { replies.withLock { $0.refused["HTTP \(status)", default: 0] += 1 }; return }
                        try? await Task.sleep(for: .milliseconds(500 + 100 * attempt))
                    }
                    replies.withLock { $0.refused["no answer after 60 tries", default: 0] += 1 }
                }
            }
            group.addTask {
                for (share, milliseconds) in zip(killAt, downFor) {
                    await Self.waitUntil(fediverse.log, reaches: Int(share * Double(2 * s.inboxes)), orUntil: start.addingTimeInterval(s.killWindow))
                    site.kill()
                    kills.withLock { $0.append(Date()) }
                    print(String(format: "chaos: kill -9 at %.1f s", Date().timeIntervalSince(start)))
                    try? await Task.sleep(for: .milliseconds(milliseconds))
                    do { try await site.start() } catch { print("chaos: restart failed: \(error)") }
                }
            }
        }
        print("chaos: faults over; waiting for the queue to drain")
        let drained = try await SoakScenario.drain(store, within: s.drainWithin)
        let accepted = replies.withLock { $0.accepted }
        let missing = try accepted.filter { try store.comments.comment(id: $0) == nil }
        let stillQueued = try store.deliveries.deliveryStats().queued
        site.stop()
        let problems = (try? store.integrityProblems()) ?? ["could not run integrity_check"]
        let published = try PublicFolderCheck(root: site.root).run(expecting: ["chaos-news": "Second version, edited."])
        let followerInboxes = Set((0..<s.inboxes).map { fediverse.followerInbox($0).inbox })
        return ChaosReport(settings: s, stats: stats, elapsed: Date().timeIntervalSince(start), kills: kills.withLock { $0 }.map { $0.timeIntervalSince(start) },
                           drained: drained, stillQueued: stillQueued, log: fediverse.log, followerInboxes: followerInboxes,
                           retries: fediverse.log.retryViolations(firstRetry: s.firstRetry, kills: kills.withLock { $0 }),
                           acceptedReplies: accepted.count, refusedReplies: replies.withLock { $0.refused }, missingComments: missing,
                           integrity: problems, publicFolder: published, serverLog: site.logLines())
    }

    /// Waits until the inboxes have received `count` requests, or `deadline`.
    static func waitUntil(_ log: DeliveryLog, reaches count: Int, orUntil deadline: Date) async {
        while log.requestCount < count, Date() < deadline { try? await Task.sleep(for: .milliseconds(20)) }
    }
}
