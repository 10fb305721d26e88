import Delivery
import Federation
import Foundation
import Hummingbird
import LecternCrypto
import Logging
import NIOCore
import Site
import Store
import Synchronization

/// A running blog: the built site, its state, and the workers around the HTTP server (inbox
/// processing, deliveries, re-rendering pages when comments change, digests). `lectern serve`
/// is this plus command-line options; the end-to-end tests start the same thing.
///
/// ```swift
/// let runtime = try SiteRuntime(root: siteURL, logger: logger)
/// async let background: Void = runtime.runBackground(watch: true)
/// try await runtime.makeApplication(host: "127.0.0.1", port: 8080).runService()
/// ```
public final class SiteRuntime: Sendable {
    public let root: URL
    public let config: SiteConfig
    public let includeDrafts: Bool
    public let builder: SiteBuilder
    public let store: Store
    public let site: LiveSite
    public let activityPub: ActivityPubSite
    public let delivery: DeliveryWorker
    public let outbox: Outbox
    public let inbox: InboxWorker
    public let publisher: Publisher
    public let digest: CommentDigest
    public let logger: Logger
    let inboxSignal = QueueSignal()
    let rebuildSignal = QueueSignal()
    /// Set by the watcher: the next rebuild re-reads sources and publishes.
    let sourcesChanged = Atomic<Bool>(false)
    /// Serializes builds (the watcher's and the comments').
    let buildLock = Mutex(())
    /// What pages show of each post's discussion, kept between builds: after the inbox changes a
    /// few posts only those are read again (a busy blog has thousands of comments).
    let discussions = Mutex<[String: Discussion]>([:])
    /// Posts whose discussion changed since the last build (from the inbox worker).
    let pendingPosts = PendingPosts()

    /// A set shared with the inbox worker's callback (a class: `Mutex` cannot be captured).
    final class PendingPosts: Sendable {
        private let paths = Mutex<Set<String>>([])
        func add(_ changed: Set<String>) { paths.withLock { $0.formUnion(changed) } }
        func take() -> Set<String> { paths.withLock { paths in defer { paths.removeAll() }; return paths } }
    }

    public init(root: URL, includeDrafts: Bool = false, store: Store? = nil, logger: Logger) throws {
        self.root = root.standardizedFileURL
        self.includeDrafts = includeDrafts
        self.logger = logger
        let config = try SiteConfig.load(from: root)
        self.config = config
        builder = SiteBuilder(root: root)
        let store = try store ?? Store(path: root.appendingPathComponent("data/lectern.sqlite").path)
        self.store = store
        activityPub = try ActivityPubSite(config: config, store: store,
                                          keys: KeyStore(folder: root.appendingPathComponent("data/keys")))
        // Build before listening: the server never serves a stale or half-built site.
        let initial = try Discussions(store: store).all()
        discussions.withLock { $0 = initial }
        let report = try builder.build(SiteBuilder.Options(includeDrafts: includeDrafts, discussions: initial))
        logger.info("built in \(Int(report.seconds * 1000)) ms: \(report.written) written, \(report.reused) unchanged")
        for warning in report.warnings { logger.warning("\(warning)") }
        site = try LiveSite(publicFolder: builder.publicFolder)
        try activityPub.reload(content: try ContentLoader(root: root, timeZone: config.timeZone).load(includeDrafts: includeDrafts))

        let delivery = Self.deliveryWorker(activityPub, logger: logger)
        self.delivery = delivery
        outbox = Outbox(store: store) { delivery.signal.signal() }
        let fetcher = activityPub.remoteKeys.fetcher
        let rebuildSignal = self.rebuildSignal
        let pendingPosts = self.pendingPosts
        inbox = InboxWorker(store: store, processor: InboxProcessor(store: store, config: config, outbox: outbox, fetcher: fetcher),
                            signal: inboxSignal, logger: logger) { changed in
            pendingPosts.add(changed)
            rebuildSignal.signal()
        }
        publisher = Publisher(site: activityPub, outbox: outbox)
        digest = CommentDigest(site: activityPub, outbox: outbox,
                               owner: config.owner == nil ? nil : OwnerResolver(fetcher: fetcher, store: store))
    }

    /// The delivery worker as `lectern.yml` configures it, signing as the blog's actor.
    public static func deliveryWorker(_ activityPub: ActivityPubSite,
                                      logger: Logger = Logger(label: "lectern.delivery")) -> DeliveryWorker {
        let config = activityPub.config
        var settings = DeliveryWorker.Settings(userAgent: "Lectern/\(ActivityPubSite.softwareVersion) (+\(config.baseURL)/)")
        settings.concurrency = config.delivery.concurrency
        settings.perHost = config.delivery.perHost
        settings.rfc9421 = config.delivery.rfc9421
        settings.allowPrivateAddresses = config.federation.allowPrivateAddresses
        return DeliveryWorker(store: activityPub.store, keyID: activityPub.urls.actorKeyID, key: activityPub.actorKey,
                              settings: settings, logger: logger)
    }

    public func makeApplication(host: String? = nil, port: Int? = nil, requestTimeout: TimeAmount = LecternServer.requestTimeout,
                                onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }) -> some ApplicationProtocol {
        let inboxSignal = inboxSignal
        let interactions = LecternServer.Interactions(gate: InboxGate(store: store, keys: activityPub.remoteKeys),
                                                      discussions: Discussions(store: store)) { inboxSignal.signal() }
        return LecternServer.makeApplication(site: site, activityPub: activityPub, interactions: interactions,
                                             host: host ?? config.server.host, port: port ?? config.server.port,
                                             requestTimeout: requestTimeout, logger: logger, onServerRunning: onServerRunning)
    }

    /// Everything but the HTTP server, until cancelled: publishes what changed since the last
    /// run, then processes the inbox, delivers, re-renders, and sends digests.
    public func runBackground(watch: Bool = false) async {
        do { try publish() } catch { logger.error("publishing: \(error)") }
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.inbox.run() }
            group.addTask { await self.delivery.run() }
            group.addTask { await self.rebuildLoop() }
            group.addTask { await self.digestLoop() }
            if watch {
                group.addTask {
                    await SiteWatcher(root: self.root) {
                        self.sourcesChanged.store(true, ordering: .relaxed)
                        self.rebuildSignal.signal()
                    }.run()
                }
            }
            await group.waitForAll()
        }
    }

    /// Queues Create/Update/Delete for what changed; logs what it did.
    @discardableResult
    public func publish(announce: Bool = true) throws -> Publisher.Report {
        let report = try publisher.publish(announce: announce)
        if !report.isEmpty {
            logger.info("published: \(report.created.count) new, \(report.updated.count) updated, \(report.deleted.count) deleted, \(report.skipped.count) not announced; \(report.deliveries) deliveries queued")
        }
        return report
    }

    /// Re-renders after comments changed (only the affected pages and feeds are written) or,
    /// when the watcher saw a change, after sources changed (then followers hear of it).
    public func rebuild(sourcesChanged: Bool, allDiscussions: Bool = true) throws {
        try buildLock.withLock { _ in
            let changed = pendingPosts.take()
            let source = Discussions(store: store)
            let current: [String: Discussion]
            if allDiscussions {
                current = try source.all()
            } else {
                var known = discussions.withLock { $0 }
                for path in changed {
                    let fresh = try source.discussion(postPath: path)
                    known[path] = fresh.isEmpty ? nil : fresh
                }
                current = known
            }
            discussions.withLock { $0 = current }
            let report = try builder.build(SiteBuilder.Options(includeDrafts: includeDrafts, discussions: current))
            try site.reload()
            if sourcesChanged {
                try activityPub.reload(content: try ContentLoader(root: root, timeZone: config.timeZone)
                    .load(includeDrafts: includeDrafts))
                try publish()
            } else {
                try activityPub.refreshReactions()
            }
            for warning in report.warnings { logger.warning("\(warning)") }
            logger.info("rebuilt: \(report.written) files written, \(report.reused) reused in \(Int(report.seconds * 1000)) ms")
        }
    }

    /// Commands that change what pages show (moderation, blocks) set this setting; the running
    /// server notices within two seconds and re-renders.
    public static let discussionsChangedKey = "discussions_changed_at"

    func rebuildLoop() async {
        var lastStamp = try? store.setting(Self.discussionsChangedKey)
        var lastBuild = Duration.zero
        while !Task.isCancelled {
            let signalled = await rebuildSignal.wait(upTo: .seconds(2))
            guard !Task.isCancelled else { return }
            let stamp = try? store.setting(Self.discussionsChangedKey)
            let fromCommand = stamp != lastStamp
            lastStamp = stamp
            guard signalled || fromCommand else { continue }
            // Let a burst (a thread of replies, a batch of likes) settle into one build; under a
            // sustained stream, pace builds to three times their own duration so they take at
            // most a quarter of the time and the inbox keeps the rest.
            try? await Task.sleep(for: max(.milliseconds(250), lastBuild * 3))
            let sources = sourcesChanged.exchange(false, ordering: .relaxed)
            let started = ContinuousClock.now
            do {
                try rebuild(sourcesChanged: sources, allDiscussions: sources || fromCommand)
                lastBuild = ContinuousClock.now - started
            } catch {
                // The old site stays live; the writer sees what to fix.
                logger.error("build failed, still serving the previous site: \(error)")
            }
        }
    }

    func digestLoop() async {
        var lastPrune = Date.distantPast
        while !Task.isCancelled {
            do {
                if case .sent(let items, let recipient) = try await digest.sendIfDue() {
                    logger.info("digest of \(items) items sent to \(recipient)")
                }
                if Date().timeIntervalSince(lastPrune) > 86_400 {
                    try store.pruneReceivedActivities(before: Date().addingTimeInterval(-30 * 86_400))
                    lastPrune = Date()
                }
            } catch {
                logger.warning("digest: \(error)")
            }
            try? await Task.sleep(for: .seconds(min(60, config.digest.interval)))
        }
    }
}
