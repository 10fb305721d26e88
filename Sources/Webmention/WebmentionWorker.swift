import Foundation
import Interactions
import Logging
import Storage

/// Verifies queued webmentions in arrival order, on a lane of its own beside the inbox worker
/// (woken when the endpoint queues one, and every 30 s): a slow source delays only other
/// webmentions, never an activity. Up to `maximumConcurrent` sources are read at once, at most
/// one per site (`Webmentions.webmentionSite`), so a site whose pages stall holds up only itself. A
/// source that cannot be reached is tried again with growing delays (1 min, 2, 4, 8), then
/// dropped; those retries share one slot, so sources that stalled before never fill the lane a
/// new webmention is verified in.
public struct WebmentionWorker: Sendable {
    public let queue: Webmentions
    /// The verifier as the configuration says now (asked once per pass).
    public let verifier: @Sendable () -> WebmentionVerifier
    public let signal: QueueSignal
    /// Called with the posts whose discussion changed, as each source that changed any is verified.
    public let onChange: @Sendable (Set<String>) async -> Void
    let logger: Logger

    public init(queue: Webmentions, verifier: @escaping @Sendable () -> WebmentionVerifier, signal: QueueSignal,
                logger: Logger = Logger(label: "lectern.webmention"), onChange: @escaping @Sendable (Set<String>) async -> Void) {
        (self.queue, self.verifier, self.signal, self.logger, self.onChange) = (queue, verifier, signal, logger, onChange)
    }

    public func run() async {
        let fullDisk = FullDiskBackoff("webmentions", folder: queue.databaseFolder, logger: logger)
        while !Task.isCancelled {
            // A full disk is waited out here: the mention due now would be tried 20 times a second.
            guard await fullDisk.pass({ _ = try await drain() }, otherwise: { logger.error("webmention queue: \($0)") }) else { continue }
            var wait: Double = 30
            do { wait = try queue.nextWebmentionDue().map { max(0.05, min(30, $0.timeIntervalSinceNow)) } ?? 30 } catch {
                logger.error("reading the webmention queue failed (trying again in 30 s): \(error)")
            }
            await signal.wait(upTo: .milliseconds(Int(wait * 1000)))
        }
    }

    /// Sources read at once.
    public static let maximumConcurrent = 8
    /// Of those, sources tried before (they failed, most often by stalling).
    public static let maximumRetriesConcurrent = 1

    /// What a pass waits for: a source read, or a webmention queued meanwhile.
    private enum Event: Sendable {
        case verified(QueuedWebmention, Result<InboxProcessor.Effects, any Error>)
        case queued
    }

    /// Verifies everything due (up to `maximumConcurrent` at once, one per site), and what is
    /// queued while it runs: a webmention that arrives while others' sources stall starts at once
    /// in a free slot, not when one of them ends. Returns the outcomes, in the order they
    /// finished; the posts whose discussion changed are handed on as each source is verified.
    /// Cancelled, it starts no new source and returns once those being read are done (each
    /// within the verifier's fetch timeout).
    @discardableResult
    public func drain(now: @Sendable () -> Date = Date.init) async throws -> [InboxOutcome] {
        var outcomes: [InboxOutcome] = []
        let verifier = verifier()
        let clock = now
        try await withThrowingTaskGroup(of: Event.self) { group in
            var running = Set<String>()  // sites being read
            var retrying = 0  // of those, sources tried before
            var listening = false  // a child waits for the endpoint's signal
            func start() throws {
                guard !Task.isCancelled, running.count < Self.maximumConcurrent else { return }
                for mention in try queue.dueWebmentions(limit: 200, now: clock())
                where running.count < Self.maximumConcurrent && !Task.isCancelled
                    && (mention.attempts == 0 || retrying < Self.maximumRetriesConcurrent) && running.insert(mention.site).inserted {
                    if mention.attempts > 0 { retrying += 1 }
                    let time = clock()
                    group.addTask {
                        do { return .verified(mention, .success(try await verifier.verify(mention, now: time))) } catch {
                            return .verified(mention, .failure(error))
                        }
                    }
                }
                if !running.isEmpty, !listening {
                    listening = true
                    group.addTask { [signal] in
                        _ = await signal.wait(upTo: .seconds(30))
                        return .queued
                    }
                }
            }
            try start()
            while !running.isEmpty, let event = try await group.next() {
                guard case .verified(let mention, let result) = event else {
                    listening = false
                    try start()
                    continue
                }
                running.remove(mention.site)
                if mention.attempts > 0 { retrying -= 1 }
                switch result {
                case .success(let effects):
                    outcomes.append(effects.outcome)
                    logger.info("webmention \(mention.source) → \(mention.target): \(effects.outcome.kind.rawValue) \(effects.outcome.reason)")
                    try await queue.completeWebmention(seq: mention.seq)
                    if !effects.changedPosts.isEmpty { await onChange(effects.changedPosts) }
                case .failure(let error):
                    let delay = 60 * pow(2, Double(mention.attempts))
                    logger.notice("webmention \(mention.source) → \(mention.target) (attempt \(mention.attempts + 1)), again in \(Int(delay)) s: \(error)")
                    try await queue.failWebmention(seq: mention.seq, error: "\(error)", retryAt: clock().addingTimeInterval(delay))
                }
                try start()
            }
            group.cancelAll()  // the child waiting for the signal, if any
        }
        return outcomes
    }
}
