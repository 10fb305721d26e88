import Foundation
import GRDB

extension Store {
    /// Automatic answers (to a non-public reply) in all, per hour: the blog's voice is not a
    /// way for strangers to reach third parties in bulk.
    public static let automaticRepliesPerHour = 30

    /// Records an automatic answer to `actorID` about `target` and says whether it may be sent:
    /// one per actor and target a day, `automaticRepliesPerHour` in all.
    public func claimAutomaticReply(to actorID: String, about target: String, now: Date = Date()) throws -> Bool {
        let time = now.timeIntervalSince1970
        return try write { db in
            try db.execute(sql: "DELETE FROM automatic_replies WHERE sent_at < ?", arguments: [time - 86_400])
            let lastHour = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM automatic_replies WHERE sent_at >= ?",
                                            arguments: [time - 3600]) ?? 0
            guard lastHour < Self.automaticRepliesPerHour else { return false }
            try db.execute(sql: "INSERT OR IGNORE INTO automatic_replies (actor_id, target, sent_at) VALUES (?, ?, ?)",
                           arguments: [actorID, target, time])
            return db.changesCount == 1
        }
    }
}
