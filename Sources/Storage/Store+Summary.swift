import Foundation
import GRDB

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
