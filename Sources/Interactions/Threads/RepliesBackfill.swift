import ActivityPub
import ActivityStreams
import BlogModel
import Foundation
import Storage

/// Reads a comment's `replies` collection as its server serves it (Mastodon 4.4+ does the same to
/// complete threads), and takes each reply found as a comment through the inbox's own path: a
/// reply to a comment whose writer dropped the blog's mention still shows, nested in place.
///
/// Each reply is fetched from its own id, on its own server, and must say it answers this comment:
/// a collection, on whatever host, only names candidates, and a forged copy embedded in it is never
/// read. Blocks, filters, approval and tombstones apply as to a delivered reply. Bounded per
/// reading (`maximumPages` pages, `maximumItems` replies, `timeLimit`), per day (what readings
/// may add to a post, and from one server), and by the shared `FetchBudget`; a reading cut short
/// is taken up by the next round. A blocked server's comments and pages are not read.
public struct RepliesBackfill: Sendable {
    public static let maximumPages = 10
    public static let maximumItems = 100
    /// Replies a day that readings may add to one post, and from one server's authors (delivered
    /// comments count too): a server inventing a tree of replies adds at most this many.
    public static let maximumPerPostPerDay = 300
    public static let maximumPerHostPerDay = 200
    /// A reading stops here (and the next round takes it up): one slow server holds a reader's
    /// slot for at most this long.
    public static let timeLimit: Duration = .seconds(60)

    let processor: InboxProcessor
    let fetcher: RemoteFetcher
    let store: Store
    let budget: FetchBudget

    public init(processor: InboxProcessor, fetcher: RemoteFetcher, store: Store, budget: FetchBudget) {
        (self.processor, self.fetcher, self.store, self.budget) = (processor, fetcher, store, budget)
    }

    public enum Outcome: Sendable, Equatable {
        /// Read to the end (or to the bounds): the replies it took, the posts whose pages changed,
        /// and the candidates that could not be fetched (gone, private, their server down) or taken.
        case read(taken: Int, posts: Set<String>, unfetched: Int)
        /// The budget ran out first: read again later.
        case budgetSpent(taken: Int, posts: Set<String>, unfetched: Int)
        /// The comment, or its collection, could not be had (gone, unreachable, not JSON).
        case unreadable(String)
    }

    /// A document's server: its host, with the port when there is one (`a.example`, `127.0.0.1:8080`).
    public static func host(of url: String) -> String? {
        guard let parts = URLComponents(string: url), let host = parts.host?.lowercased(), !host.isEmpty else { return nil }
        return host + (parts.port.map { ":\($0)" } ?? "")
    }

    public func read(_ due: BackfillDue, now: Date = Date()) async -> Outcome {
        var taken = 0, unfetched = 0, posts = Set<String>()
        let deadline = ContinuousClock.now + Self.timeLimit
        func spent() -> Outcome { .budgetSpent(taken: taken, posts: posts, unfetched: unfetched) }
        // A blocked server's thread is not read (its comment stays, hidden, for the record).
        do { if try store.blocks.isBlocked(actorID: due.commentID) { return .read(taken: 0, posts: [], unfetched: 0) } } catch {
            return .unreadable("\(error)")
        }
        // 1. The comment as its server serves it now, and the collection it names.
        guard budget.take(due.host) else { return spent() }
        let replies: Any
        do {
            guard let value = try await fetcher.fetchAuthentic(due.commentID).json()["replies"] else {
                return .read(taken: 0, posts: [], unfetched: 0)
            }
            replies = value
        } catch {
            return .unreadable("\(error)")
        }
        // 2. The candidates: ids on its pages, following `first` and `next`, within the bounds.
        var candidates: [String] = [], seen = Set<String>()
        // Cut short by the budget: the candidates found are still taken, and the reading comes again.
        var cut = false
        do {
            guard let collection = try await document(replies, before: deadline) else { return spent() }
            var page: [String: Any]? = collection
            if let first = collection["first"] {
                page = try await document(first, before: deadline)
                cut = page == nil
            }
            var pages = 0
            while let current = page, pages < Self.maximumPages, candidates.count < Self.maximumItems {
                pages += 1
                let items = (current["orderedItems"] ?? current["items"]) as? [Any] ?? []
                for item in items {
                    let id = (item as? String) ?? ((item as? [String: Any])?["id"] as? String)
                    if let id, seen.insert(id).inserted, candidates.count < Self.maximumItems { candidates.append(id) }
                }
                guard let next = current["next"], candidates.count < Self.maximumItems, pages < Self.maximumPages else { break }
                page = try await document(next, before: deadline)
                cut = page == nil
            }
        } catch {
            return .unreadable("\(error)")
        }
        // 3. Each candidate from its own server, taken as a delivered reply would be.
        for id in candidates {
            guard ContinuousClock.now < deadline else { return spent() }
            guard Origin(id) != nil, !id.hasPrefix(processor.config.baseURL + "/"), let host = Self.host(of: id) else { continue }
            do {
                if try store.comments.comment(id: id) != nil || store.comments.tombstone(id: id) != nil { continue }
                if try store.blocks.isBlocked(actorID: id) { continue }
                let today = try store.comments.receivedSince(now.addingTimeInterval(-86_400), postPath: due.postPath, authorHost: host)
                if today.onPost >= Self.maximumPerPostPerDay { return spent() }
                if today.fromHost >= Self.maximumPerHostPerDay { continue }
            } catch { return .unreadable("\(error)") }
            guard budget.take(host) else { return spent() }
            let note: APObject
            do { note = try await fetcher.fetchAuthentic(id).object } catch {
                unfetched += 1  // counted for the log; the next reading asks again
                continue
            }
            guard note.inReplyTo?.id == due.commentID, let author = note.attributedTo.first, Origin.same(id, author) else { continue }
            do {
                if try store.actors.remoteActor(id: author) == nil {
                    guard let authorHost = Self.host(of: author), budget.take(authorHost) else { return spent() }
                }
                guard try await processor.knownActor(author) != nil else { continue }
                let effects = try await processor.reply(note, authorID: author, activity: nil, now: now)
                if effects.outcome.reason == "comment" { taken += 1 }
                posts.formUnion(effects.changedPosts)
            } catch {
                unfetched += 1  // not taken now (a store error): counted for the log; the next reading tries again
            }
        }
        return cut ? spent() : .read(taken: taken, posts: posts, unfetched: unfetched)
    }

    /// A collection or page: embedded, or fetched from its URL (any host, within the budget); nil
    /// when the budget is spent.
    private func document(_ value: Any, before deadline: ContinuousClock.Instant) async throws -> [String: Any]? {
        if let embedded = value as? [String: Any] {
            // (An embedded collection costs nothing, and names candidates only.)
            // An embedded reference with only an id (and a type) is fetched like a URL.
            guard embedded["items"] == nil, embedded["orderedItems"] == nil, embedded["first"] == nil,
                  let id = embedded["id"] as? String else { return embedded }
            return try await document(id, before: deadline)
        }
        guard let url = value as? String, let host = Self.host(of: url) else { throw RemoteFetchError.notJSON("\(value)") }
        // A blocked server's pages are not fetched; a reading out of time stops here too.
        if try store.blocks.isBlocked(actorID: url) { return [:] }
        guard ContinuousClock.now < deadline, budget.take(host) else { return nil }
        return try await fetcher.fetch(url).json()
    }
}
