import ActivityPub
import BlogModel
import Delivery
import Foundation
import OutboundHTTP
import HTTPSignatures
import Interactions
import LecternCrypto
import Logging
import Site
import Storage
import Synchronization

/// One blog, opened once: its folder, configuration, database, keys, ActivityPub face and
/// delivery worker. `lectern serve` and every CLI command open a site this way, so what a
/// command changes is what the running server serves (see `ChangeKind` for how it hears).
///
/// ```swift
/// let blog = try Blog.open(root: URL(fileURLWithPath: "mysite"))
/// try blog.build()
/// let outcome = try blog.publish()          // queues Create/Update/Delete for what changed
/// ```
public final class Blog: Sendable {
    public struct Options: Sendable {
        public var includeDrafts = false
        /// Build posts dated in the future as if their date had come (a preview).
        public var includeFuture = false
        /// A preview (drafts or future posts shown): built into `preview/`, never `public/`, and
        /// left out of the search index, so nothing a preview shows reaches the live site.
        public var isPreview: Bool { includeDrafts || includeFuture }
        /// How long a database write waits for another process's lock.
        public var busyTimeout: TimeInterval = 5
        /// `.single` for a command that uses the database one thing at a time (see `Store.Connections`).
        public var connections = Store.Connections.pool
        public var logger = Logger(label: "lectern")
        /// Where the blog's counters go (nowhere unless an admin listener exports them).
        public var metrics = BlogMetrics()
        /// Read the `replies` collections of the threads under the posts (`ThreadBackfillService`).
        /// Always on for a server; the tests of other things turn it off, so that no fetch of it is
        /// under way when their fake servers stop.
        public var readsThreads = true

        public init() {}
    }

    public let root: URL
    public let options: Options
    public let store: Store
    public let builder: SiteBuilder
    public let keys: KeyStore
    /// Wakes this process's delivery worker (whichever is current) when activities are queued.
    public let deliverySignal = QueueSignal()
    /// Wakes the newsletter's sender (a confirmation or a post's mails were queued).
    public let mailSignal = QueueSignal()
    /// What the inbox refused, by reason, until `MaintenanceService` writes it to the store.
    public let inboxCounter: InboxCounter
    public var metrics: BlogMetrics { options.metrics }
    private let state: Mutex<State>
    /// The search results page of the current build (see `searchPage`).
    let searchPages = Mutex<(stamp: String, page: SearchPage)?>(nil)

    /// What depends on `lectern.yml` and the keys, replaced whole when they change.
    struct State: Sendable {
        var config: SiteConfig
        var activityPub: BlogActor
        var delivery: DeliveryWorker
        var configStamp: String
    }

    public var logger: Logger { options.logger }
    public var config: SiteConfig { state.withLock { $0.config } }
    public var activityPub: BlogActor { state.withLock { $0.activityPub } }
    public var delivery: DeliveryWorker { state.withLock { $0.delivery } }
    public var dataFolder: URL { root.appendingPathComponent("data") }

    /// The blog's outbox: activities go into the store's queue and this process's worker wakes;
    /// a running server hears of them through `ChangeKind.deliveries` (see `queued()`).
    public var outbox: Outbox {
        let signal = deliverySignal
        return Outbox(queue: store.deliveries, proofs: activityPub.proofs) { signal.signal() }
    }

    /// Opens the site at `root`: reads `lectern.yml`, opens (and migrates) `data/lectern.sqlite`,
    /// makes the keys if there are none (they are read when first used). Builds nothing.
    public static func open(root: URL, options: Options = Options()) throws -> Blog {
        let root = root.standardizedFileURL
        // The configuration first: a folder that is not a site (a mistyped `-s`) gets the error,
        // not a `data/lectern.sqlite` made in it.
        let settings = try Settings.read(root)
        // Before the database opens: a `data/` linked out of the site would put it elsewhere.
        try SiteFolders.checkContained(root: root)
        let store = try Store(path: root.appendingPathComponent("data/lectern.sqlite").path, busyTimeout: options.busyTimeout,
                              connections: options.connections)
        return try Blog(root: root, options: options, store: store, settings: settings)
    }

    /// `lectern.yml` as read, with its stamp taken just before.
    struct Settings {
        let config: SiteConfig
        let stamp: String

        static func read(_ root: URL) throws -> Settings {
            let stamp = configStamp(root)
            return Settings(config: try SiteConfig.load(from: root), stamp: stamp)
        }
    }

    init(root: URL, options: Options, store: Store, settings: Settings) throws {
        self.root = root
        self.options = options
        self.store = store
        inboxCounter = InboxCounter { [metrics = options.metrics] in metrics.inbox($0) }
        if options.isPreview { try SiteBuilder.makePreviewFolder(root: root) }
        builder = SiteBuilder(root: root, publicFolder: options.isPreview ? SiteBuilder.previewFolder(root: root) : nil)
        keys = KeyStore(folder: root.appendingPathComponent("data/keys"))
        let signal = deliverySignal
        state = Mutex(try Self.makeState(settings, store: store, keys: keys, signal: signal, logger: options.logger))
    }

    private static func makeState(_ settings: Settings, store: Store, keys: KeyStore, signal: QueueSignal, logger: Logger) throws -> State {
        let activityPub = try BlogActor(config: settings.config, store: store, keys: keys, render: MarkdownRenderer.federatedBody)
        return State(config: settings.config, activityPub: activityPub,
                     delivery: deliveryWorker(activityPub, keys: keys, signal: signal, logger: logger), configStamp: settings.stamp)
    }

    /// Reads `lectern.yml` and the keys again (the configuration was edited, or the keys rotated).
    /// An invalid file, or a key that cannot be read, throws and leaves everything as it was.
    public func reloadSettings() throws {
        let fresh = try Self.makeState(Settings.read(root), store: store, keys: keys, signal: deliverySignal, logger: logger)
        try fresh.activityPub.readKeys()
        state.withLock { $0 = fresh }
    }

    /// Whether `lectern.yml` changed since it was last read (size, times, inode).
    public var settingsChanged: Bool { state.withLock { $0.configStamp } != Self.configStamp(root) }

    /// One `stat`: Foundation's `attributesOfItem` also looked up the owner's and group's names
    /// (0.7 ms of every command that opens the blog).
    static func configStamp(_ root: URL) -> String {
        FileStamp(path: root.appendingPathComponent(SiteConfig.fileName).path)?.text ?? "-"
    }

    /// The delivery worker as `lectern.yml` configures it, signing as the blog's actor.
    static func deliveryWorker(_ activityPub: BlogActor, keys: KeyStore, signal: QueueSignal, logger: Logger) -> DeliveryWorker {
        let config = activityPub.config
        var settings = DeliveryWorker.Settings(userAgent: BlogActor.userAgent(config))
        settings.concurrency = config.delivery.concurrency
        settings.perHost = config.delivery.perHost
        settings.signatures = SignatureKnock(preference: SignaturePreference(rawValue: config.delivery.signatures.rawValue) ?? .auto)
        let synchronization = FollowersSynchronizationHeaders(followers: activityPub.store.followers, collection: activityPub.urls.followers)
        settings.extraHeaders = { try synchronization.headers(for: $0) }
        settings.allowPrivateAddresses = config.federation.allowPrivateAddresses
        settings.requestTimeout = .milliseconds(Int(config.delivery.timeout * 1000))
        settings.connectTimeout = min(settings.connectTimeout, settings.requestTimeout)
        // A lease only has to outlast one request (it is renewed as each starts).
        settings.lease = max(10, 2 * config.delivery.timeout)
        settings.policy.firstDelay = config.delivery.firstRetry
        var logger = logger
        logger[metadataKey: "component"] = "delivery"
        let signingKey = CurrentActorKey(site: activityPub, keys: keys, logger: logger)
        return DeliveryWorker(queue: activityPub.store.deliveries, signingKey: { try signingKey.current() }, settings: settings, signal: signal,
                              logger: logger)
    }

    /// Tells whoever serves this blog that something changed (another process polls; this one
    /// is woken where it matters).
    public func changed(_ kinds: Set<ChangeKind>) throws {
        try store.changes.recordChange(kinds)
        if kinds.contains(.deliveries) { deliverySignal.signal() }
    }

    /// The inbox's processor as the configuration says now (moderation, owner, addresses).
    public func inboxProcessor() -> InboxProcessor {
        let activityPub = activityPub
        return InboxProcessor(store: store, config: activityPub.config, outbox: outbox, fetcher: activityPub.remoteKeys.fetcher,
                              proofs: ProofCheck(keys: activityPub.remoteKeys))
    }

    public func publisher() -> Publisher { Publisher(site: activityPub, outbox: outbox) }

    /// The owner's digest, as the configuration says now.
    public func digest() -> CommentDigest {
        let activityPub = activityPub
        return CommentDigest(site: activityPub, outbox: outbox,
                             owner: activityPub.config.owner == nil ? nil
                                 : BlogOwnerResolver(fetcher: activityPub.remoteKeys.fetcher, actors: store.actors, blocks: store.blocks, values: store.values))
    }
}
