import Foundation

/// What `make soak` measured, as Markdown, and whether it passed.
struct SoakReport {
    let settings: SoakScenario.Settings
    let stats: LoadStats
    let samples: [ProcessSampler.Sample]
    let drained: Double?
    let acceptedReplies: Int
    let missingComments: [String]
    let integrity: [String]
    let rowCounts: [String: Int]
    let fediverse: FakeFediverse
    /// The long run's memory against a restarted server's on the same data (runs of 5 min or more).
    let restart: RestartCheck?
    let database: Int
    let wal: Int
    let log: (lines: Int, errors: [String])
    let logBytes: Int

    var seconds: Double { settings.minutes * 60 }
    /// Memory and descriptors are judged after the first fifth of the run (caches filling).
    var warmUp: Double { Self.warmUp(minutes: settings.minutes) }
    static func warmUp(minutes: Double) -> Double { min(120, minutes * 60 / 5) }

    /// Each blog activity (a new post's Create, an edit's Update) at every server's shared
    /// inbox: how many reached all of them, out of how many.
    var fanOut: (complete: Int, activities: Int, duplicates: Int) {
        let shared = Set((0..<fediverse.instances).map { "\(fediverse.actor($0).base)/inbox" })
        let received = fediverse.log.successes(types: ["Create", "Update"]).filter { shared.contains($0.key.inbox) }
        let byActivity = Dictionary(grouping: received, by: \.key.activity)
        let complete = byActivity.values.filter { Set($0.map(\.key.inbox)) == shared && $0.allSatisfy { $0.value >= 1 } }.count
        return (complete, byActivity.count, received.values.filter { $0 > 1 }.count)
    }

    var publishes: Int {
        (stats.snapshot["publish a new post"]?.latencies.count ?? 0) + (stats.snapshot["publish an edit"]?.latencies.count ?? 0)
    }

    var rssSlope: Double { ProcessSampler.slopePerHour(samples, warmUp: warmUp) { $0.rssMB } }
    var fdSlope: Double { ProcessSampler.slopePerHour(samples, warmUp: warmUp) { Double($0.fds) } }
    var settled: [ProcessSampler.Sample] { samples.filter { $0.seconds >= warmUp } }

    /// A row of what the heap is held by: after warm-up → end, and the slope.
    func heldRow(_ name: String, _ value: KeyPath<ProcessSampler.HeldMemory, Double>) -> String {
        let held = settled.filter { $0.held != nil }
        guard let first = held.first?.held, let last = held.last?.held else { return "| \(name) | not reported |" }
        let slope = ProcessSampler.slopePerHour(held, warmUp: warmUp) { $0.held![keyPath: value] }
        return "| \(name), after warm-up → end (slope) | "
            + String(format: "%.1f → %.1f MB (%+.1f MB/h) |", first[keyPath: value], last[keyPath: value], slope)
    }

    var descriptorsFlat: Bool {
        guard let first = settled.first, let last = settled.last else { return false }
        return fdSlope * (last.seconds - first.seconds) / 3600 < 16
    }

    var failures: [String] {
        var failures: [String] = []
        if stats.serverErrors > 0 { failures.append("\(stats.serverErrors) answers were 5xx") }
        if stats.transportErrors > 0 { failures.append("\(stats.transportErrors) requests got no answer") }
        if drained == nil { failures.append("the queues did not drain") }
        if !missingComments.isEmpty { failures.append("\(missingComments.count) replies answered 202 are not comments, e.g. \(missingComments[0])") }
        if !integrity.isEmpty { failures.append("integrity_check: \(integrity.joined(separator: "; "))") }
        if fediverse.log.signatures.invalid > 0 { failures.append("\(fediverse.log.signatures.invalid) deliveries with a bad signature") }
        let fan = fanOut
        if fan.activities != publishes || fan.complete != fan.activities {
            failures.append("fan-out: \(fan.complete) of \(fan.activities) activities reached every server (\(publishes) publishes)")
        }
        let shown = stats.snapshot["new post in the sitemap after publish"]?.latencies.count ?? 0
        if shown != publishes / 2 { failures.append("\(shown) of \(publishes / 2) new posts appeared in the served sitemap within 10 s") }
        if settings.minutes >= 5 {
            if let restart, !restart.flat {
                failures.append(String(format: "at rest, the run's server holds %.1f MB more than one restarted on its data and re-warmed",
                                       restart.extraRSS))
            }
            if let restart, restart.stats.serverErrors + restart.stats.transportErrors > 0 {
                failures.append("the re-warm got \(restart.stats.serverErrors) 5xx and \(restart.stats.transportErrors) requests without an answer")
            }
            if !descriptorsFlat { failures.append(String(format: "open descriptors grow %.0f/h after warm-up", fdSlope)) }
        }
        return failures
    }

    var markdown: String {
        let s = settings
        let fan = fanOut
        let first = settled.first, last = samples.last
        let cpu = samples.compactMap(\.cpuPercent)
        var lines = [
            "## Soak: \(Int(s.minutes * 60)) s, \(s.posts) posts, \(fediverse.actorCount) actors on \(fediverse.instances) servers",
            "",
            "Load asked for: \(Int(s.pageRate)) page and asset views/s, \(Int(s.articleRate)) Article fetches/s, \(Int(s.inboxRate)) inbox "
                + "activities/s, \(Int(s.searchRate)) searches/s, a stampede of \(s.stampedeSize) link previews in 1 s every \(Int(s.stampedeEvery)) s, "
                + "a new post and an edit every \(Int(s.publishEvery)) s (`lectern publish` in another process).",
            "",
            stats.table(seconds: seconds),
            "",
            "| figure | value |", "|:---|---:|",
            "| 5xx answers | \(stats.serverErrors) |",
            "| requests without an answer | \(stats.transportErrors) |",
            String(format: "| resident memory after warm-up (%.0f s) → end | %.1f → %.1f MB |", warmUp, first?.rssMB ?? 0, last?.rssMB ?? 0),
            String(format: "| resident memory slope after warm-up | %+.1f MB/h |", rssSlope),
            heldRow("heap malloc has handed out", \.heapMB),
            heldRow("… of it, pages served from memory", \.siteMB),
            heldRow("… of it, SQLite's caches", \.sqliteMB),
            heldRow("… the rest (what a leak grows)", \.otherMB),
        ] + (restart?.markdownRows ?? ["| memory against a restarted server | not compared (runs under 5 min) |"]) + [
            "| open descriptors after warm-up → end | \(first?.fds ?? 0) → \(last?.fds ?? 0) |",
            String(format: "| open descriptors slope after warm-up | %+.1f /h |", fdSlope),
            String(format: "| server CPU, mean of 10 s samples (max) | %.0f %% (%.0f %%) of one core |",
                   cpu.isEmpty ? 0 : cpu.reduce(0, +) / Double(cpu.count), cpu.max() ?? 0),
            String(format: "| database, WAL at the end | %.1f MB, %.1f MB |", Double(database) / 1e6, Double(wal) / 1e6),
            String(format: "| log | %d lines, %.1f KB (%.1f lines/min); %d at error level |", log.lines, Double(logBytes) / 1e3,
                   Double(log.lines) / s.minutes, log.errors.count),
            "| queues empty at the end | \(drained.map { String(format: "yes, %.1f s after the load stopped", $0) } ?? "NO") |",
            "| replies answered 202 → comments | \(acceptedReplies - missingComments.count) of \(acceptedReplies) |",
            "| fan-outs reaching every server's shared inbox | \(fan.complete) of \(fan.activities) (duplicates: \(fan.duplicates)) |",
            "| deliveries received, signatures valid/invalid | \(fediverse.log.requestCount), \(fediverse.log.signatures.valid)/\(fediverse.log.signatures.invalid) |",
            "| `PRAGMA integrity_check` | \(integrity.isEmpty ? "ok" : integrity.joined(separator: "; ")) |",
            "| rows: comments, reactions, followers | \(rowCounts["comments"] ?? 0), \(rowCounts["reactions"] ?? 0), \(rowCounts["followers"] ?? 0) |",
            "",
            "Samples every \(Int(s.sampleEvery)) s (time s: RSS MB / heap MB / rest of heap MB / fds / CPU %): "
                + samples.map { String(format: "%.0f: %.1f/%.1f/%.1f/%d/%.0f", $0.seconds, $0.rssMB, $0.held?.heapMB ?? 0, $0.held?.otherMB ?? 0,
                                       $0.fds, $0.cpuPercent ?? 0) }.joined(separator: ", "),
        ]
        if !stats.errorLines.isEmpty { lines += ["", "No answer: " + stats.errorLines.joined(separator: "; ")] }
        if !log.errors.isEmpty { lines += ["", "Error lines in the log (first 5):"] + log.errors.prefix(5).map { "    " + $0 } }
        lines += ["", failures.isEmpty ? "**Passed.**" : "**FAILED:** " + failures.joined(separator: "; ")]
        return lines.joined(separator: "\n") + "\n"
    }
}
