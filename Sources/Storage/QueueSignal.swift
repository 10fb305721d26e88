import Foundation
import Synchronization

/// Wakes a worker that sleeps between passes over one of the store's queues: whoever adds
/// rows calls `signal()`; the worker calls `wait(upTo:)`, which returns at once if signalled
/// since its last wait. Several signals while it works make one wake-up.
public final class QueueSignal: Sendable {
    private let state = Mutex<(pending: Bool, waiter: CheckedContinuation<Void, Never>?)>((false, nil))

    public init() {}

    public func signal() {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            if let waiter = state.waiter {
                state.waiter = nil
                return waiter
            }
            state.pending = true
            return nil
        }
        waiter?.resume()
    }

    /// Returns when signalled (true), after `timeout` or on cancellation (false).
    @discardableResult
    public func wait(upTo timeout: Duration) async -> Bool {
        await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                await withCheckedContinuation { continuation in
                    let resumeNow = self.state.withLock { state -> Bool in
                        if state.pending { state.pending = false; return true }
                        state.waiter = continuation
                        return false
                    }
                    if resumeNow { continuation.resume() }
                }
                return true
            }
            group.addTask {
                try? await Task.sleep(for: timeout)
                return false
            }
            let signalled = await group.next() ?? false
            group.cancelAll()
            // If the timer won, our continuation is still parked: release it without
            // touching `pending`, which may hold a signal that arrived meanwhile.
            let parked = self.state.withLock { state -> CheckedContinuation<Void, Never>? in
                defer { state.waiter = nil }
                return state.waiter
            }
            parked?.resume()
            return signalled
        }
    }
}
