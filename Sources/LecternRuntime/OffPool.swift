import Parallel

/// Runs blocking work (a build, a long write, a lock wait) on a thread of its own, so none of
/// Swift's cooperative threads — which serve every request — waits on it.
public enum OffPool {
    public static func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            NamedThread.start("lectern-block") { continuation.resume(with: Result { try work() }) }
        }
    }
}
