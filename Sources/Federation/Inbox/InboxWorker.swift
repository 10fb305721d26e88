import ActivityStreams
import Foundation
import Logging
import Store

/// Applies queued inbox activities in arrival order, right after the inbox accepts them (it
/// signals) and again at start for anything a previous run left. A failure (a remote object
/// that could not be fetched, say) is retried with growing delays, then dropped.
public struct InboxWorker: Sendable {
    public let store: Store
    /// The processor as the configuration says now (asked once per pass: settings can change).
    public let processor: @Sendable () -> InboxProcessor
    public let signal: QueueSignal
    /// Called with the posts whose discussion changed, after each pass that changed any.
    public let onChange: @Sendable (Set<String>) async -> Void
    let logger: Logger
    /// Told of each activity's outcome (the metrics).
    let observe: @Sendable (InboxOutcome) -> Void

    public init(store: Store, processor: @escaping @Sendable () -> InboxProcessor, signal: QueueSignal,
                logger: Logger = Logger(label: "lectern.inbox"), observe: @escaping @Sendable (InboxOutcome) -> Void = { _ in },
                onChange: @escaping @Sendable (Set<String>) async -> Void) {
        self.logger = logger
        self.observe = observe
        self.store = store
        self.processor = processor
        self.signal = signal
        self.onChange = onChange
    }

    public func run() async {
        while !Task.isCancelled {
            do { _ = try await drain() } catch { logger.error("inbox queue: \(error)") }
            await signal.wait(upTo: .seconds(30))
        }
    }

    /// Processes everything due; returns how many activities were applied. Each activity's
    /// outcome (what it did, or why nothing) is logged and counted, with the batch's completion.
    /// Its writes suspend instead of waiting on a thread: the worker shares the cooperative pool
    /// with the requests, and a thread held while the writer commits was one of two.
    @discardableResult
    public func drain(now: @Sendable () -> Date = Date.init) async throws -> Int {
        var applied = 0
        var changed = Set<String>()
        let processor = processor()
        // Cancelled (the server stops): the batch in hand is finished and recorded, no other begun.
        while !Task.isCancelled {
            let batch = try store.dueInbound(limit: 100, now: now())
            if batch.isEmpty { break }
            // Effects are idempotent (a comment, follow or reaction is stored once), so clearing
            // the batch's rows together after applying them is safe if the process dies between.
            var done: [Int64] = []
            var counts: [InboxOutcome: Int] = [:]
            var failure: (any Error)?
            for item in batch {
                do {
                    let effects = try await processor.apply(json: item.json, signedBy: item.actorID, now: now())
                    changed.formUnion(effects.changedPosts)
                    counts[effects.outcome, default: 0] += 1
                    observe(effects.outcome)
                    done.append(item.seq)
                    applied += 1
                    logger.info("\(item.activityID) from \(item.actorID): \(effects.outcome.kind.rawValue) \(effects.outcome.reason)")
                } catch is DecodingError {
                    counts[InboxOutcome(.ignored, "undecodable"), default: 0] += 1
                    observe(InboxOutcome(.ignored, "undecodable"))
                    done.append(item.seq)
                    logger.notice("\(item.activityID) from \(item.actorID): ignored, not an ActivityStreams document")
                } catch {
                    let delay = min(3600, 30 * pow(2, Double(item.attempts)))
                    logger.warning("could not apply \(item.activityID) (attempt \(item.attempts + 1)), trying again in \(Int(delay)) s: \(error)")
                    do { try await store.failInbound(seq: item.seq, error: "\(error)", retryAt: now().addingTimeInterval(delay)) } catch {
                        failure = error
                        break
                    }
                }
            }
            do { try await store.completeInbound(seqs: done, counts: counts, now: now()) } catch {
                // They stay queued and are applied again: harmless, effects are idempotent.
                logger.error("could not clear \(done.count) applied inbox activities: \(error)")
            }
            if let failure { throw failure }
        }
        if !changed.isEmpty { await onChange(changed) }
        return applied
    }
}
