import CoreMetrics
import Delivery
import Foundation
import Storage
import Synchronization

/// What the blog counts for its operator (swift-metrics, exported by the admin listener in
/// Prometheus's format): requests by status, inbox outcomes by reason, comments received,
/// deliveries by outcome, build durations; queue depths are read from the store when scraped.
/// Each blog has its own factory (a registry in the server), so two blogs in one process (the
/// tests) never mix their numbers.
public final class BlogMetrics: Sendable {
    public let factory: any MetricsFactory
    private let statusCounters = Mutex<[Int: Counter]>([:])
    private let outcomeCounters = Mutex<[InboxOutcome: Counter]>([:])
    private let deliveryCounters: [String: Counter]
    private let comments: Counter
    private let builds: CoreMetrics.Timer
    private let queueDepth: Gauge
    private let inboxBacklog: Gauge
    private let memory: [String: Gauge]
    private let subscribeCounters: [String: Counter]
    private let mailCounters: [String: Counter]
    private let threadCounters: [String: Counter]
    private let threadReplies: Counter

    public init(factory: any MetricsFactory) {
        self.factory = factory
        deliveryCounters = Dictionary(uniqueKeysWithValues: ["delivered", "retrying", "failed"].map {
            ($0, Counter(label: "lectern_deliveries_total", dimensions: [("outcome", $0)], factory: factory))
        })
        comments = Counter(label: "lectern_comments_received_total", factory: factory)
        builds = CoreMetrics.Timer(label: "lectern_build_duration_seconds", factory: factory)
        queueDepth = Gauge(label: "lectern_delivery_queue_depth", factory: factory)
        inboxBacklog = Gauge(label: "lectern_inbox_backlog", factory: factory)
        subscribeCounters = Dictionary(uniqueKeysWithValues: ["queued", "already", "too_soon", "cap", "invalid", "refused"].map {
            ($0, Counter(label: "lectern_newsletter_subscribe_requests_total", dimensions: [("outcome", $0)], factory: factory))
        })
        mailCounters = Dictionary(uniqueKeysWithValues: ["sent", "retrying", "failed"].map {
            ($0, Counter(label: "lectern_newsletter_mails_total", dimensions: [("outcome", $0)], factory: factory))
        })
        threadCounters = Dictionary(uniqueKeysWithValues: ["read", "budget_spent", "unreadable"].map {
            ($0, Counter(label: "lectern_thread_readings_total", dimensions: [("outcome", $0)], factory: factory))
        })
        threadReplies = Counter(label: "lectern_thread_replies_taken_total", factory: factory)
        memory = Dictionary(uniqueKeysWithValues: ["sqlite", "site"].map {
            ($0, Gauge(label: "lectern_memory_bytes", dimensions: [("held_by", $0)], factory: factory))
        })
    }

    /// Nothing recorded anywhere (commands that do not serve).
    public convenience init() { self.init(factory: NOOPMetricsHandler.instance) }

    /// A request of the subscribe form, by outcome (`queued`, `already`, `too_soon`, `cap`,
    /// `invalid`, `refused`).
    public func subscribeRequest(_ outcome: String) { subscribeCounters[outcome]?.increment() }

    /// A newsletter mail handed to the relay (`sent`), to try again, or given up.
    public func mail(_ outcome: String) { mailCounters[outcome]?.increment() }

    /// A reading of a thread's `replies` collection (`read`, `budget_spent`, `unreadable`), and
    /// the replies it took as comments.
    public func threadReading(_ outcome: String, taken: Int) {
        threadCounters[outcome]?.increment()
        if taken > 0 { threadReplies.increment(by: taken) }
    }

    public func request(status: Int) {
        let counter = statusCounters.withLock { counters in
            if let counter = counters[status] { return counter }
            let counter = Counter(label: "lectern_http_requests_total", dimensions: [("status", String(status))], factory: factory)
            counters[status] = counter
            return counter
        }
        counter.increment()
    }

    public func inbox(_ outcome: InboxOutcome) {
        let counter = outcomeCounters.withLock { counters in
            if let counter = counters[outcome] { return counter }
            let counter = Counter(label: "lectern_inbox_activities_total",
                                  dimensions: [("outcome", outcome.kind.rawValue), ("reason", outcome.reason)], factory: factory)
            counters[outcome] = counter
            return counter
        }
        counter.increment()
        if outcome.kind == .applied && outcome.reason == "comment" { comments.increment() }
    }

    public func deliveries(_ report: DeliveryWorker.Report) {
        deliveryCounters["delivered"]?.increment(by: report.delivered)
        deliveryCounters["retrying"]?.increment(by: report.retrying)
        deliveryCounters["failed"]?.increment(by: report.failed)
    }

    public func build(seconds: Double) { builds.recordNanoseconds(Int64(seconds * 1e9)) }

    /// Reads the queues' depths and what memory is held by (called when metrics are scraped).
    /// `siteBytes`: the served pages kept in memory. The whole heap is not here: measuring it
    /// walks malloc's free lists (`AdminServer`'s `/metrics/heap`).
    public func sample(_ store: Store, siteBytes: Int) throws {
        memory["sqlite"]?.record(Store.sqliteMemoryBytes)
        memory["site"]?.record(siteBytes)
        queueDepth.record(try store.deliveries.deliveryStats().queued)
        inboxBacklog.record(try store.inbox.inboundBacklog())
    }
}
