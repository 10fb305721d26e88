import Dispatch
import Foundation

/// Maps an array over all cores, keeping order; the first error (by index) wins so that
/// error messages are the same from run to run.
public enum ParallelMap {
    public static func map<T, R>(_ items: [T], _ transform: (T) throws -> R) throws -> [R] {
        if items.count < 2 { return try items.map(transform) }
        let results = UnsafeMutableBufferPointer<Result<R, any Error>?>.allocate(capacity: items.count)
        results.initialize(repeating: nil)
        defer { results.deinitialize(); results.deallocate() }
        let chunk = max(1, items.count / (ProcessInfo.processInfo.activeProcessorCount * 4))
        let chunks = (items.count + chunk - 1) / chunk
        withoutActuallyEscaping(transform) { transform in
            // Each index is written by exactly one iteration, so no two threads touch the same slot.
            nonisolated(unsafe) let slots = results
            nonisolated(unsafe) let work = transform
            nonisolated(unsafe) let items = items
            DispatchQueue.concurrentPerform(iterations: chunks) { c in
                for index in (c * chunk)..<min(items.count, (c + 1) * chunk) {
                    slots[index] = Result { try work(items[index]) }
                }
            }
        }
        return try results.map { try $0!.get() }
    }

    /// The same for a transform that cannot fail.
    public static func map<T, R>(_ items: [T], _ transform: (T) -> R) -> [R] {
        // A non-throwing transform yields no error for the throwing version to report.
        (try? map(items, { item throws -> R in transform(item) })) ?? items.map(transform)
    }
}
