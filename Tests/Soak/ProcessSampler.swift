import Foundation
import Synchronization

/// Resident memory, open file descriptors and CPU of the server under test, read from /proc every
/// `interval` seconds (whichever process serves now: chaos restarts it).
final class ProcessSampler: Sendable {
    struct Sample: Sendable {
        let seconds: Double
        let rssMB: Double
        let fds: Int
        /// CPU used since the last sample, in % of one core (nil across a restart).
        let cpuPercent: Double?
        let logBytes: Int
        /// What the server said its memory is held by (nil when its metrics did not answer).
        let held: HeldMemory?
    }

    /// The heap malloc has handed out, and the parts of it the site's data explains: the pages
    /// served from memory and SQLite's caches. What is left over is what a leak would grow.
    struct HeldMemory: Sendable {
        let heapMB: Double
        let siteMB: Double
        let sqliteMB: Double
        var otherMB: Double { heapMB - siteMB - sqliteMB }
    }

    private let samples = Mutex<[Sample]>([])
    let start = Date()

    var all: [Sample] { samples.withLock { $0 } }

    func run(interval: Double, pid: @escaping @Sendable () -> Int32?, logBytes: @escaping @Sendable () -> Int,
             held: @escaping @Sendable () async -> HeldMemory? = { nil }) async {
        var last: (pid: Int32, ticks: Double, at: Date)?
        while !Task.isCancelled {
            if let pid = pid(), let rss = Self.rssMB(pid), let ticks = Self.cpuTicks(pid) {
                let now = Date()
                var cpu: Double?
                if let last, last.pid == pid {
                    cpu = 100 * (ticks - last.ticks) / Double(sysconf(Int32(_SC_CLK_TCK))) / now.timeIntervalSince(last.at)
                }
                last = (pid, ticks, now)
                let sample = Sample(seconds: now.timeIntervalSince(start), rssMB: rss, fds: Self.fds(pid), cpuPercent: cpu,
                                    logBytes: logBytes(), held: await held())
                samples.withLock { $0.append(sample) }
            }
            try? await Task.sleep(for: .milliseconds(Int(interval * 1000)))
        }
    }

    static func rssMB(_ pid: Int32) -> Double? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
              let kB = Double(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") else { return nil }
        return kB / 1024
    }

    static func fds(_ pid: Int32) -> Int {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd").count) ?? 0
    }

    /// utime + stime, in clock ticks.
    static func cpuTicks(_ pid: Int32) -> Double? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return nil }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        // After the command: state is field 3, utime 14 and stime 15 (1-based, man 5 proc).
        guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        return user + system
    }

    /// Least-squares slope of `value` over time (per hour) for the samples after `warmUp` seconds.
    static func slopePerHour(_ samples: [Sample], warmUp: Double, _ value: (Sample) -> Double) -> Double {
        let points = samples.filter { $0.seconds >= warmUp }.map { ($0.seconds / 3600, value($0)) }
        guard points.count >= 3 else { return 0 }
        let n = Double(points.count)
        let meanX = points.map(\.0).reduce(0, +) / n, meanY = points.map(\.1).reduce(0, +) / n
        let covariance = points.reduce(0) { $0 + ($1.0 - meanX) * ($1.1 - meanY) }
        let variance = points.reduce(0) { $0 + ($1.0 - meanX) * ($1.0 - meanX) }
        return variance == 0 ? 0 : covariance / variance
    }
}
