import Foundation
import GRDB

/// What followers were last told about a post, next to what it is now: the whole row of
/// `posts`, whose announcement columns (Unix seconds) `PostRecord` leaves to this type.
public struct PublicationState: Sendable, Equatable, Decodable, UnixTimeRow {
    public var post: PostRecord
    public var announcedAt: Date?
    public var federatedHash: String?
    public var deleteSentAt: Date?

    enum CodingKeys: String, CodingKey {
        case post
        case announcedAt = "announced_at", federatedHash = "federated_hash", deleteSentAt = "delete_sent_at"
    }

    public enum Needed: Sendable, Equatable { case create, update, delete, nothing }

    public var needed: Needed {
        // Removed, or kept off the fediverse (`federate: false`): followers who saw it hear it is gone.
        if post.deletedAt != nil || !post.federate { return announcedAt != nil && deleteSentAt == nil ? .delete : .nothing }
        if announcedAt == nil || deleteSentAt != nil { return .create }
        return federatedHash == post.contentHash ? .nothing : .update
    }
}

extension Posts {
    public func publicationStates() throws -> [PublicationState] {
        try read { db in
            try PublicationState.fetchAll(db, sql: "SELECT * FROM posts ORDER BY published_at")
        }
    }

    /// Records that followers were told (or, with no activity, deliberately not told) about a
    /// post, queueing the activity in the same transaction: a crash leaves either both or neither.
    /// With `heldFor`, the deliveries wait until the server serves that site generation.
    public func recordPublication(path: String, _ kind: PublicationState.Needed, contentHash: String,
                                  activity: (id: String, type: String, json: String, inboxes: [String])?,
                                  objectID: String, heldFor generation: Int? = nil, now: Date = Date()) throws {
        try write { db in
            if let activity {
                try DeliveryQueue.enqueue(db, id: activity.id, type: activity.type, objectID: objectID, json: activity.json,
                                 inboxes: activity.inboxes, now: now, heldFor: generation)
            }
            switch kind {
            case .create, .update:
                try db.execute(sql: """
                    UPDATE posts SET announced_at = COALESCE(CASE WHEN delete_sent_at IS NULL THEN announced_at END, ?),
                        federated_hash = ?, delete_sent_at = NULL WHERE path = ?
                    """, arguments: [now.timeIntervalSince1970, contentHash, path])
            case .delete:
                try db.execute(sql: "UPDATE posts SET delete_sent_at = ? WHERE path = ?", arguments: [now.timeIntervalSince1970, path])
            case .nothing:
                break
            }
        }
    }
}
