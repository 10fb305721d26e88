import Foundation
import Synchronization

/// A value one thread provides once and any thread may wait for.
public final class Eventual<Value: Sendable>: Sendable {
    private let stored = Mutex<Value?>(nil)
    private let provided = DispatchSemaphore(value: 0)

    public init() {}

    /// Provides the value; call it once.
    public func provide(_ value: Value) {
        stored.withLock { $0 = value }
        provided.signal()
    }

    /// The value, once provided.
    public var value: Value {
        provided.wait()
        provided.signal()  // for the next reader
        return stored.withLock { $0! }
    }
}
