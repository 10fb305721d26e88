import Foundation
import GRDB

/// Answers the blog sends because a stranger asked (the note to a non-public reply, quote
/// answers, an Accept to a follower who follows again), counted per hour so they stay bounded.
public struct AutomaticReplies: StoreFacade {
    let store: Store
    public init(_ store: Store) { self.store = store }
}

extension Store {
    public var automaticReplies: AutomaticReplies { AutomaticReplies(self) }
}

/// A row of `automatic_replies`: one automatic answer to an actor about a target, when it went.
struct AutomaticReply: Codable, UnixTimeRecord {
    static let databaseTableName = "automatic_replies"
    var actorID: String
    /// The post (or comment) replied to, `quote <id>`, `follow`.
    var target: String
    var sentAt: Date

    enum CodingKeys: String, CodingKey {
        case target, actorID = "actor_id", sentAt = "sent_at"
    }
}

extension AutomaticReplies {
    /// Answers the blog sends because a stranger asked — the note to a non-public reply, quote
    /// answers, an Accept to a follower who follows again — in all, per hour: the blog's voice is
    /// not a way for strangers to reach anyone in bulk.
    public static let automaticRepliesPerHour = 60
    /// The same for the actors of one server: one server's people cannot use up everyone's.
    public static let automaticRepliesPerServerPerHour = 10

    /// Records an automatic answer to `actorID` about `target` (a post, `quote <id>`, `follow`)
    /// and says whether it may be sent: one per actor and target a day, `automaticRepliesPerHour`
    /// in all and `automaticRepliesPerServerPerHour` to the actors of one origin.
    public func claimAutomaticReply(to actorID: String, about target: String, now: Date = Date()) throws -> Bool {
        let time = now.timeIntervalSince1970
        let server = Self.originPrefix(actorID)
        return try write { db in
            try db.execute(sql: "DELETE FROM automatic_replies WHERE sent_at < ?", arguments: [time - 86_400])
            let lastHour = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM automatic_replies WHERE sent_at >= ?",
                                            arguments: [time - 3600]) ?? 0
            guard lastHour < Self.automaticRepliesPerHour else { return false }
            // Ids on one origin sort between "origin/" and "origin0" ("0" follows "/").
            let fromServer = try Int.fetchOne(db, sql: """
                SELECT COUNT(*) FROM automatic_replies WHERE sent_at >= ? AND actor_id >= ? AND actor_id < ?
                """, arguments: [time - 3600, server + "/", server + "0"]) ?? 0
            guard fromServer < Self.automaticRepliesPerServerPerHour else { return false }
            try AutomaticReply(actorID: actorID, target: target, sentAt: now).insert(db, onConflict: .ignore)
            return db.changesCount == 1
        }
    }

    /// The id up to its path (`https://host[:port]`, `http://[::1]:8080`), as the ids of one
    /// server begin, compared as stored.
    static func originPrefix(_ actorID: String) -> String {
        guard let scheme = actorID.range(of: "://"), let path = actorID[scheme.upperBound...].firstIndex(of: "/") else { return actorID }
        return String(actorID[..<path])
    }
}
