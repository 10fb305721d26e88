import Foundation
import GRDB

/// What each post reached and what came back, read from what the blog already keeps (deliveries,
/// reactions, comments, webmentions, quote authorizations, the inbox's daily counts): nothing about
/// visitors. Read-only sums over those tables, for `lectern stats`.
public struct Outreach: StoreFacade {
    let store: Store
    public init(_ store: Store) { self.store = store }
}

extension Store {
    public var outreach: Outreach { Outreach(self) }
}

/// One post's numbers.
public struct PostOutreach: Sendable, Equatable, Codable {
    public struct Server: Sendable, Equatable, Codable {
        public var host: String
        public var delivered = 0, failed = 0, pending = 0
    }
    /// The post's `Create` by receiving server. Delivered rows are pruned
    /// after `delivery.keepDelivered`: older posts count what is kept.
    public var servers: [Server] = []
    public var likes = 0, boosts = 0, quotes = 0
    /// Likes and reposts received as webmentions (from the open web).
    public var webLikes = 0, webReposts = 0
    /// Replies shown under the post, by where they came from.
    public var fediverseReplies = 0, blueskyReplies = 0, webmentionReplies = 0
    /// Replies waiting for approval (any source).
    public var pendingReplies = 0
    /// The first and last reaction or reply.
    public var first: Date?, last: Date?

    public var inboxes: (delivered: Int, failed: Int, pending: Int) {
        servers.reduce((0, 0, 0)) { ($0.0 + $1.delivered, $0.1 + $1.failed, $0.2 + $1.pending) }
    }
}

extension Outreach {
    /// Replies from Bluesky arrive through Bridgy Fed, from actors on this host.
    static let blueskyBridgePrefix = "https://bsky.brid.gy/"

    public func post(path: String, apID: String) throws -> PostOutreach {
        try read { db in
            var result = PostOutreach()
            // By inbox, in the post's Create (an Update reaches the same inboxes again).
            let rows = try Row.fetchAll(db, sql: """
                SELECT d.inbox, d.state, count(*) AS n FROM deliveries d JOIN outbound_activities a ON a.id = d.activity_id
                WHERE a.object_id = ? AND a.type = 'Create' AND d.kind = 'activity'
                GROUP BY d.inbox, d.state
                """, arguments: [apID])
            var servers: [String: PostOutreach.Server] = [:]
            for row in rows {
                // A server is its inbox's host with its port (two servers may share an address).
                let inbox = URLComponents(string: row["inbox"] as String)
                let host = (inbox?.host ?? "?") + (inbox?.port.map { ":\($0)" } ?? "")
                let count: Int = row["n"]
                var server = servers[host] ?? PostOutreach.Server(host: host)
                switch row["state"] as String {
                case "delivered": server.delivered += count
                case "failed": server.failed += count
                default: server.pending += count
                }
                servers[host] = server
            }
            result.servers = servers.values.sorted { $0.host < $1.host }
            for row in try Row.fetchAll(db, sql: "SELECT kind, count(*) AS n FROM reactions WHERE post_path = ? GROUP BY kind", arguments: [path]) {
                if row["kind"] == "like" { result.likes = row["n"] } else { result.boosts = row["n"] }
            }
            for row in try Row.fetchAll(db, sql: "SELECT kind, count(*) AS n FROM webmentions WHERE post_path = ? GROUP BY kind", arguments: [path]) {
                switch row["kind"] as String {
                case "like": result.webLikes = row["n"]
                case "repost": result.webReposts = row["n"]
                default: result.webmentionReplies = row["n"]
                }
            }
            result.quotes = try Int.fetchOne(db, sql: """
                SELECT count(*) FROM sent_objects WHERE type = 'QuoteAuthorization' AND deleted_at IS NULL
                  AND json_extract(json, '$.interactionTarget') = ?
                """, arguments: [apID]) ?? 0
            let comments = try Row.fetchOne(db, sql: """
                SELECT sum(state = 'approved' AND author_id LIKE ?) AS bluesky,
                       sum(state = 'approved' AND id IN (SELECT source FROM webmentions WHERE post_path = ? AND kind = 'comment')) AS web,
                       sum(state = 'approved') AS approved, sum(state = 'pending') AS pending
                FROM comments WHERE post_path = ?
                """, arguments: [Self.blueskyBridgePrefix + "%", path, path])
            let approved = comments?["approved"] as Int? ?? 0, bluesky = comments?["bluesky"] as Int? ?? 0
            let web = comments?["web"] as Int? ?? 0
            result.blueskyReplies = bluesky
            result.fediverseReplies = approved - bluesky - web
            result.pendingReplies = comments?["pending"] as Int? ?? 0
            let times = try Row.fetchOne(db, sql: """
                SELECT min(t) AS first, max(t) AS last FROM (
                  SELECT received_at AS t FROM comments WHERE post_path = ? AND state = 'approved'
                  UNION ALL SELECT created_at FROM reactions WHERE post_path = ?
                  UNION ALL SELECT verified_at FROM webmentions WHERE post_path = ?)
                """, arguments: [path, path, path])
            result.first = (times?["first"] as Double?).map(Date.init(timeIntervalSince1970:))
            result.last = (times?["last"] as Double?).map(Date.init(timeIntervalSince1970:))
            return result
        }
    }

    /// Followers by server (the host of their actor id), most first.
    public func followersByServer() throws -> [(host: String, count: Int)] {
        try read { db in
            let ids = try String.fetchAll(db, sql: "SELECT actor_id FROM followers")
            var counts: [String: Int] = [:]
            for id in ids { counts[URLComponents(string: id)?.host ?? "?", default: 0] += 1 }
            return counts.sorted { ($1.value, $0.key) < ($0.value, $1.key) }.map { ($0.key, $0.value) }
        }
    }

    /// Follows and unfollows the inbox applied, by UTC day (`2026-11-23`), oldest first.
    public func followerChanges() throws -> [(day: String, gained: Int, lost: Int)] {
        try read { db in
            try Row.fetchAll(db, sql: """
                SELECT day, sum(CASE WHEN reason = 'follow' THEN count ELSE 0 END) AS gained,
                       sum(CASE WHEN reason = 'unfollow' THEN count ELSE 0 END) AS lost
                FROM inbox_counts WHERE outcome = 'applied' AND reason IN ('follow', 'unfollow') GROUP BY day ORDER BY day
                """).map { ($0["day"], $0["gained"], $0["lost"]) }
        }
    }
}
