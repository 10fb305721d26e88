import ActivityPub
import Delivery
import Foundation
import HTTPSignatures
import Interactions
import Logging
import ServiceLifecycle
import Storage

/// Applies what the inbox accepted, as the configuration says now; tells `RebuildService` which
/// posts' discussions changed.
public struct InboxService: Service {
    public let worker: InboxWorker

    public init(blog: Blog, signal: QueueSignal, site: RebuildService) {
        var logger = blog.logger
        logger[metadataKey: "component"] = "inbox"
        worker = InboxWorker(queue: blog.store.inbox, processor: { blog.inboxProcessor() }, signal: signal, logger: logger,
                             observe: { [metrics = blog.metrics] in metrics.inbox($0) }) { changed in
            site.changedPosts.add(changed)
            site.wake.signal()
        }
    }

    public func run() async throws {
        await cancelWhenGracefulShutdown { await worker.run() }
    }
}

/// Sends the delivery queue with the worker the configuration and keys say now. While the disk
/// is full, rows cannot be leased: they stay queued, and the service waits longer each time
/// (`FullDiskBackoff`) instead of trying 20 times a second.
public struct DeliveryService: Service {
    public let blog: Blog
    let fullDisk: FullDiskBackoff

    public init(blog: Blog) {
        self.blog = blog
        fullDisk = FullDiskBackoff("deliveries", folder: blog.store.databaseFolder, logger: blog.logger)
    }

    public func run() async throws {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                let worker = blog.delivery
                var report = await worker.runOnce()
                if report.unavailable == nil { report.add(await blog.webmentionSender().runOnce()) }
                if let reason = report.unavailable {
                    blog.logger.error("deliveries wait: \(reason)")
                    await blog.deliverySignal.wait(upTo: .seconds(60))
                    continue
                }
                blog.metrics.deliveries(report)
                if let reason = report.diskFull {
                    fullDisk.noRoom(reason)
                    await fullDisk.wait()
                    continue
                }
                fullDisk.succeeded()
                if report.attempts > 0 {
                    blog.logger.info("deliveries: \(report.delivered) delivered, \(report.retrying) to retry, \(report.failed) failed")
                }
                let wait: Double
                do {
                    wait = try blog.store.deliveries.nextDeliveryDue().map { max(0.05, min(60, $0.timeIntervalSinceNow)) } ?? 60
                } catch {
                    blog.logger.error("reading the delivery queue failed: \(error)")
                    wait = 5
                }
                await blog.deliverySignal.wait(upTo: .milliseconds(Int(wait * 1000)))
            }
        }
    }
}

/// The owner's digest, at most once per `digest.interval`, only when something is new.
public struct DigestService: Service {
    public let blog: Blog

    public init(blog: Blog) { self.blog = blog }

    public func run() async throws {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                do {
                    if case .sent(let items, let recipient) = try await blog.digest().sendIfDue() {
                        blog.logger.info("digest of \(items) items sent to \(recipient)")
                    }
                } catch {
                    blog.logger.warning("digest: \(error)")
                }
                try? await Task.sleep(for: .seconds(min(60, blog.config.digest.interval)))
            }
        }
    }
}

/// Housekeeping: every 10 seconds the inbox's refusal counts are written and the heap's free
/// pages given back (`ProcessHeap`); every hour, received
/// activity ids older than 30 days, replay fingerprints of expired signatures, signature
/// standards learned more than 7 days ago and deliveries older than `delivery.keepDelivered`
/// are forgotten, and replies that waited a day for their parent are settled.
public struct MaintenanceService: Service {
    public let blog: Blog
    /// Tells the site lane which posts' discussions changed (settled replies).
    let changed: @Sendable (Set<String>) -> Void

    public init(blog: Blog, changed: @escaping @Sendable (Set<String>) -> Void = { _ in }) {
        self.blog = blog
        self.changed = changed
    }

    public func run() async throws {
        await cancelWhenGracefulShutdown {
            var lastHourly = ContinuousClock.now - .seconds(3600)
            // Every 10 s is slow enough to go on trying while the disk is full; it is said once a minute.
            let fullDisk = FullDiskBackoff("maintenance", folder: blog.store.databaseFolder, logger: blog.logger)
            while !Task.isCancelled {
                do {
                    try blog.inboxCounter.flush(to: blog.store.inboxCounts)
                    fullDisk.succeeded()
                } catch where fullDisk.failed(error) {
                } catch {
                    blog.logger.warning("writing inbox counts: \(error)")
                }
                // A walk of the heap: off the cooperative pool.
                try? await OffPool.run { ProcessHeap.returnFreePages() }
                if ContinuousClock.now - lastHourly >= .seconds(3600) {
                    lastHourly = .now
                    await hourly()
                }
                try? await Task.sleep(for: .seconds(10))
            }
            // The counts since the last flush, at shutdown: a failed write is said, not swallowed.
            do { try blog.inboxCounter.flush(to: blog.store.inboxCounts) } catch {
                blog.logger.warning("could not record the inbox's last counts at shutdown: \(error)")
            }
        }
    }

    func hourly() async {
        do {
            let pruned = try await OffPool.run { [store = blog.store, keep = blog.config.delivery.keepDelivered] in
                try store.inbox.pruneReceivedActivities(before: Date().addingTimeInterval(-30 * 86_400))
                try store.inbox.pruneSeenSignatures()
                try store.comments.pruneTombstones()
                try store.deliveries.pruneSignatureMemory(before: Date().addingTimeInterval(-SignatureKnock.defaultMemory))
                // An address never confirmed is forgotten after a week; mails sent, after 30 days.
                try store.subscribers.forgetUnconfirmed(before: Date().addingTimeInterval(-7 * 86_400))
                try store.mails.pruneFinished(before: Date().addingTimeInterval(-30 * 86_400))
                return try store.deliveries.pruneDelivered(before: Date().addingTimeInterval(-keep))
            }
            if pruned > 0 { blog.logger.info("maintenance: forgot \(pruned) delivered rows older than delivery.keepDelivered") }
            let settled = try await blog.inboxProcessor().settlePendingReplies()
            if !settled.posts.isEmpty { changed(settled.posts) }
            if !settled.outcomes.isEmpty {
                try blog.store.inboxCounts.countInboxOutcomes(Dictionary(settled.outcomes.map { ($0, 1) }, uniquingKeysWith: +))
            }
        } catch {
            blog.logger.warning("maintenance: \(error)")
        }
    }
}

/// Checks the inbox requests held while their signing key could not be had (`HeldInbox`) when
/// they are due, through the gate as the settings are now; wakes the inbox worker for what
/// verified.
public struct HeldInboxService: Service {
    public let blog: Blog
    /// Signalled when the gate holds a request.
    let signal: QueueSignal
    let gate: @Sendable () -> InboxGate
    let queued: @Sendable () -> Void

    public init(blog: Blog, signal: QueueSignal, gate: @escaping @Sendable () -> InboxGate, queued: @escaping @Sendable () -> Void) {
        (self.blog, self.signal, self.gate, self.queued) = (blog, signal, gate, queued)
    }

    public func run() async throws {
        await cancelWhenGracefulShutdown {
            let held = HeldInbox(queue: blog.store.heldInbound)
            while !Task.isCancelled {
                var wait: Double = 60
                do {
                    let report = try await held.checkDue(gate: gate())
                    if report.queued > 0 { queued() }
                    if report.queued + report.settled > 0 {
                        blog.logger.info("held inbox requests: \(report.queued) verified and queued, \(report.settled) settled, \(report.waiting) still waiting")
                    }
                    wait = try blog.store.heldInbound.nextHeldInboundDue().map { max(1, min(60, $0.timeIntervalSinceNow)) } ?? 60
                } catch {
                    blog.logger.warning("held inbox requests: \(error)")
                }
                _ = await signal.wait(upTo: .milliseconds(Int(wait * 1000)))
            }
        }
    }
}
