import Foundation
import OutboundHTTP
import LecternCrypto
import Storage
import Synchronization

/// `make soak`: hours of what a public blog meets, all at once, against one `lectern serve`:
/// readers (conditional, gzip), servers fetching Articles (signed and not), link-preview
/// stampedes, replies, likes, boosts, follows and unfollows into the inbox, a new post and an
/// edit published by another process every minute and fanned out to the followers, searches.
/// Afterwards: 5xx count, latencies, memory and descriptors over time, database and log size,
/// and the queues, which must be empty.
struct SoakScenario {
    struct Settings {
        var minutes = 10.0
        var posts = 1000
        var instances = 30
        var actorsPerInstance = 10
        var pageRate = 120.0, articleRate = 20.0, inboxRate = 15.0, searchRate = 2.0
        var stampedeEvery = 180.0, stampedeSize = 1000
        var publishEvery = 60.0
        var sampleEvery = 10.0
        var seed: UInt64 = 1
    }

    let settings: Settings
    let site: SiteUnderTest
    let basePort: Int

    func run() async throws -> SoakReport {
        let s = settings
        print("soak: creating a \(s.posts)-post site and \(s.instances * s.actorsPerInstance) actors on \(s.instances) servers")
        let delivery = "  timeout: 10s\n  firstRetry: 5s\n"
        try await onThread { try site.create(posts: s.posts, delivery: delivery) }
        let fediverse = try FakeFediverse(instances: s.instances, actorsPerInstance: s.actorsPerInstance, basePort: basePort,
                                          faults: nil, stallSeconds: 0)
        try await fediverse.start()
        defer { fediverse.stop() }
        try await site.start()
        let blogActor = site.baseURL + "/actor"
        fediverse.setBlogKey(try await Self.blogKey(blogActor))
        let catalog = try await SiteCatalog.load(baseURL: site.baseURL)
        let traffic = InboxTraffic(blogURL: site.baseURL, blogActor: blogActor, runID: String(UInt32.random(in: 0...UInt32.max), radix: 36))
        let stats = LoadStats()
        let driver = LoadDriver(stats: stats)
        let state = SoakState()

        // Every actor follows the blog first: the fan-outs have followers on every server.
        print("soak: \(fediverse.actorCount) follows")
        await driver.burst("inbox follow (warm-up)", count: fediverse.actorCount, over: 5) { n in
            let actor = fediverse.actor(n)
            state.followed(actor.index, id: traffic.followID(actor, -1))
            return try! traffic.request(traffic.activity(.follow, by: actor, post: "", n: -1), by: actor, rfc9421: n % 2 == 0)
        }

        let sampler = ProcessSampler()
        let sampling = Task { await sampler.run(interval: s.sampleEvery, pid: { site.pid }, logBytes: { site.logBytes },
                                                        held: { await site.memory() }) }
        let end = Date().addingTimeInterval(s.minutes * 60)
        print("soak: load for \(s.minutes) min until \(ISO8601DateFormatter().string(from: end))")
        let posts = catalog.posts
        let load = SoakLoad(settings: s, site: site, fediverse: fediverse, catalog: catalog, traffic: traffic, state: state)
        await withDiscardingTaskGroup { group in
            group.addTask { await load.readersAndInbox(until: end, driver: driver) }
            group.addTask {
                // Publishing: a new post, then half a period later an edit of it, from another process.
                var n = 0
                while Date().addingTimeInterval(s.publishEvery / 2) < end {
                    let slug = "live-\(n)", date = Date(timeIntervalSinceNow: -5)
                    await Self.publish(site: site, stats: stats, slug: slug, title: "Live post \(n)", body: "Fresh news, number \(n).", date: date)
                    // How long until readers see it: the server picks the new build up by itself.
                    let clock = ContinuousClock.now
                    for _ in 0..<100 {
                        // The permalink is made of the title (`Live post 3` → `/2026/live-post-3/`).
                        if let url = try? await SiteCatalog.url(endingIn: "/live-post-\(n)/", baseURL: site.baseURL) {
                            state.published(url)
                            let elapsed = ContinuousClock.now - clock
                            stats.record("new post in the sitemap after publish", milliseconds: Double(elapsed.components.seconds) * 1000
                                         + Double(elapsed.components.attoseconds) / 1e15, status: 200)
                            break
                        }
                        try? await Task.sleep(for: .milliseconds(100))
                    }
                    try? await Task.sleep(for: .seconds(s.publishEvery / 2))
                    await Self.publish(site: site, stats: stats, slug: slug, title: "Live post \(n)",
                                       body: "Fresh news, number \(n), edited.", date: date, kind: "publish an edit")
                    try? await Task.sleep(for: .seconds(s.publishEvery / 2))
                    n += 1
                }
            }
            group.addTask {
                // A stampede of link previews on the newest post, every few minutes.
                var next = Date().addingTimeInterval(min(30, s.stampedeEvery / 2))
                while next.addingTimeInterval(2) < end {
                    try? await Task.sleep(for: .seconds(max(0, next.timeIntervalSinceNow)))
                    let target = state.newestPost ?? posts[0]
                    await driver.burst("stampede (link previews)", count: s.stampedeSize, over: 1) { n in
                        OutgoingRequest(url: target, headers: [("Accept", "text/html"), ("User-Agent", "Mastodon/4.3.0 (http.rb/5.2; +https://s\(n % 50).example/)")])
                    }
                    next = next.addingTimeInterval(s.stampedeEvery)
                }
            }
        }
        print("soak: load over; waiting for the queues to drain")
        let store = try Store(path: site.database)
        let drained = try await Self.drain(store, within: 180)
        try await Task.sleep(for: .seconds(s.sampleEvery))  // one more sample, at rest
        sampling.cancel()
        // Memory a long run holds beyond what its data explains: the same server restarted on
        // the same data and warmed up as long as the run's warm-up, compared at rest.
        var restart: RestartCheck?
        if s.minutes >= 5 {
            let warmUp = SoakReport.warmUp(minutes: s.minutes)
            print("soak: restart on the same data and \(Int(warmUp)) s of the same load, to compare memory at rest")
            restart = try await RestartCheck.run(site: site, load: load, store: store, warmUp: warmUp, rest: s.sampleEvery,
                                                 longRun: sampler.all.last)
        }
        let missing = try state.acceptedReplies.filter { try store.comments.comment(id: $0) == nil }
        let counts = try store.rowCounts()
        site.stop()
        let problems = (try? store.integrityProblems()) ?? ["could not run integrity_check"]
        return SoakReport(settings: s, stats: stats, samples: sampler.all, drained: drained, acceptedReplies: state.acceptedReplies.count,
                          missingComments: missing, integrity: problems, rowCounts: counts, fediverse: fediverse, restart: restart,
                          database: site.fileSize("data/lectern.sqlite"), wal: site.fileSize("data/lectern.sqlite-wal"),
                          log: site.logLines(), logBytes: site.logBytes)
    }

    /// One inbox request: a reply, like, boost, follow or unfollow by a random actor. `neutral`:
    /// each reply, like and boost is taken back a second later (Delete, Undo), so the traffic
    /// leaves the data as it found it.
    static func inboxTick(_ tick: Int, seed: UInt64, posts: [String], fediverse: FakeFediverse, traffic: InboxTraffic,
                          state: SoakState, driver: LoadDriver, neutral: Bool = false) async {
        var random = SplitMix64(seed: seed &+ 31 &* UInt64(tick))
        let actor = fediverse.actor(Int(random.next() % UInt64(fediverse.actorCount)))
        let post = posts[Int(random.next() % UInt64(posts.count))]
        let roll = random.next() % 100
        var kind: InboxTraffic.Kind = roll < 40 ? .reply : roll < 65 ? .like : roll < 80 ? .boost : roll < 90 ? .follow : .unfollow
        var undone: String?
        if kind == .follow || kind == .unfollow {
            // Follow whom does not follow; unfollow whom does.
            undone = state.followID(actor.index)
            kind = undone == nil ? .follow : .unfollow
            // Each server's first actor always follows: every fan-out has every server to reach.
            if kind == .unfollow, actor.index < fediverse.instances { (kind, undone) = (.like, nil) }
        }
        let activity = traffic.activity(kind, by: actor, post: post, n: tick, follow: undone)
        guard let request = try? traffic.request(activity, by: actor, rfc9421: tick % 2 == 0) else { return }
        let response = await driver.timed("inbox \(kind.rawValue)", request)
        guard response?.status == 202 else { return }
        if neutral, let removal = traffic.removal(of: activity, kind, by: actor, n: tick),
           let undo = try? traffic.request(removal, by: actor, rfc9421: tick % 2 == 1) {
            try? await Task.sleep(for: .seconds(1))  // after the inbox has applied the activity
            await driver.timed("inbox \(removal["type"] ?? "") of a \(kind.rawValue)", undo)
            return
        }
        switch kind {
        case .reply: state.accepted(reply: traffic.noteID(actor, tick))
        case .follow: state.followed(actor.index, id: traffic.followID(actor, tick))
        case .unfollow: state.unfollowed(actor.index)
        default: break
        }
    }

    static func publish(site: SiteUnderTest, stats: LoadStats, slug: String, title: String, body: String, date: Date,
                        kind: String = "publish a new post") async {
        let start = ContinuousClock.now
        do {
            _ = try await onThread { try site.publish(slug: slug, title: title, body: body, date: date) }
            let elapsed = ContinuousClock.now - start
            stats.record(kind, milliseconds: Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15, status: 0)
        } catch {
            stats.recordError(kind, error)
        }
    }

    static func blogKey(_ actor: String) async throws -> PublicKey {
        let response = try await Net.get(actor, accept: "application/activity+json")
        guard let document = try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any],
              let key = document["publicKey"] as? [String: Any], let pem = key["publicKeyPem"] as? String else {
            throw SoakError("the blog's actor has no publicKeyPem")
        }
        return try PublicKey(pem: pem)
    }

    /// Waits until nothing waits to be applied or delivered; the seconds it took, or nil.
    static func drain(_ store: Store, within seconds: Double) async throws -> Double? {
        let start = Date()
        while Date().timeIntervalSince(start) < seconds {
            if try store.inbox.inboundBacklog() == 0, try store.deliveries.deliveryStats().queued == 0 { return Date().timeIntervalSince(start) }
            try await Task.sleep(for: .milliseconds(200))
        }
        return nil
    }
}

/// Who follows the blog now (by actor), the replies the inbox accepted, the newest live post.
final class SoakState: Sendable {
    private struct State {
        var follows: [Int: String] = [:]
        var replies: [String] = []
        var newest: String?
    }
    private let state = Mutex(State())

    func followed(_ actor: Int, id: String) { state.withLock { $0.follows[actor] = id } }
    func unfollowed(_ actor: Int) { state.withLock { $0.follows[actor] = nil } }
    func followID(_ actor: Int) -> String? { state.withLock { $0.follows[actor] } }
    func accepted(reply: String) { state.withLock { $0.replies.append(reply) } }
    var acceptedReplies: [String] { state.withLock { $0.replies } }
    func published(_ url: String) { state.withLock { $0.newest = url } }
    var newestPost: String? { state.withLock { $0.newest } }
}
