import Foundation
import Synchronization

/// How much outbound traffic strangers can cause through what they make the blog fetch: key
/// lookups (every signed request with an unknown `keyId` costs a GET to the host it names) and
/// relayed activities checked at their origin (`RelayedActivity`). Without a bound, a flood of
/// requests naming fresh hosts (or one victim's) turns the blog into a crawler or a weapon.
///
/// - each host gets `perHostPerMinute` fetches a minute (a burst of as many at once);
/// - all hosts together get `overallPerMinute`;
/// - a host that failed (timed out, refused, answered 5xx) is not asked again for
///   `hostFailureMemory` seconds.
/// Over budget the inbox answers 503 with `Retry-After`: an honest sender retries, a cached key
/// is never affected.
final class FetchBudget: Sendable {
    /// Key lookups' budget.
    static let perHostPerMinute = 60.0
    static let overallPerMinute = 600.0
    static let hostFailureMemory: TimeInterval = 30
    /// Hosts remembered at once; past that, the full buckets are forgotten.
    static let maximumHosts = 10_000

    private struct Bucket {
        var tokens: Double
        var at: Date

        /// Refills at `perMinute`, up to `perMinute`; takes one token if there is one.
        mutating func take(perMinute: Double, now: Date) -> Bool {
            tokens = min(perMinute, tokens + max(0, now.timeIntervalSince(at)) * perMinute / 60)
            at = now
            guard tokens >= 1 else { return false }
            tokens -= 1
            return true
        }
    }

    private struct State {
        var hosts: [String: Bucket] = [:]
        var overall: Bucket?
        var failed: [String: Date] = [:]
    }

    private let state = Mutex(State())
    let perHostPerMinute: Double
    let overallPerMinute: Double

    init(perHostPerMinute: Double = FetchBudget.perHostPerMinute, overallPerMinute: Double = FetchBudget.overallPerMinute) {
        (self.perHostPerMinute, self.overallPerMinute) = (perHostPerMinute, overallPerMinute)
    }

    /// Whether one more fetch from `host` may go out now (and counts it).
    func take(host: String, now: Date = Date()) -> Bool {
        state.withLock { state in
            if let failedAt = state.failed[host] {
                if now.timeIntervalSince(failedAt) < Self.hostFailureMemory { return false }
                state.failed[host] = nil
            }
            var overall = state.overall ?? Bucket(tokens: overallPerMinute, at: now)
            var bucket = state.hosts[host] ?? Bucket(tokens: perHostPerMinute, at: now)
            // Both or neither: a host is charged only for fetches that go out.
            var trial = bucket
            guard trial.take(perMinute: perHostPerMinute, now: now), overall.take(perMinute: overallPerMinute, now: now) else {
                state.overall = overall
                return false
            }
            bucket = trial
            state.overall = overall
            if state.hosts.count >= Self.maximumHosts { Self.forgetFull(&state.hosts, perMinute: perHostPerMinute, now: now) }
            state.hosts[host] = bucket
            return true
        }
    }

    /// Forgets the buckets that have refilled (they hold nothing a fresh one would not); never
    /// one still short of tokens, so filling the table cannot reset a drained host.
    private static func forgetFull(_ hosts: inout [String: Bucket], perMinute: Double, now: Date) {
        hosts = hosts.filter { $0.value.tokens + now.timeIntervalSince($0.value.at) * perMinute / 60 < perMinute }
    }

    /// `host` did not answer usefully: it is left alone for a while.
    func hostFailed(_ host: String, now: Date = Date()) {
        state.withLock { state in
            if state.failed.count > Self.maximumHosts {
                state.failed = state.failed.filter { now.timeIntervalSince($0.value) < Self.hostFailureMemory }
            }
            state.failed[host] = now
        }
    }
}
