import Foundation
import Synchronization

/// Maps an array over all cores, keeping order; the first error (by index) wins so that error
/// messages are the same from run to run.
///
/// The work runs on threads started for it, not on Dispatch's global queues: on Linux those
/// queues are also where Swift concurrency runs the server's tasks, and a build or a signing
/// batch there would hold up every request while it lasts.
public enum ParallelMap {
    /// Read once: Foundation reads the cgroup's CPU quota and set from /sys on every call
    /// (0.3 ms of each one-post rebuild, which maps several times).
    static let cores = ProcessInfo.processInfo.activeProcessorCount

    public static func map<T, R>(_ items: [T], _ transform: (T) throws -> R) throws -> [R] {
        if items.count < 2 { return try items.map(transform) }
        let results = UnsafeMutableBufferPointer<Result<R, any Error>?>.allocate(capacity: items.count)
        results.initialize(repeating: nil)
        defer { results.deinitialize(); results.deallocate() }
        let workers = min(cores, items.count)
        withoutActuallyEscaping(transform) { transform in
            // Each index is claimed by exactly one thread, so no two threads touch the same slot;
            // every thread is joined before this scope ends.
            nonisolated(unsafe) let slots = results
            nonisolated(unsafe) let work = transform
            nonisolated(unsafe) let items = items
            let claims = Claims()
            let drain: @Sendable () -> Void = {
                while case let index = claims.next(), index < items.count {
                    slots[index] = Result { try work(items[index]) }
                }
            }
            // The threads reach the work through a box emptied once they are done: a finished
            // Thread can still hold its block, which must not keep `transform` past this scope.
            let job = Job(drain)
            let finished = DispatchSemaphore(value: 0)
            for _ in 1..<workers {
                NamedThread.start("lectern-map") {
                    job.run()
                    finished.signal()
                }
            }
            drain()
            for _ in 1..<workers { finished.wait() }
            job.clear()
        }
        return try results.map { try $0!.get() }
    }

    /// Runs `first` and `second` at the same time (one of them on a thread of its own) and
    /// returns both results; when both throw, `first`'s error wins.
    public static func both<A, B>(_ first: () throws -> A, _ second: () throws -> B) throws -> (A, B) {
        let results = try map([true, false]) { isFirst -> Either<A, B> in isFirst ? .first(try first()) : .second(try second()) }
        guard case .first(let a) = results[0], case .second(let b) = results[1] else { preconditionFailure("map keeps order") }
        return (a, b)
    }

    /// The same for a transform that cannot fail.
    public static func map<T, R>(_ items: [T], _ transform: (T) -> R) -> [R] {
        // A non-throwing transform yields no error for the throwing version to report.
        (try? map(items, { item throws -> R in transform(item) })) ?? items.map(transform)
    }
}

private enum Either<A, B> { case first(A), second(B) }

/// The work of one `map`, cleared before `map` returns.
private final class Job: Sendable {
    private let work: Mutex<(@Sendable () -> Void)?>
    init(_ work: @escaping @Sendable () -> Void) { self.work = Mutex(work) }
    func run() { work.withLock { $0 }?() }
    func clear() { work.withLock { $0 = nil } }
}

/// Hands out indices 0, 1, 2, … to whichever thread asks next.
private final class Claims: Sendable {
    private let counter = Atomic<Int>(0)
    func next() -> Int { counter.add(1, ordering: .relaxed).oldValue }
}
