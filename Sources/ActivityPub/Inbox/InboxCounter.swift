import Foundation
import Storage
import Synchronization

/// Counts of what the inbox refused, gathered in memory and written to the store now and then:
/// a flood of bad requests costs no database writes of its own.
public final class InboxCounter: Sendable {
    private let counts = Mutex<[InboxOutcome: Int]>([:])
    /// Told of every outcome as it happens (the metrics).
    private let observer: @Sendable (InboxOutcome) -> Void

    public init(observer: @escaping @Sendable (InboxOutcome) -> Void = { _ in }) { self.observer = observer }

    public func record(_ outcome: InboxOutcome) {
        counts.withLock { $0[outcome, default: 0] += 1 }
        observer(outcome)
    }

    /// Writes what was gathered (kept for the next try if the write fails).
    public func flush(to table: InboxCounts, now: Date = Date()) throws {
        let pending = counts.withLock { counts in defer { counts.removeAll() }; return counts }
        do {
            try table.countInboxOutcomes(pending, on: now)
        } catch {
            counts.withLock { counts in for (outcome, count) in pending { counts[outcome, default: 0] += count } }
            throw error
        }
    }
}
