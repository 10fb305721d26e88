import BlogModel
import Foundation
import Storage

/// `lectern stats`: what each post reached and what came back, and the followers over time, from
/// what the blog already keeps. Nothing about visitors.
public struct OutreachReport: Sendable, Codable {
    public struct Post: Sendable, Codable {
        public struct Inboxes: Sendable, Codable { public var delivered: Int, failed: Int, pending: Int }
        public struct Replies: Sendable, Codable { public var fediverse: Int, bluesky: Int, webmention: Int, pending: Int }
        public struct Followers: Sendable, Codable { public var gained: Int, lost: Int }
        public var path: String, title: String, url: String, published: Date
        /// Servers the post was delivered to, and the inboxes by outcome.
        public var servers: Int
        public var inboxes: Inboxes
        public var byServer: [PostOutreach.Server]
        public var likes: Int, boosts: Int, quotes: Int, webLikes: Int, webReposts: Int
        public var replies: Replies
        public var firstResponse: Date?, lastResponse: Date?
        /// Follows and unfollows from the day it was published to the day the next one was.
        public var followers: Followers

        /// Likes, boosts, quotes and replies from every source.
        public var responses: Int { likes + boosts + quotes + webLikes + webReposts + replies.fediverse + replies.bluesky + replies.webmention }
    }
    public struct Followers: Sendable, Codable {
        public struct Server: Sendable, Codable { public var host: String, count: Int }
        public struct Day: Sendable, Codable { public var day: String, gained: Int, lost: Int, total: Int }
        public var total: Int
        public var byServer: [Server]
        /// Days with follows or unfollows, oldest first, with the total at each day's end.
        public var days: [Day]
    }
    public var blog: String
    public var generated: Date
    /// Newest first.
    public var posts: [Post]
    public var followers: Followers
}

extension Blog {
    /// The report for every published post, or only the one at `post` (a path or its URL).
    public func outreachReport(post: String? = nil, now: Date = Date()) throws -> OutreachReport {
        let records = try store.posts.publishedPosts().sorted { ($0.publishedAt, $0.path) > ($1.publishedAt, $1.path) }
        let changes = try store.outreach.followerChanges()
        let total = try store.summary(now: now).followers
        var days: [OutreachReport.Followers.Day] = []
        var running = total - changes.reduce(0) { $0 + $1.gained - $1.lost }
        for change in changes {
            running += change.gained - change.lost
            // Followers removed without an Undo (blocks, `followers remove`) are not in the daily
            // counts: going back from today's total can undershoot, never below nobody.
            days.append(.init(day: change.day, gained: change.gained, lost: change.lost, total: max(0, running)))
        }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        func day(_ date: Date) -> String {
            let parts = calendar.dateComponents([.year, .month, .day], from: date)
            return String(format: "%04d-%02d-%02d", parts.year!, parts.month!, parts.day!)
        }
        var posts: [OutreachReport.Post] = []
        for (index, record) in records.enumerated() {
            guard post == nil || record.path == post || config.absoluteURL(record.path) == post else { continue }
            let numbers = try store.outreach.post(path: record.path, apID: record.apID)
            let from = day(record.publishedAt), until = index > 0 ? day(records[index - 1].publishedAt) : "9999"
            let window = changes.filter { $0.day >= from && ($0.day < until || index == 0) }
            let inboxes = numbers.inboxes
            posts.append(.init(path: record.path, title: record.title, url: config.absoluteURL(record.path), published: record.publishedAt,
                               servers: numbers.servers.filter { $0.delivered > 0 }.count,
                               inboxes: .init(delivered: inboxes.delivered, failed: inboxes.failed, pending: inboxes.pending),
                               byServer: numbers.servers, likes: numbers.likes, boosts: numbers.boosts, quotes: numbers.quotes,
                               webLikes: numbers.webLikes, webReposts: numbers.webReposts,
                               replies: .init(fediverse: numbers.fediverseReplies, bluesky: numbers.blueskyReplies,
                                              webmention: numbers.webmentionReplies, pending: numbers.pendingReplies),
                               firstResponse: numbers.first, lastResponse: numbers.last,
                               followers: .init(gained: window.reduce(0) { $0 + $1.gained }, lost: window.reduce(0) { $0 + $1.lost })))
        }
        if let post, posts.isEmpty { throw StoreError.conflict("\(post) is not a published post (lectern stats lists them)") }
        return OutreachReport(blog: config.title, generated: now, posts: posts,
                              followers: .init(total: total, byServer: try store.outreach.followersByServer().map { .init(host: $0.host, count: $0.count) },
                                               days: days))
    }
}
