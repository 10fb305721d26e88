import Foundation
import GRDB

/// A comment as the replies collection lists it.
public struct PublicComment: Equatable, Sendable, FetchableRecord, Decodable {
    public var id: String
    public var publishedAt: Date

    enum CodingKeys: String, CodingKey {
        case id, publishedAt = "published_at"
    }
}

extension Store {
    public func followerCount() throws -> Int {
        try read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM followers") ?? 0 }
    }

    /// Followers' actor ids, oldest first, one page at a time.
    public func followerIDs(limit: Int, offset: Int) throws -> [String] {
        try read { db in
            try String.fetchAll(db, sql: "SELECT actor_id FROM followers ORDER BY created_at, actor_id LIMIT ? OFFSET ?",
                                arguments: [limit, offset])
        }
    }

    /// The followers whose ids are on `origin` (`https://host[:port]`, no trailing slash): the
    /// partial collection of FEP-8fcf. A range over the primary key, not a scan.
    public func followerIDs(onOrigin origin: String) throws -> [String] {
        try read { db in
            try String.fetchAll(db, sql: "SELECT actor_id FROM followers WHERE actor_id >= ? AND actor_id < ? ORDER BY actor_id",
                                arguments: [origin + "/", origin + "0"])
        }
    }

    /// Approved, public or unlisted comments on a post, oldest first.
    public func approvedComments(postPath: String) throws -> [PublicComment] {
        try read { db in
            try PublicComment.fetchAll(db, sql: """
                SELECT id, published_at FROM comments
                WHERE post_path = ? AND state = 'approved' ORDER BY published_at, id
                """, arguments: [postPath])
        }
    }
}

extension Store {
    /// Rows per table (`lectern doctor`, and tests that check a refusal stored nothing).
    public func rowCounts() throws -> [String: Int] {
        try read { db in
            let tables = try String.fetchAll(db, sql: """
                SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name != 'grdb_migrations'
                """)
            var counts: [String: Int] = [:]
            for table in tables { counts[table] = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \"\(table)\"") ?? 0 }
            return counts
        }
    }
}

/// The numbers `lectern status` shows, read in one transaction.
public struct StoreSummary: Sendable, Equatable {
    public var posts = 0
    public var followers = 0
    public var followersThisWeek = 0
    public var commentsPending = 0
    public var commentsApproved = 0
}

extension Store {
    public func summary(now: Date = Date()) throws -> StoreSummary {
        try read { db in
            func count(_ sql: String, _ arguments: StatementArguments = []) throws -> Int {
                try Int.fetchOne(db, sql: sql, arguments: arguments) ?? 0
            }
            var summary = StoreSummary()
            summary.posts = try count("SELECT COUNT(*) FROM posts WHERE deleted_at IS NULL")
            summary.followers = try count("SELECT COUNT(*) FROM followers")
            summary.followersThisWeek = try count("SELECT COUNT(*) FROM followers WHERE created_at >= ?",
                                                  [now.addingTimeInterval(-7 * 86_400).timeIntervalSince1970])
            summary.commentsPending = try count("SELECT COUNT(*) FROM comments WHERE state = 'pending'")
            summary.commentsApproved = try count("SELECT COUNT(*) FROM comments WHERE state = 'approved'")
            return summary
        }
    }
}
