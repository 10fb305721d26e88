import Foundation
import Logging
import Store

/// Verifies queued webmentions in arrival order, on a lane of its own beside the inbox worker
/// (woken when the endpoint queues one, and every 30 s): a slow source delays only other
/// webmentions, never an activity. A source that cannot be reached is tried again with growing
/// delays (1 min, 2, 4, 8), then dropped.
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
        while !Task.isCancelled {
            do { _ = try await drain() } catch { logger.error("webmention queue: \(error)") }
            let wait = (try? store.nextWebmentionDue()).flatMap { $0 }.map { max(0.05, min(30, $0.timeIntervalSinceNow)) } ?? 30
            await signal.wait(upTo: .milliseconds(Int(wait * 1000)))
        }
    }

    /// Verifies everything due; returns the outcomes, in order.
    @discardableResult
    public func drain(now: @Sendable () -> Date = Date.init) async throws -> [InboxOutcome] {
        var outcomes: [InboxOutcome] = []
        var changed = Set<String>()
        let verifier = verifier()
        while !Task.isCancelled {
            let batch = try store.dueWebmentions(limit: 20, now: now())
            if batch.isEmpty { break }
            for mention in batch {
                do {
                    let effects = try await verifier.verify(mention, now: now())
                    changed.formUnion(effects.changedPosts)
                    outcomes.append(effects.outcome)
                    logger.info("webmention \(mention.source) → \(mention.target): \(effects.outcome.kind.rawValue) \(effects.outcome.reason)")
                    try await store.completeWebmention(seq: mention.seq)
                } catch {
                    let delay = 60 * pow(2, Double(mention.attempts))
                    logger.notice("webmention \(mention.source) → \(mention.target) (attempt \(mention.attempts + 1)), again in \(Int(delay)) s: \(error)")
                    try await store.failWebmention(seq: mention.seq, error: "\(error)", retryAt: now().addingTimeInterval(delay))
                }
            }
        }
        if !changed.isEmpty { await onChange(changed) }
        return outcomes
    }
}
