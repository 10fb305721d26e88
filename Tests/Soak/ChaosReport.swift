import Foundation

/// What `make chaos` found, as Markdown, and whether it passed.
struct ChaosReport {
    let settings: ChaosScenario.Settings
    let stats: LoadStats
    let elapsed: Double
    let kills: [Double]
    let drained: Double?
    let stillQueued: Int
    let log: DeliveryLog
    let followerInboxes: Set<String>
    let retries: (checked: Int, spanningKill: Int, violations: [String])
    let acceptedReplies: Int
    let refusedReplies: [String: Int]
    let missingComments: [String]
    let integrity: [String]
    let publicFolder: PublicFolderCheck.Result
    let serverLog: (lines: Int, errors: [String])

    /// Per blog activity (Create, Update) sent to the followers: inboxes that never got it, and
    /// inboxes that got it twice or more than twice.
    var deliveries: [(activity: String, type: String, missing: Int, twice: Int, more: Int)] {
        let received = log.successes(types: ["Create", "Update"]).filter { followerInboxes.contains($0.key.inbox) }
        let byActivity = Dictionary(grouping: received, by: \.key.activity)
        let attempted = Set(log.successes(types: ["Create", "Update"]).keys.map(\.activity))
        let types = log.activityTypes
        return attempted.sorted().map { activity in
            let counts = Dictionary(uniqueKeysWithValues: (byActivity[activity] ?? []).map { ($0.key.inbox, $0.value) })
            let missing = followerInboxes.filter { (counts[$0] ?? 0) == 0 }.count
            return (activity, types[activity] ?? "?", missing,
                    counts.values.filter { $0 == 2 }.count, counts.values.filter { $0 > 2 }.count)
        }
    }

    var failures: [String] {
        var failures: [String] = []
        let deliveries = self.deliveries
        if deliveries.count != 2 { failures.append("expected 2 activities fanned out (the post, its edit), saw \(deliveries.count)") }
        for d in deliveries {
            if d.missing > 0 { failures.append("\(d.missing) inboxes never got \(d.activity)") }
            if d.more > 0 { failures.append("\(d.more) inboxes got \(d.activity) more than twice") }
        }
        if drained == nil || stillQueued > 0 { failures.append("the queue did not drain (\(stillQueued) deliveries queued)") }
        if !retries.violations.isEmpty { failures.append("\(retries.violations.count) retries came early, e.g. \(retries.violations[0])") }
        if !missingComments.isEmpty { failures.append("\(missingComments.count) replies answered 202 are not comments, e.g. \(missingComments[0])") }
        if !refusedReplies.isEmpty { failures.append("replies refused: \(refusedReplies)") }
        if acceptedReplies + refusedReplies.values.reduce(0, +) != settings.replies {
            failures.append("\(acceptedReplies + refusedReplies.values.reduce(0, +)) of \(settings.replies) replies were sent")
        }
        if !integrity.isEmpty { failures.append("integrity_check: \(integrity.joined(separator: "; "))") }
        if !publicFolder.problems.isEmpty { failures.append("public/: \(publicFolder.problems.prefix(3).joined(separator: "; "))") }
        if log.signatures.invalid > 0 { failures.append("\(log.signatures.invalid) deliveries with a bad signature") }
        if kills.count != settings.kills { failures.append("\(kills.count) kills of \(settings.kills)") }
        return failures
    }

    var markdown: String {
        let s = settings
        let faults = log.faultCounts.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", ")
        var lines = [
            "## Chaos: seed \(s.seed), \(s.inboxes) inboxes, \(s.replies) replies, \(s.kills) × kill -9",
            "",
            "Inboxes fail \(Int(s.faultRate * 100)) % of first and second attempts (500/502/503, 429 with `Retry-After` 1–5 s, a stall past "
                + "the \(Int(s.timeout)) s timeout, a dropped connection, equally likely); `delivery.firstRetry: \(Int(s.firstRetry))s`. "
                + "Replay with `make chaos CHAOS_SEED=\(s.seed)`.",
            "",
            "| figure | value |", "|:---|---:|",
            "| kill -9 at (s) | \(kills.map { String(format: "%.1f", $0) }.joined(separator: ", ")) |",
            "| requests at the inboxes | \(log.requestCount) |",
            "| faults served | \(faults) |",
        ]
        for d in deliveries {
            lines.append("| \(d.type) \(d.activity.suffix(40)): inboxes without it, with it twice, more | \(d.missing), \(d.twice), \(d.more) |")
        }
        lines += [
            "| retries checked against Retry-After and backoff (skipped: spanning a kill) | \(retries.checked) (\(retries.spanningKill)), "
                + "\(retries.violations.count) early |",
            "| replies answered 202 → comments | \(acceptedReplies - missingComments.count) of \(acceptedReplies) |",
            "| queue drained | \(drained.map { String(format: "yes, %.1f s after the last fault window", $0) } ?? "NO, \(stillQueued) queued") |",
            "| `public/`: files listed, pages complete | \(publicFolder.files), \(publicFolder.pages - publicFolder.problems.count) of \(publicFolder.pages) |",
            "| `PRAGMA integrity_check` | \(integrity.isEmpty ? "ok" : integrity.joined(separator: "; ")) |",
            "| signatures at the inboxes valid/invalid | \(log.signatures.valid)/\(log.signatures.invalid) |",
            "| server log | \(serverLog.lines) lines, \(serverLog.errors.count) at error level |",
            String(format: "| whole run | %.0f s |", elapsed),
            "",
            stats.table(seconds: elapsed),
        ]
        if !retries.violations.isEmpty { lines += ["", "Early retries (first 5):"] + retries.violations.prefix(5).map { "    " + $0 } }
        lines += ["", failures.isEmpty ? "**Passed.**" : "**FAILED:** " + failures.joined(separator: "; ")]
        return lines.joined(separator: "\n") + "\n"
    }
}
