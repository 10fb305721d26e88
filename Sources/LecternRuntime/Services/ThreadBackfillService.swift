import ActivityPub
import Foundation
import Interactions
import ServiceLifecycle
import Storage

/// Reads the `replies` collections of the threads under the blog's posts (`RepliesBackfill`),
/// as `thread_backfill` schedules them: up to `concurrent` at once, one per server, so a server
/// that stalls holds only its own threads; what changed is rendered by `RebuildService`.
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
            while !Task.isCancelled {
                do {
                    let store = blog.store
                    let due = try await OffPool.run { try store.threadBackfill.due(limit: Self.concurrent) }
                    if due.isEmpty {
                        let next = try await OffPool.run { try store.threadBackfill.nextDue() }
                        let wait = next.map { max(0.2, min(5, $0.timeIntervalSinceNow)) } ?? 5
                        try await Task.sleep(for: .milliseconds(Int(wait * 1000)))
                        continue
                    }
                    await withTaskGroup(of: Void.self) { group in
                        for row in due { group.addTask { await read(row) } }
                    }
                } catch is CancellationError {
                    return
                } catch {
                    blog.logger.error("threads: reading the schedule failed: \(error)")
                    do { try await Task.sleep(for: .seconds(30)) } catch { return }
                }
            }
        }
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
                blog.metrics.threadReading("budget_spent", taken: taken)
                try await OffPool.run { try store.threadBackfill.postpone(due, until: Date().addingTimeInterval(60)) }
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
