/// A value computed on a thread of its own from the moment it is made; `value` waits for it.
///
/// For work a caller may need later and can start early: a build reads the last build's parse
/// cache while it stamps the sources, which takes as long and may show nothing needs building.
public final class Background<Value: Sendable>: Sendable {
    private let result = Eventual<Value>()

    /// `name` is the thread's (at most 15 bytes, see `NamedThread`).
    public init(_ name: String, _ work: @escaping @Sendable () -> Value) {
        NamedThread.start(name) { [result] in result.provide(work()) }
    }

    /// The value, once the work is done.
    public var value: Value { result.value }
}
