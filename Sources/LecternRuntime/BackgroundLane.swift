import CThreadName
import Parallel
import Synchronization

/// Jobs run one at a time, in order, on a thread of its own at a lower scheduling priority than
/// the threads that serve pages: what runs here waits for pages, never the reverse.
///
/// Searches run here (`SearchRoute`). Each on a thread of its own at normal priority, a flood of
/// costly searches held both cores and `GET /` waited up to 1.3 s for one. On one thread they
/// use at most one core, and at nice 10 (a weight of 110 to a normal thread's 1,024) the
/// scheduler runs an event loop that wakes before them. Nothing it runs may wait on the event
/// loops or the cooperative pool. The thread ends when the queue is empty, and a job arriving
/// later starts another: an idle server, or a test process with a hundred servers, holds none.
///
/// ```swift
/// let lane = BackgroundLane(name: "lectern-search", niceness: 10)
/// let html = try await lane.run { try blog.searchPage(query: "swift", page: 1) }
/// ```
public final class BackgroundLane: Sendable {
    private let name: String
    private let niceness: Int32
    private let state = Mutex(State())

    private struct State {
        var jobs: [@Sendable () -> Void] = []
        var threadRunning = false
    }

    /// `name` is the thread's (at most 15 bytes, see `NamedThread`); `niceness` its nice value, 1–19.
    public init(name: String, niceness: Int32) {
        (self.name, self.niceness) = (name, niceness)
    }

    /// Runs `work` on the lane, after the jobs queued before it.
    public func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            submit { continuation.resume(with: Result { try work() }) }
        }
    }

    private func submit(_ job: @escaping @Sendable () -> Void) {
        let start = state.withLock { state in
            state.jobs.append(job)
            defer { state.threadRunning = true }
            return !state.threadRunning
        }
        guard start else { return }
        let niceness = niceness
        NamedThread.start(name) { [self] in
            _ = lectern_lower_current_thread_priority(niceness)
            while let job = next() { job() }
        }
    }

    /// The next job, or nil (and the thread ends) when there is none.
    private func next() -> (@Sendable () -> Void)? {
        state.withLock { state in
            guard !state.jobs.isEmpty else {
                state.threadRunning = false
                return nil
            }
            return state.jobs.removeFirst()
        }
    }
}
