import Foundation
import GRDB

/// Likes and boosts of posts.
public struct Reactions: StoreFacade {
    let store: Store
    public init(_ store: Store) { self.store = store }
}

extension Store {
    public var reactions: Reactions { Reactions(self) }
}

/// A row of `reactions`: one like or announce of a post by one actor.
struct ReactionRecord: Codable, UnixTimeRecord {
    static let databaseTableName = "reactions"
    var activityID: String
    var kind: Reactions.ReactionKind
    var postPath: String
    var actorID: String
    var createdAt: Date

    enum CodingKeys: String, CodingKey {
        case kind
        case activityID = "activity_id", postPath = "post_path", actorID = "actor_id", createdAt = "created_at"
    }
}

extension Reactions {
    public enum ReactionKind: String, Sendable, Codable { case like, announce }

    /// Counts a like or announce once per actor and post. Returns whether it was new.
    @discardableResult
    public func addReaction(activityID: String, kind: ReactionKind, postPath: String, actorID: String,
                            now: Date = Date()) throws -> Bool {
        try write { db in
            try ReactionRecord(activityID: activityID, kind: kind, postPath: postPath, actorID: actorID, createdAt: now)
                .insert(db, onConflict: .ignore)
            return db.changesCount == 1
        }
    }

    /// Undo of a like or announce, by its activity id, only by the actor who made it (or, since
    /// some servers send a fresh id, by kind, actor and post). Returns the post path.
    public func removeReaction(activityID: String, actorID: String, kind: ReactionKind? = nil,
                               postPath: String? = nil) throws -> String? {
        try write { db in
            var path = try String.fetchOne(db, sql: "SELECT post_path FROM reactions WHERE activity_id = ? AND actor_id = ?",
                                           arguments: [activityID, actorID])
            if path != nil {
                try db.execute(sql: "DELETE FROM reactions WHERE activity_id = ?", arguments: [activityID])
            } else if let kind, let postPath {
                try db.execute(sql: "DELETE FROM reactions WHERE kind = ? AND post_path = ? AND actor_id = ?",
                               arguments: [kind.rawValue, postPath, actorID])
                if db.changesCount > 0 { path = postPath }
            }
            return path
        }
    }

    public func reactionCounts(postPath: String) throws -> (likes: Int, announces: Int) {
        try read { db in
            let rows = try Row.fetchAll(db, sql: "SELECT kind, COUNT(*) AS n FROM reactions WHERE post_path = ? GROUP BY kind",
                                        arguments: [postPath])
            var counts = (likes: 0, announces: 0)
            for row in rows {
                if row["kind"] == "like" { counts.likes = row["n"] } else { counts.announces = row["n"] }
            }
            return counts
        }
    }
}

extension Reactions {
    /// Like and announce counts of every post that has any.
    public func allReactionCounts() throws -> [String: (likes: Int, announces: Int)] {
        try read { db in
            var counts: [String: (likes: Int, announces: Int)] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT post_path, kind, COUNT(*) AS n FROM reactions GROUP BY post_path, kind") {
                let path: String = row["post_path"]
                if row["kind"] == "like" { counts[path, default: (0, 0)].likes = row["n"] }
                else { counts[path, default: (0, 0)].announces = row["n"] }
            }
            return counts
        }
    }
}
