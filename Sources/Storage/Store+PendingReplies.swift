import Foundation
import GRDB

/// A reply waiting for its parent (see migration 0003).
public struct PendingReply: Sendable, Equatable {
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

    init(row: Row) {
        self.init(noteID: row["note_id"], parentID: row["parent_id"], authorID: row["author_id"], json: row["json"],
                  context: row["context"], receivedAt: Date(timeIntervalSince1970: row["received_at"]))
    }
}

extension Store {
    /// Keeps a reply until its parent arrives (a second copy of the same reply changes nothing).
    public func keepPendingReply(_ reply: PendingReply) throws {
        try write { db in
            try db.execute(sql: """
                INSERT OR IGNORE INTO pending_replies (note_id, parent_id, author_id, json, context, received_at)
                VALUES (?, ?, ?, ?, ?, ?)
                """, arguments: [reply.noteID, reply.parentID, reply.authorID, reply.json, reply.context,
                                 reply.receivedAt.timeIntervalSince1970])
        }
    }

    /// Replies waiting for `parentID`, oldest first. They stay on the waiting list until
    /// `dropPendingReply` is called for each, once it has been dealt with: a failure halfway
    /// leaves the rest waiting for the next try instead of losing them.
    public func pendingReplies(parentID: String) throws -> [PendingReply] {
        try read { db in
            try Row.fetchAll(db.cachedStatement(sql: "SELECT * FROM pending_replies WHERE parent_id = ? ORDER BY received_at"),
                             arguments: [parentID]).map(PendingReply.init(row:))
        }
    }

    /// Replies that waited since before `date`, oldest first; they too stay until dropped.
    public func pendingReplies(receivedBefore date: Date) throws -> [PendingReply] {
        try read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM pending_replies WHERE received_at < ? ORDER BY received_at",
                             arguments: [date.timeIntervalSince1970]).map(PendingReply.init(row:))
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
