import Foundation
import Synchronization

/// What each kind of request got: latencies (ms, client side, connect to last byte), statuses,
/// and transport errors (no answer at all).
final class LoadStats: Sendable {
    struct Kind: Sendable {
        var latencies: [Double] = []
        var statuses: [Int: Int] = [:]
        var errors: [String: Int] = [:]
        /// Not sent because the generator's own cap on requests in flight was reached.
        var shed = 0
    }

    private let kinds = Mutex<[String: Kind]>([:])

    func record(_ kind: String, milliseconds: Double, status: Int) {
        kinds.withLock {
            $0[kind, default: Kind()].latencies.append(milliseconds)
            $0[kind, default: Kind()].statuses[status, default: 0] += 1
        }
    }

    func recordError(_ kind: String, _ error: any Error) {
        kinds.withLock { $0[kind, default: Kind()].errors["\(error)".prefix(80).description, default: 0] += 1 }
    }

    func recordShed(_ kind: String) { kinds.withLock { $0[kind, default: Kind()].shed += 1 } }

    var snapshot: [String: Kind] { kinds.withLock { $0 } }

    /// Answers of 500 and up, over every kind.
    var requests: Int { snapshot.values.reduce(0) { $0 + $1.latencies.count + $1.errors.values.reduce(0, +) } }
    var serverErrors: Int { snapshot.values.reduce(0) { $0 + $1.statuses.filter { $0.key >= 500 }.values.reduce(0, +) } }
    var transportErrors: Int { snapshot.values.reduce(0) { $0 + $1.errors.values.reduce(0, +) } }

    static func percentile(_ values: [Double], _ p: Double) -> Double {
        let sorted = values.sorted()
        return sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))]
    }

    /// A Markdown table: one row per kind.
    func table(seconds: Double) -> String {
        var lines = ["| kind | requests | per second | p50 ms | p99 ms | max ms | statuses | no answer |", "|:---|---:|---:|---:|---:|---:|:---|---:|"]
        for (name, kind) in snapshot.sorted(by: { $0.key < $1.key }) {
            let count = kind.latencies.count
            let statuses = kind.statuses.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", ")
            let errors = kind.errors.values.reduce(0, +)
            lines.append(String(format: "| %@ | %d | %.1f | %.1f | %.1f | %.1f | %@ | %d |", name, count, Double(count) / max(1, seconds),
                                Self.percentile(kind.latencies, 0.5), Self.percentile(kind.latencies, 0.99), kind.latencies.max() ?? 0,
                                statuses, errors + kind.shed))
        }
        return lines.joined(separator: "\n")
    }

    /// Transport errors by kind and message, for the report.
    var errorLines: [String] {
        snapshot.sorted { $0.key < $1.key }.flatMap { name, kind in
            kind.errors.map { "\(name): \($0.value) × \($0.key)" } + (kind.shed > 0 ? ["\(name): \(kind.shed) not sent (generator cap)"] : [])
        }
    }
}
