import Foundation
import Synchronization

/// Every request the fake fediverse's inboxes received, per inbox and activity, with what each
/// was answered: what the end-of-run checks count (each activity at least once and at most
/// twice at each inbox, retries after `Retry-After` and the backoff).
final class DeliveryLog: Sendable {
    enum Answer: Sendable, Equatable {
        case accepted
        case status(Int)
        case retryAfter(Int)
        case stall
        case reset

        var isSuccess: Bool { self == .accepted }
    }

    struct Arrival: Sendable {
        let at: Date
        let answer: Answer
    }

    struct Key: Hashable, Sendable {
        let inbox: String
        let activity: String
    }

    private struct State {
        var arrivals: [Key: [Arrival]] = [:]
        var types: [Key: String] = [:]
        var validSignatures = 0
        var invalidSignatures = 0
    }

    private let state = Mutex(State())

    func attempts(inbox: String, activity: String) -> Int {
        state.withLock { $0.arrivals[Key(inbox: inbox, activity: activity)]?.count ?? 0 }
    }

    func record(inbox: String, activity: String, type: String, at: Date, answer: Answer, signatureValid: Bool?) {
        state.withLock {
            let key = Key(inbox: inbox, activity: activity)
            $0.arrivals[key, default: []].append(Arrival(at: at, answer: answer))
            $0.types[key] = type
            if let signatureValid {
                if signatureValid { $0.validSignatures += 1 } else { $0.invalidSignatures += 1 }
            }
        }
    }

    var signatures: (valid: Int, invalid: Int) { state.withLock { ($0.validSignatures, $0.invalidSignatures) } }

    /// Requests received in all (faulted ones included).
    var requestCount: Int { state.withLock { $0.arrivals.values.reduce(0) { $0 + $1.count } } }

    /// Successful arrivals per (inbox, activity) of the given types.
    func successes(types: Set<String>) -> [Key: Int] {
        state.withLock { state in
            var counts: [Key: Int] = [:]
            for (key, arrivals) in state.arrivals where types.contains(state.types[key] ?? "") {
                counts[key] = arrivals.filter(\.answer.isSuccess).count
            }
            return counts
        }
    }

    /// Each activity's type, by id.
    var activityTypes: [String: String] {
        state.withLock { Dictionary($0.types.map { ($0.key.activity, $0.value) }, uniquingKeysWith: { first, _ in first }) }
    }

    /// Successful arrivals of `activity` per inbox.
    func successes(activity: String) -> [String: Int] {
        state.withLock { state in
            var counts: [String: Int] = [:]
            for (key, arrivals) in state.arrivals where key.activity == activity {
                counts[key.inbox] = arrivals.filter(\.answer.isSuccess).count
            }
            return counts
        }
    }

    /// Faults served, by kind.
    var faultCounts: [String: Int] {
        state.withLock { state in
            var counts: [String: Int] = [:]
            for arrivals in state.arrivals.values {
                for arrival in arrivals {
                    switch arrival.answer {
                    case .accepted: break
                    case .status(let code): counts["HTTP \(code)", default: 0] += 1
                    case .retryAfter: counts["429 + Retry-After", default: 0] += 1
                    case .stall: counts["stall past the timeout", default: 0] += 1
                    case .reset: counts["connection dropped", default: 0] += 1
                    }
                }
            }
            return counts
        }
    }

    /// Retries that came too early: after a 429, before its `Retry-After`; after any other
    /// failure, before `firstRetry × 2^(n−1) × 0.8` (the policy's lowest jitter), n being the
    /// failures the blog surely recorded. A gap with a `kill -9` in it is not judged (the
    /// attempt may not have been recorded: its lease, not the policy, brings it back) but
    /// counted, and its failure is not counted in n (the blog may not know of it).
    func retryViolations(firstRetry: Double, kills: [Date], tolerance: Double = 0.3) -> (checked: Int, spanningKill: Int, violations: [String]) {
        state.withLock { state in
            var checked = 0, spanning = 0
            var violations: [String] = []
            for (key, arrivals) in state.arrivals {
                var failures = 0
                for (index, arrival) in arrivals.enumerated().dropLast() where !arrival.answer.isSuccess {
                    let next = arrivals[index + 1].at
                    if kills.contains(where: { $0 > arrival.at && $0 < next }) { spanning += 1; continue }
                    failures += 1
                    let gap = next.timeIntervalSince(arrival.at)
                    let least: Double
                    if case .retryAfter(let seconds) = arrival.answer {
                        least = max(Double(seconds), firstRetry * pow(2, Double(failures - 1)) * 0.8)
                    } else {
                        least = firstRetry * pow(2, Double(failures - 1)) * 0.8
                    }
                    checked += 1
                    if gap + tolerance < least {
                        violations.append(String(format: "%@ %@: retry %.2f s after %@ (at least %.2f s)", key.inbox, key.activity, gap,
                                                 "\(arrival.answer)", least))
                    }
                }
            }
            return (checked, spanning, violations)
        }
    }
}
