import Foundation
import OutboundHTTP
import Synchronization

/// Open-loop load: each kind fires at its own steady rate whatever the answers' speed (as readers
/// and servers on the internet do), bounded by a cap on its requests in flight, and every answer
/// is timed into `LoadStats`.
struct LoadDriver: Sendable {
    let stats: LoadStats

    /// Runs `action` `rate` times a second until `end`; past `cap` in flight a tick is shed
    /// (counted), or with `waits`, sent once there is room (falling behind the rate instead).
    func steady(_ kind: String, rate: Double, until end: Date, cap: Int, waits: Bool = false,
                _ action: @escaping @Sendable (_ tick: Int) async -> Void) async {
        guard rate > 0 else { return }
        let inFlight = Counter()
        let interval = 1 / rate
        let start = Date()
        await withDiscardingTaskGroup { group in
            var tick = 0
            while Date() < end {
                if waits, inFlight.value >= cap {
                    try? await Task.sleep(for: .milliseconds(10))
                    continue
                }
                if inFlight.value >= cap {
                    stats.recordShed(kind)
                } else {
                    inFlight.add(1)
                    let current = tick
                    group.addTask {
                        await action(current)
                        inFlight.add(-1)
                    }
                }
                tick += 1
                // On schedule, not after each send: a slow answer does not slow the load.
                let due = start.addingTimeInterval(Double(tick) * interval).timeIntervalSinceNow
                if due > 0 { try? await Task.sleep(for: .microseconds(Int(due * 1e6))) }
            }
        }
    }

    /// Sends `request`, times it under `kind`, and returns the answer (nil when there was none).
    @discardableResult
    func timed(_ kind: String, _ request: OutgoingRequest) async -> IncomingResponse? {
        let start = ContinuousClock.now
        do {
            let response = try await Net.perform(request)
            let elapsed = ContinuousClock.now - start
            stats.record(kind, milliseconds: Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15,
                         status: response.status)
            return response
        } catch {
            stats.recordError(kind, error)
            return nil
        }
    }

    /// `count` requests spread evenly over `seconds` (a link-preview stampede: every server that
    /// sees a post in a timeline fetches its page at once).
    func burst(_ kind: String, count: Int, over seconds: Double, _ request: @escaping @Sendable (Int) -> OutgoingRequest) async {
        let start = Date()
        await withDiscardingTaskGroup { group in
            for n in 0..<count {
                let due = start.addingTimeInterval(seconds * Double(n) / Double(count)).timeIntervalSinceNow
                if due > 0 { try? await Task.sleep(for: .microseconds(Int(due * 1e6))) }
                group.addTask { await timed(kind, request(n)) }
            }
        }
    }
}

/// Runs blocking work (a child process to its end) on a thread of its own, never on the
/// cooperative pool.
func onThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try body() }) }.start()
    }
}

/// Requests of one kind in flight.
final class Counter: Sendable {
    private let count = Atomic<Int>(0)
    var value: Int { count.load(ordering: .relaxed) }
    func add(_ n: Int) { count.add(n, ordering: .relaxed) }
}

/// A value shared by the tasks of a run.
final class Locked<Value: Sendable>: Sendable {
    private let mutex: Mutex<Value>
    init(_ value: Value) { mutex = Mutex(value) }
    func withLock<T: Sendable>(_ body: (inout sending Value) -> sending T) -> sending T { mutex.withLock(body) }
}
