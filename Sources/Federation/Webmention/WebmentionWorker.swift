import Foundation
import Logging
import Store

/// Verifies queued webmentions in arrival order, on a lane of its own beside the inbox worker
/// (woken when the endpoint queues one, and every 30 s): a slow source delays only other
/// webmentions, never an activity. Up to `maximumConcurrent` sources are read at once, at most
/// one per site (`Store.webmentionSite`), so a site whose pages stall holds up only itself. A
/// source that cannot be reached is tried again with growing delays (1 min, 2, 4, 8), then dropped.
public struct WebmentionWorker: Sendable {
    public let store: Store
    /// The verifier as the configuration says now (asked once per pass).
    public let verifier: @Sendable () -> WebmentionVerifier
    public let signal: QueueSignal
    /// Called with the posts whose discussion changed, after each pass that changed any.
    public let onChange: @Sendable (Set<String>) async -> Void
    let logger: Logger

    public init(store: Store, verifier: @escaping @Sendable () -> WebmentionVerifier, signal: QueueSignal,
                logger: Logger = Logger(label: "lectern.webmention"), onChange: @escaping @Sendable (Set<String>) async -> Void) {
        (self.store, self.verifier, self.signal, self.logger, self.onChange) = (store, verifier, signal, logger, onChange)
    }

    public func run() async {
        let fullDisk = FullDiskBackoff("webmentions", store: store, logger: logger)
        while !Task.isCancelled {
            // A full disk is waited out here: the mention due now would be tried 20 times a second.
            guard await fullDisk.pass({ _ = try await drain() }, otherwise: { logger.error("webmention queue: \($0)") }) else { continue }
            var wait: Double = 30
            do { wait = try store.nextWebmentionDue().map { max(0.05, min(30, $0.timeIntervalSinceNow)) } ?? 30 } catch {
                logger.error("reading the webmention queue failed (trying again in 30 s): \(error)")
            }
            await signal.wait(upTo: .milliseconds(Int(wait * 1000)))
        }
    }

    /// Sources read at once.
    public static let maximumConcurrent = 4

    /// Verifies everything due (up to `maximumConcurrent` at once, one per site); returns the
    /// outcomes, in the order they finished. Cancelled, it starts no new source and returns once
    /// those being read are done (each within the verifier's fetch timeout).
    @discardableResult
    public func drain(now: @Sendable () -> Date = Date.init) async throws -> [InboxOutcome] {
        var outcomes: [InboxOutcome] = []
        var changed = Set<String>()
        let verifier = verifier()
        let clock = now
        try await withThrowingTaskGroup(of: (QueuedWebmention, Result<InboxProcessor.Effects, any Error>).self) { group in
            var running = Set<String>()  // sites being read
            func start() throws {
                guard !Task.isCancelled, running.count < Self.maximumConcurrent else { return }
                for mention in try store.dueWebmentions(limit: 200, now: clock())
                where running.count < Self.maximumConcurrent && !Task.isCancelled && running.insert(mention.site).inserted {
                    let time = clock()
                    group.addTask {
                        do { return (mention, .success(try await verifier.verify(mention, now: time))) } catch { return (mention, .failure(error)) }
                    }
                }
            }
            try start()
            while let (mention, result) = try await group.next() {
                running.remove(mention.site)
                switch result {
                case .success(let effects):
                    changed.formUnion(effects.changedPosts)
                    outcomes.append(effects.outcome)
                    logger.info("webmention \(mention.source) → \(mention.target): \(effects.outcome.kind.rawValue) \(effects.outcome.reason)")
                    try await store.completeWebmention(seq: mention.seq)
                case .failure(let error):
                    let delay = 60 * pow(2, Double(mention.attempts))
                    logger.notice("webmention \(mention.source) → \(mention.target) (attempt \(mention.attempts + 1)), again in \(Int(delay)) s: \(error)")
                    try await store.failWebmention(seq: mention.seq, error: "\(error)", retryAt: clock().addingTimeInterval(delay))
                }
                try start()
            }
        }
        if !changed.isEmpty { await onChange(changed) }
        return outcomes
    }
}
