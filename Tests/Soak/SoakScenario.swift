import Foundation
import HTTPClient
import LecternCrypto
import Store
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
        let sampling = Task { await sampler.run(interval: s.sampleEvery, pid: { site.pid }, logBytes: { site.logBytes }) }
        let end = Date().addingTimeInterval(s.minutes * 60)
        print("soak: load for \(s.minutes) min until \(ISO8601DateFormatter().string(from: end))")
        let posts = catalog.posts
        await withDiscardingTaskGroup { group in
            group.addTask {
                await driver.steady("page", rate: s.pageRate, until: end, cap: 256) { tick in
                    var random = SplitMix64(seed: s.seed &+ UInt64(tick))
                    let roll = random.next() % 100
                    let url = roll < 70 ? posts[Int(random.next() % UInt64(posts.count))]
                        : roll < 85 ? catalog.lists[Int(random.next() % UInt64(catalog.lists.count))]
                        : catalog.assets[Int(random.next() % UInt64(catalog.assets.count))]
                    var headers: [(name: String, value: String)] = [("Accept-Encoding", "gzip")]
                    let conditional = random.next() % 2 == 0 ? catalog.etag(url) : nil
                    if let conditional { headers.append(("If-None-Match", conditional)) }
                    let kind = roll >= 85 ? "asset" : conditional == nil ? "page" : "page, If-None-Match"
                    let response = await driver.timed(kind, OutgoingRequest(url: url, headers: [("Accept", "text/html,*/*")] + headers))
                    catalog.remember(url, etag: response?.header("etag"))
                }
            }
            group.addTask {
                await driver.steady("article", rate: s.articleRate, until: end, cap: 64) { tick in
                    var random = SplitMix64(seed: s.seed &+ 1_000_003 &* UInt64(tick))
                    let url = posts[Int(random.next() % UInt64(posts.count))]
                    if tick % 2 == 0 {
                        await driver.timed("article, unsigned", OutgoingRequest(url: url, headers: [("Accept", "application/activity+json")]))
                    } else {
                        let actor = fediverse.actor(Int(random.next() % UInt64(fediverse.actorCount)))
                        await driver.timed("article, signed", try! traffic.signedFetch(url, by: actor, rfc9421: tick % 4 == 1))
                    }
                }
            }
            group.addTask {
                await driver.steady("inbox", rate: s.inboxRate, until: end, cap: 64) { tick in
                    await Self.inboxTick(tick, seed: s.seed, posts: posts, fediverse: fediverse, traffic: traffic, state: state, driver: driver)
                }
            }
            group.addTask {
                await driver.steady("search", rate: s.searchRate, until: end, cap: 8) { tick in
                    var random = SplitMix64(seed: s.seed &+ 7 &* UInt64(tick))
                    let words = SiteUnderTest.words
                    let query = tick % 3 == 0 ? String(words[Int(random.next() % 20)].prefix(4))
                        : "\(words[Int(random.next() % 20)]) \(words[Int(random.next() % 20)])"
                    await driver.timed("search", OutgoingRequest(url: site.baseURL + "/search?q=" + query.replacingOccurrences(of: " ", with: "+")))
                }
            }
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
        let missing = try state.acceptedReplies.filter { try store.comment(id: $0) == nil }
        let counts = try store.rowCounts()
        site.stop()
        let problems = (try? store.integrityProblems()) ?? ["could not run integrity_check"]
        return SoakReport(settings: s, stats: stats, samples: sampler.all, drained: drained, acceptedReplies: state.acceptedReplies.count,
                          missingComments: missing, integrity: problems, rowCounts: counts, fediverse: fediverse,
                          database: site.fileSize("data/lectern.sqlite"), wal: site.fileSize("data/lectern.sqlite-wal"),
                          log: site.logLines(), logBytes: site.logBytes)
    }

    /// One inbox request: a reply, like, boost, follow or unfollow by a random actor.
    static func inboxTick(_ tick: Int, seed: UInt64, posts: [String], fediverse: FakeFediverse, traffic: InboxTraffic,
                          state: SoakState, driver: LoadDriver) async {
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
            if try store.inboundBacklog() == 0, try store.deliveryStats().queued == 0 { return Date().timeIntervalSince(start) }
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
