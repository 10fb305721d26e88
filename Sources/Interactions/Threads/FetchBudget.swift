import Foundation
import Synchronization

/// How many documents the blog may fetch a minute for a kind of work that strangers' servers
/// drive (reading threads' reply collections): `perHost` from any one server, `overall` in all.
/// A thread of thousands of replies costs its server at most `perHost` fetches a minute, and the
/// blog at most `overall`, whatever the collections say.
public final class FetchBudget: Sendable {
    public let perHost: Int
    public let overall: Int
    private struct State {
        var window = Date.distantPast
        var used: [String: Int] = [:]
        var total = 0
    }
    private let state = Mutex(State())

    public init(perHost: Int, overall: Int) { (self.perHost, self.overall) = (perHost, overall) }

    /// Takes one fetch from `host`'s share; false when its share or the whole is spent for this minute.
    public func take(_ host: String, now: Date = Date()) -> Bool {
        state.withLock { state in
            if now.timeIntervalSince(state.window) >= 60 { state = State(window: now) }
            guard state.total < overall, state.used[host, default: 0] < perHost else { return false }
            state.used[host, default: 0] += 1
            state.total += 1
            return true
        }
    }

    /// Fetches taken from `host` in the current minute.
    public func used(_ host: String) -> Int { state.withLock { $0.used[host, default: 0] } }
}
