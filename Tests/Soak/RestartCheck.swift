import Foundation
import Storage

/// Whether a long run's memory is explained by its data: at the end, the server is restarted on
/// the data the run left and given the run's warm-up again (the same readers and inbox traffic,
/// for as long, but each reply, like and boost taken back a second later, so the data stays
/// where the run left it), then both are compared at rest. The data the run added (pages kept
/// in memory, comments, SQLite's caches) is held by both; a leak, or a heap fragmenting over the
/// hours, is what the long-running server holds beyond the restarted one.
struct RestartCheck: Sendable {
    /// The long-running server at rest, after the load and the queues' drain.
    let longRSS: Double
    let longHeap: Double?
    /// The restarted server at rest, after the re-warm and the queues' drain.
    let restartedRSS: Double
    let restartedHeap: Double?
    let warmUp: Double
    /// Comments and reactions before and after the re-warm (the same when it left the data as it was).
    let rowsBefore: (comments: Int, reactions: Int)
    let rowsAfter: (comments: Int, reactions: Int)
    /// The re-warm's own answers: 5xx and requests without an answer count as the run's.
    let stats: LoadStats

    /// What the long run holds beyond the restarted server (MB; negative: less).
    var extraRSS: Double { longRSS - restartedRSS }
    var extraHeap: Double? { longHeap.flatMap { long in restartedHeap.map { long - $0 } } }

    /// Flat: the long run holds less than 5 MB (two samples of noise), or 10 % of the restarted
    /// server's size, more than it.
    var flat: Bool { extraRSS < max(5, 0.1 * restartedRSS) }

    static func run(site: SiteUnderTest, load: SoakLoad, store: Store, warmUp: Double, rest: Double,
                    longRun: ProcessSampler.Sample?) async throws -> RestartCheck {
        guard let longRun else { throw SoakError("no memory sample at the end of the run") }
        let before = try store.rowCounts()
        site.stop()
        try await site.start()
        let stats = LoadStats()
        await load.readersAndInbox(until: Date().addingTimeInterval(warmUp), driver: LoadDriver(stats: stats), tickOffset: 10_000_000,
                                    neutral: true)
        guard try await SoakScenario.drain(store, within: 180) != nil else { throw SoakError("the queues did not drain after the re-warm") }
        try await Task.sleep(for: .seconds(rest))
        guard let pid = site.pid, let rss = ProcessSampler.rssMB(pid) else { throw SoakError("the restarted server is not running") }
        let after = try store.rowCounts()
        return RestartCheck(longRSS: longRun.rssMB, longHeap: longRun.held?.heapMB, restartedRSS: rss,
                            restartedHeap: await site.memory()?.heapMB, warmUp: warmUp,
                            rowsBefore: (before["comments"] ?? 0, before["reactions"] ?? 0),
                            rowsAfter: (after["comments"] ?? 0, after["reactions"] ?? 0), stats: stats)
    }

    var markdownRows: [String] {
        [String(format: "| resident memory at rest: this run → restarted on its data and re-warmed for %.0f s | %.1f → %.1f MB (%+.1f MB) |",
                warmUp, longRSS, restartedRSS, extraRSS),
         String(format: "| heap malloc has handed out, the same | %.1f → %.1f MB (%+.1f MB) |", longHeap ?? 0, restartedHeap ?? 0, extraHeap ?? 0),
         "| re-warm: requests, 5xx, without an answer | \(stats.requests), \(stats.serverErrors), \(stats.transportErrors) |",
         "| re-warm: comments, reactions before → after | \(rowsBefore.comments), \(rowsBefore.reactions) → \(rowsAfter.comments), \(rowsAfter.reactions) |"]
    }
}
