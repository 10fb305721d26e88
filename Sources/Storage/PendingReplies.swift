import Foundation
import GRDB

/// Replies waiting for a parent that has not arrived yet.
public struct PendingReplies: StoreFacade {
    let store: Store
    public init(_ store: Store) { self.store = store }
}

extension Store {
    public var pendingReplies: PendingReplies { PendingReplies(self) }
}

/// A reply waiting for its parent (see migration 0003).
/// A reply waiting for its parent (a row of `pending_replies`).
public struct PendingReply: Sendable, Equatable, Codable, UnixTimeRecord {
    public static let databaseTableName = "pending_replies"

    public var noteID: String
    public var parentID: String
    public var authorID: String
    /// The reply object as received.
    public var json: String
    public var context: String?
    public var receivedAt: Date

    public init(noteID: String, parentID: String, authorID: String, json: String, context: String?, receivedAt: Date) {
        (self.noteID, self.parentID, self.authorID, self.json, self.context, self.receivedAt) =
            (noteID, parentID, authorID, json, context, receivedAt)
    }

    enum CodingKeys: String, CodingKey {
        case json, context
        case noteID = "note_id", parentID = "parent_id", authorID = "author_id", receivedAt = "received_at"
    }
}

extension PendingReplies {
    /// Keeps a reply until its parent arrives (a second copy of the same reply changes nothing).
    public func keepPendingReply(_ reply: PendingReply) throws {
        try write { db in
            try reply.insert(db, onConflict: .ignore)
        }
    }

    /// Replies waiting for `parentID`, oldest first. They stay on the waiting list until
    /// `dropPendingReply` is called for each, once it has been dealt with: a failure halfway
    /// leaves the rest waiting for the next try instead of losing them.
    public func pendingReplies(parentID: String) throws -> [PendingReply] {
        try read { db in
            try PendingReply.fetchAll(db.cachedStatement(sql: "SELECT * FROM pending_replies WHERE parent_id = ? ORDER BY received_at"),
                                      arguments: [parentID])
        }
    }

    /// Replies that waited since before `date`, oldest first; they too stay until dropped.
    public func pendingReplies(receivedBefore date: Date) throws -> [PendingReply] {
        try read { db in
            try PendingReply.filter(Column("received_at") < date.timeIntervalSince1970).order(Column("received_at")).fetchAll(db)
        }
    }

    /// Takes a reply off the waiting list once it has been dealt with.
    public func dropPendingReply(noteID: String) async throws {
        try await writeAsync { db in
            try db.execute(sql: "DELETE FROM pending_replies WHERE note_id = ?", arguments: [noteID])
        }
    }

    public func pendingReplyCount(authorID: String? = nil) throws -> Int {
        try read { db in
            if let authorID {
                return try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM pending_replies WHERE author_id = ?", arguments: [authorID]) ?? 0
            }
            return try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM pending_replies") ?? 0
        }
    }
}
