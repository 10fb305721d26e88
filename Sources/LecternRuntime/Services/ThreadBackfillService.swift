import ActivityPub
import Foundation
import Interactions
import ServiceLifecycle
import Storage

/// Reads the `replies` collections of the threads under the blog's posts (`RepliesBackfill`),
/// as `thread_backfill` schedules them: up to `concurrent` at once, one per server, each slot
/// freed as its reading ends, so a server that stalls holds only its own threads; what changed
/// is rendered by `RebuildService`.
public struct ThreadBackfillService: Service {
    public let blog: Blog
    let site: RebuildService
    /// Fetches a minute for reading threads: from any one server, and in all.
    public static let perHost = 120
    public static let overall = 300
    static let concurrent = 4
    let budget = FetchBudget(perHost: ThreadBackfillService.perHost, overall: ThreadBackfillService.overall)

    public init(blog: Blog, site: RebuildService) { (self.blog, self.site) = (blog, site) }

    public func run() async throws {
        await cancelWhenGracefulShutdown {
            // Up to `concurrent` readings at once, one per server: a new one starts as soon as a
            // slot frees, so a server that answers slowly holds only its own slot (for at most
            // `RepliesBackfill.timeLimit`).
            await withTaskGroup(of: String?.self) { group in
                var inFlight = Set<String>()
                group.addTask { await Self.tick(); return nil }
                while !Task.isCancelled {
                    if inFlight.count < Self.concurrent {
                        do {
                            let store = blog.store, busy = inFlight
                            let due = try await OffPool.run { try store.threadBackfill.due(limit: Self.concurrent * 4) }
                                .filter { !busy.contains($0.host) }
                            for row in due.prefix(Self.concurrent - inFlight.count) {
                                inFlight.insert(row.host)
                                group.addTask { await read(row); return row.host }
                            }
                        } catch is CancellationError {
                            break
                        } catch {
                            blog.logger.error("threads: reading the schedule failed: \(error)")
                        }
                    }
                    // A reading's end frees its server's slot; a tick looks at the schedule again.
                    guard let finished = await group.next() else { break }
                    if let host = finished { inFlight.remove(host) } else if !Task.isCancelled {
                        group.addTask { await Self.tick(); return nil }
                    }
                }
                group.cancelAll()
            }
        }
    }

    /// How often the schedule is looked at while nothing finishes.
    private static func tick() async {
        do { try await Task.sleep(for: .seconds(2)) } catch {}
    }

    private func read(_ due: BackfillDue) async {
        let backfill = RepliesBackfill(processor: blog.inboxProcessor(), fetcher: blog.activityPub.remoteKeys.fetcher, store: blog.store,
                                       budget: budget)
        let outcome = await backfill.read(due)
        let store = blog.store
        do {
            switch outcome {
            case .read(let taken, let posts, let unfetched):
                blog.metrics.threadReading("read", taken: taken)
                if unfetched > 0 { blog.logger.info("threads: \(unfetched) replies listed under \(due.commentID) could not be fetched or taken") }
                try await OffPool.run { try store.threadBackfill.advance(due) }
                changed(posts)
            case .budgetSpent(let taken, let posts, _):
                // The next round reads it again: a collection that always outruns the budget costs
                // at most its four readings, never a retry a minute.
                blog.metrics.threadReading("budget_spent", taken: taken)
                try await OffPool.run { try store.threadBackfill.advance(due) }
                changed(posts)
            case .unreadable(let why):
                blog.metrics.threadReading("unreadable", taken: 0)
                blog.logger.info("threads: the replies of \(due.commentID) could not be read: \(why)")
                try await OffPool.run { try store.threadBackfill.advance(due) }
            }
        } catch {
            blog.logger.error("threads: recording a reading failed: \(error)")
        }
    }

    private func changed(_ posts: Set<String>) {
        guard !posts.isEmpty else { return }
        site.changedPosts.add(posts)
        site.wake.signal()
    }
}
