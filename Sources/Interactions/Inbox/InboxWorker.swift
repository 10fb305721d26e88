import ActivityStreams
import Foundation
import Logging
import Storage

/// Applies queued inbox activities in arrival order, right after the inbox accepts them (it
/// signals) and again at start for anything a previous run left. A failure (a remote object
/// that could not be fetched, say) is retried with growing delays, then dropped. A full disk is
/// no failure of the activity's: the queue waits as it is (`FullDiskBackoff`), no attempt counted.
public struct InboxWorker: Sendable {
    public let queue: InboxQueue
    /// The processor as the configuration says now (asked once per pass: settings can change).
    public let processor: @Sendable () -> InboxProcessor
    public let signal: QueueSignal
    /// Called with the posts whose discussion changed, after each pass that changed any.
    public let onChange: @Sendable (Set<String>) async -> Void
    let logger: Logger
    /// Told of each activity's outcome (the metrics).
    let observe: @Sendable (InboxOutcome) -> Void
    let fullDisk: FullDiskBackoff

    public init(queue: InboxQueue, processor: @escaping @Sendable () -> InboxProcessor, signal: QueueSignal,
                logger: Logger = Logger(label: "lectern.inbox"), observe: @escaping @Sendable (InboxOutcome) -> Void = { _ in },
                onChange: @escaping @Sendable (Set<String>) async -> Void) {
        self.logger = logger
        self.observe = observe
        self.queue = queue
        self.processor = processor
        self.signal = signal
        self.onChange = onChange
        fullDisk = FullDiskBackoff("inbox", folder: queue.databaseFolder, logger: logger)
    }

    public func run() async {
        while !Task.isCancelled {
            // A full disk is waited out here, not on the signal: the inbox answers 503 and queues nothing.
            guard await fullDisk.pass({ _ = try await drain() }, otherwise: { logger.error("inbox queue: \($0)") }) else { continue }
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
        // The posts already changed are reported even when a later batch fails.
        do { try await drainBatches(processor, now: now, applied: &applied, changed: &changed) } catch {
            if !changed.isEmpty { await onChange(changed) }
            throw error
        }
        if !changed.isEmpty { await onChange(changed) }
        return applied
    }

    private func drainBatches(_ processor: InboxProcessor, now: @Sendable () -> Date, applied: inout Int,
                              changed: inout Set<String>) async throws {
        // Cancelled (the server stops): the batch in hand is finished and recorded, no other begun.
        while !Task.isCancelled {
            let batch = try queue.dueInbound(limit: 100, now: now())
            if batch.isEmpty { break }
            // Effects are idempotent (a comment, follow or reaction is stored once), so clearing
            // the batch's rows together after applying them is safe if the process dies between.
            var done: [Int64] = []
            var counts: [InboxOutcome: Int] = [:]
            // Logged and counted once the rows are cleared: a batch that could not be cleared
            // is applied again, and said again, later.
            var outcomes: [(outcome: InboxOutcome, line: Logger.Message, level: Logger.Level)] = []
            var failure: (any Error)?
            var appliedHere = 0
            for item in batch {
                do {
                    let effects = try await processor.apply(json: item.json, signedBy: item.actorID, now: now())
                    changed.formUnion(effects.changedPosts)
                    counts[effects.outcome, default: 0] += 1
                    done.append(item.seq)
                    appliedHere += 1
                    outcomes.append((effects.outcome, "\(item.activityID) from \(item.actorID): \(effects.outcome.kind.rawValue) \(effects.outcome.reason)", .info))
                } catch is DecodingError {
                    counts[InboxOutcome(.ignored, "undecodable"), default: 0] += 1
                    done.append(item.seq)
                    outcomes.append((InboxOutcome(.ignored, "undecodable"),
                                     "\(item.activityID) from \(item.actorID): ignored, not an ActivityStreams document", .notice))
                } catch where StorageFull.recognizes(error) {
                    // The activity is not at fault: left as it is, it is applied once there is room.
                    failure = error
                    break
                } catch {
                    let delay = min(3600, 30 * pow(2, Double(item.attempts)))
                    logger.warning("could not apply \(item.activityID) (attempt \(item.attempts + 1)), trying again in \(Int(delay)) s: \(error)")
                    do { try await queue.failInbound(seq: item.seq, error: "\(error)", retryAt: now().addingTimeInterval(delay)) } catch {
                        failure = error
                        break
                    }
                }
            }
            do { try await queue.completeInbound(seqs: done, counts: counts, now: now()) } catch {
                // They stay queued and are applied again: harmless, effects are idempotent. But not
                // in this pass: the same batch would come back at once, and the loop spun, logging
                // every activity of it each time.
                if !StorageFull.recognizes(error) { logger.error("could not clear \(done.count) applied inbox activities: \(error)") }
                throw error
            }
            applied += appliedHere
            for (outcome, line, level) in outcomes {
                observe(outcome)
                logger.log(level: level, line)
            }
            if let failure { throw failure }
        }
    }
}
