import Foundation
import GRDB

/// The accounts the blog follows (the owner's account, the Bluesky bridge).
public struct Following: StoreFacade {
    let store: Store
    public init(_ store: Store) { self.store = store }
}

extension Store {
    public var following: Following { Following(self) }
}

/// An account the blog follows (`lectern follow`), with what the CLI and the blogroll show of it.
public struct FollowedAccount: Sendable, Equatable {
    public enum State: String, Sendable, Codable { case pending, accepted, rejected }

    public var actor: RemoteActor
    public var followActivityID: String
    public var state: State
    public var since: Date
    /// When the Accept or Reject came.
    public var answeredAt: Date?
}

/// A row of `following`; with its actor, what `FollowedAccount` shows.
struct FollowRecord: Codable, UnixTimeRecord {
    static let databaseTableName = "following"
    static let actor = belongsTo(RemoteActor.self, key: "actor")
    var actorID: String
    var followActivityID: String
    var state: FollowedAccount.State
    var createdAt: Date
    var answeredAt: Date?
    /// This follow came from a Move (or was one's target): no Move from it for a day.
    var movedAt: Date?
    /// When a Move from this account last cost a fetch of its target (one an hour).
    var moveFetchedAt: Date?

    enum CodingKeys: String, CodingKey {
        case state
        case actorID = "actor_id", followActivityID = "follow_activity_id", createdAt = "created_at"
        case answeredAt = "answered_at", movedAt = "moved_at", moveFetchedAt = "move_fetched_at"
    }

    /// A follow and its actor, read in one join.
    struct WithActor: Decodable, FetchableRecord {
        var follow: FollowRecord
        var actor: RemoteActor

        var account: FollowedAccount {
            FollowedAccount(actor: actor, followActivityID: follow.followActivityID, state: follow.state, since: follow.createdAt,
                            answeredAt: follow.answeredAt)
        }
    }

    static func withActor() -> QueryInterfaceRequest<WithActor> {
        including(required: actor).order(Column("created_at"), Column("actor_id")).asRequest(of: WithActor.self)
    }
}

extension Following {
    /// Records a Follow the blog is sending (the actor must be saved first): pending, with this
    /// activity id, whatever was recorded before (a follow sent again after a Reject).
    public func recordFollow(actorID: String, followActivityID: String, now: Date = Date()) throws {
        try write { db in
            try db.execute(sql: """
                INSERT INTO following (actor_id, follow_activity_id, state, created_at) VALUES (?, ?, 'pending', ?)
                ON CONFLICT(actor_id) DO UPDATE SET follow_activity_id = excluded.follow_activity_id, state = 'pending',
                    created_at = excluded.created_at, answered_at = NULL
                """, arguments: [actorID, followActivityID, now.timeIntervalSince1970])
        }
    }

    /// Applies the followed account's answer to the Follow `followActivityID`: only that follow's
    /// own answer counts (the row is found by both the actor and the id the blog sent). Pending
    /// becomes accepted or rejected, and an accepted follow may still be rejected (the account
    /// removed the blog); a rejected one is never accepted again by a late Accept. Returns
    /// whether anything changed.
    public func answerFollow(actorID: String, followActivityID: String, accepted: Bool, now: Date = Date()) throws -> Bool {
        try write { db in
            let from = accepted ? "('pending')" : "('pending', 'accepted')"
            try db.execute(sql: """
                UPDATE following SET state = ?, answered_at = ?
                WHERE actor_id = ? AND follow_activity_id = ? AND state IN \(from)
                """, arguments: [accepted ? "accepted" : "rejected", now.timeIntervalSince1970, actorID, followActivityID])
            return db.changesCount > 0
        }
    }

    /// Forgets a follow; returns the id of the Follow it had (for the Undo), nil when there was none.
    @discardableResult
    public func removeFollow(actorID: String) throws -> String? {
        try write { db in
            let id = try String.fetchOne(db, sql: "SELECT follow_activity_id FROM following WHERE actor_id = ?", arguments: [actorID])
            try db.execute(sql: "DELETE FROM following WHERE actor_id = ?", arguments: [actorID])
            return id
        }
    }

    /// Every account the blog follows or asked to follow, oldest first (`state`: only those).
    public func followedAccounts(state: FollowedAccount.State? = nil) throws -> [FollowedAccount] {
        try read { db in
            var request = FollowRecord.withActor()
            if let state { request = request.filter(Column("state") == state.rawValue) }
            return try request.fetchAll(db).map(\.account)
        }
    }

    public func followedAccount(actorID: String) throws -> FollowedAccount? {
        try read { db in
            try FollowRecord.withActor().filter(key: actorID).fetchOne(db)?.account
        }
    }

    /// Whether the blog follows (or asked to follow) this actor: the inbox acts on an `Accept`,
    /// `Reject` or `Move` only from them.
    public func isFollowing(_ actorID: String) throws -> Bool {
        try read { db in
            try Bool.fetchOne(db.cachedStatement(sql: "SELECT 1 FROM following WHERE actor_id = ?"), arguments: [actorID]) ?? false
        }
    }

    /// Accepted follows, for the actor's `following` collection: how many, and one page of ids.
    public func acceptedFollowCount() throws -> Int {
        try read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM following WHERE state = 'accepted'") ?? 0 }
    }

    public func acceptedFollowIDs(limit: Int, offset: Int) throws -> [String] {
        try read { db in
            try String.fetchAll(db, sql: """
                SELECT actor_id FROM following WHERE state = 'accepted' ORDER BY created_at, actor_id LIMIT ? OFFSET ?
                """, arguments: [limit, offset])
        }
    }

    /// A Move was applied into `actorID`'s follow (it is the target): for `interval` no Move
    /// from it is applied, so two accounts naming each other cannot bounce the blog between them.
    public func markMoved(actorID: String, now: Date = Date()) throws {
        try write { db in
            try db.execute(sql: "UPDATE following SET moved_at = ? WHERE actor_id = ?", arguments: [now.timeIntervalSince1970, actorID])
        }
    }

    /// Whether a Move into `actorID`'s follow was applied less than `interval` ago.
    public func movedRecently(actorID: String, interval: TimeInterval = 86_400, now: Date = Date()) throws -> Bool {
        try read { db in
            try Bool.fetchOne(db, sql: "SELECT 1 FROM following WHERE actor_id = ? AND moved_at > ?",
                              arguments: [actorID, now.timeIntervalSince1970 - interval]) ?? false
        }
    }

    /// Claims the one fetch of a Move's target that a followed account gets per `interval`;
    /// false when it had one less than `interval` ago (or is not followed).
    public func claimMoveFetch(actorID: String, interval: TimeInterval = 3600, now: Date = Date()) throws -> Bool {
        try write { db in
            try db.execute(sql: """
                UPDATE following SET move_fetched_at = ? WHERE actor_id = ? AND (move_fetched_at IS NULL OR move_fetched_at <= ?)
                """, arguments: [now.timeIntervalSince1970, actorID, now.timeIntervalSince1970 - interval])
            return db.changesCount > 0
        }
    }

    /// FEP-8fcf: claims the hour's reconciliation for `key` (a followed actor's id, or `host:port`
    /// for a server's other accounts); false when one ran less than `interval` ago.
    public func claimFollowersSync(key host: String, interval: TimeInterval = 3600, now: Date = Date()) async throws -> Bool {
        try await writeAsync { db in
            try db.execute(sql: """
                INSERT INTO followers_sync (host, reconciled_at) VALUES (?, ?)
                ON CONFLICT(host) DO UPDATE SET reconciled_at = excluded.reconciled_at
                WHERE followers_sync.reconciled_at <= ?
                """, arguments: [host, now.timeIntervalSince1970, now.timeIntervalSince1970 - interval])
            return db.changesCount > 0
        }
    }
}
