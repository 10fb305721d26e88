import Foundation
import GRDB

/// The blog's followers.
public struct Followers: StoreFacade {
    let store: Store
    public init(_ store: Store) { self.store = store }
}

extension Store {
    public var followers: Followers { Followers(self) }
}

/// A follower with what the CLI shows of them.
public struct Follower: Sendable, Equatable {
    public var actorID: String
    public var handle: String?
    public var inbox: String
    public var sharedInbox: String?
    public var since: Date
}

/// A row of `followers`.
struct FollowerRecord: Codable, UnixTimeRecord {
    static let databaseTableName = "followers"
    static let actor = belongsTo(RemoteActor.self, key: "actor")
    var actorID: String
    var followActivityID: String
    var createdAt: Date

    enum CodingKeys: String, CodingKey {
        case actorID = "actor_id", followActivityID = "follow_activity_id", createdAt = "created_at"
    }

    /// A follower and its actor, read in one join.
    struct WithActor: Decodable, FetchableRecord {
        var follower: FollowerRecord
        var actor: RemoteActor

        var shown: Follower {
            Follower(actorID: follower.actorID, handle: actor.handle, inbox: actor.inbox, sharedInbox: actor.sharedInbox,
                     since: follower.createdAt)
        }
    }
}

extension Followers {
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
            try FollowerRecord.including(required: FollowerRecord.actor).order(Column("created_at"), Column("actor_id"))
                .asRequest(of: FollowerRecord.WithActor.self).fetchAll(db).map(\.shown)
        }
    }
}

extension Followers {
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
}
