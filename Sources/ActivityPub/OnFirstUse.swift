import Synchronization

/// A value made the first time it is asked for and kept; a failure is not kept, so the next
/// caller tries again (a key file fixed by hand is read on the next request).
///
/// ```swift
/// let key = OnFirstUse { try KeyFile.load(at: keys.url(named: "actor")) }
/// let signer = CavageSigner(keyId: id, key: try key.value)
/// ```
package final class OnFirstUse<Value: Sendable>: Sendable {
    private let made = Mutex<Value?>(nil)
    private let make: @Sendable () throws -> Value

    package init(_ make: @escaping @Sendable () throws -> Value) {
        self.make = make
    }

    package var value: Value {
        get throws {
            try made.withLock { made in
                if let made { return made }
                let value = try make()
                made = value
                return value
            }
        }
    }
}
