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
        try database.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM followers") ?? 0 }
    }

    /// Followers' actor ids, oldest first, one page at a time.
    public func followerIDs(limit: Int, offset: Int) throws -> [String] {
        try database.read { db in
            try String.fetchAll(db, sql: "SELECT actor_id FROM followers ORDER BY created_at, actor_id LIMIT ? OFFSET ?",
                                arguments: [limit, offset])
        }
    }

    /// Approved, public or unlisted comments on a post, oldest first.
    public func approvedComments(postPath: String) throws -> [PublicComment] {
        try database.read { db in
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
        try database.read { db in
            let tables = try String.fetchAll(db, sql: """
                SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name != 'grdb_migrations'
                """)
            var counts: [String: Int] = [:]
            for table in tables { counts[table] = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \"\(table)\"") ?? 0 }
            return counts
        }
    }
}
