import GRDB
import Synchronization

/// Writes that arrive while the writer is busy share its next transaction: one `BEGIN`, one
/// `COMMIT` and one append to the log for all of them, instead of one each. Every caller
/// still returns only after the commit that holds its write, so what it answers (the inbox's
/// 202) is as durable as before.
///
/// The inbox's accepted activities go through it: with a transaction each, the writer (one
/// per database) was the request's longest wait, and the server used 1.4 of its 2 cores while
/// 64 connections waited on it (`bench/inbox`).
final class GroupCommit<Item: Sendable, Result: Sendable>: Sendable {
    typealias Apply = @Sendable (Database, Item) throws -> Result

    private struct Waiting: Sendable {
        let item: Item
        let continuation: CheckedContinuation<Result, any Error>
    }

    /// A transaction holds the writer while it runs: a flood of writes is cut into transactions
    /// of at most this many, so a write from elsewhere waits for one of them, not all.
    static var maximumBatch: Int { 256 }

    private let state = Mutex<(waiting: [Waiting], writing: Bool)>(([], false))
    private let apply: Apply

    init(_ apply: @escaping Apply) {
        self.apply = apply
    }

    /// `apply(item)`'s result, once the transaction that ran it committed. When that transaction
    /// fails, every write in it fails with the same error (none of them was kept).
    func write(_ item: Item, in store: Store) async throws -> Result {
        try await withCheckedThrowingContinuation { continuation in
            let startWriting = state.withLock { state -> Bool in
                state.waiting.append(Waiting(item: item, continuation: continuation))
                guard !state.writing else { return false }
                state.writing = true
                return true
            }
            // The first to arrive starts a writing task that runs until nobody is waiting.
            if startWriting { Task { await self.writeWhileWaiting(store) } }
        }
    }

    private func writeWhileWaiting(_ store: Store) async {
        while true {
            let batch = state.withLock { state -> [Waiting] in
                let batch = Array(state.waiting.prefix(Self.maximumBatch))
                state.waiting.removeFirst(batch.count)
                if batch.isEmpty { state.writing = false }
                return batch
            }
            guard !batch.isEmpty else { return }
            let apply = apply
            do {
                let results = try await store.writeAsync { db in try batch.map { try apply(db, $0.item) } }
                for (waiting, result) in zip(batch, results) { waiting.continuation.resume(returning: result) }
            } catch {
                for waiting in batch { waiting.continuation.resume(throwing: error) }
            }
        }
    }
}
