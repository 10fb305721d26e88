import Foundation
import GRDB

/// A follower with what the CLI shows of them.
public struct Follower: Sendable, Equatable {
    public var actorID: String
    public var handle: String?
    public var inbox: String
    public var sharedInbox: String?
    public var since: Date
}

extension Store {
    /// Stores a follow (the actor must be saved first). A repeated Follow refreshes the activity id.
    public func addFollower(actorID: String, followActivityID: String, now: Date = Date()) throws {
        try write { db in
            try db.execute(sql: """
                INSERT INTO followers (actor_id, follow_activity_id, created_at) VALUES (?, ?, ?)
                ON CONFLICT(actor_id) DO UPDATE SET follow_activity_id = excluded.follow_activity_id
                """, arguments: [actorID, followActivityID, now.timeIntervalSince1970])
        }
    }

    /// Removes a follow; returns whether there was one.
    @discardableResult
    public func removeFollower(actorID: String) throws -> Bool {
        try write { db in
            try db.execute(sql: "DELETE FROM followers WHERE actor_id = ?", arguments: [actorID])
            return db.changesCount > 0
        }
    }

    /// Removes a follow named by its Follow activity's id (an Undo that gives only the id).
    @discardableResult
    public func removeFollower(actorID: String, followActivityID: String) throws -> Bool {
        try write { db in
            try db.execute(sql: "DELETE FROM followers WHERE actor_id = ? AND follow_activity_id = ?",
                           arguments: [actorID, followActivityID])
            return db.changesCount > 0
        }
    }

    public func isFollower(_ actorID: String) throws -> Bool {
        try read { db in try Bool.fetchOne(db, sql: "SELECT 1 FROM followers WHERE actor_id = ?", arguments: [actorID]) ?? false }
    }

    /// One inbox per follower, a server's shared inbox once for all its followers.
    public func followerInboxes() throws -> [String] {
        try read { db in
            try String.fetchAll(db, sql: """
                SELECT DISTINCT COALESCE(a.shared_inbox, a.inbox) FROM followers f
                JOIN remote_actors a ON a.id = f.actor_id ORDER BY 1
                """)
        }
    }

    public func followers() throws -> [Follower] {
        try read { db in
            try Row.fetchAll(db, sql: """
                SELECT f.actor_id, f.created_at, a.handle, a.inbox, a.shared_inbox FROM followers f
                JOIN remote_actors a ON a.id = f.actor_id ORDER BY f.created_at, f.actor_id
                """).map {
                Follower(actorID: $0["actor_id"], handle: $0["handle"], inbox: $0["inbox"], sharedInbox: $0["shared_inbox"],
                         since: Date(timeIntervalSince1970: $0["created_at"]))
            }
        }
    }
}
