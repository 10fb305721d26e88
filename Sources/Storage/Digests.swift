import Foundation
import GRDB

/// What the owner has not been told yet, and when the last digest went.
public struct Digests: StoreFacade {
    let store: Store
    public init(_ store: Store) { self.store = store }
}

extension Store {
    public var digests: Digests { Digests(self) }
}

/// Something new for the owner's digest: a comment on a post, or a mention of the blog.
public struct DigestItem: Sendable, Equatable {
    public enum Kind: String, Sendable { case comment, mention }
    public var kind: Kind
    public var id: String
    public var url: String?
    public var author: RemoteActor
    public var contentHTML: String
    /// The post commented on (nil for mentions).
    public var postTitle: String?
    public var postPath: String?
    public var state: String?
    public var receivedAt: Date
}

extension Digests {
    /// Mentions of the blog that reply to nothing here, kept for the digest.
    public func insertMention(id: String, authorID: String, url: String?, contentHTML: String, now: Date = Date()) throws {
        try write { db in
            try db.execute(sql: """
                INSERT OR IGNORE INTO mentions (id, author_id, url, content_html, received_at) VALUES (?, ?, ?, ?, ?)
                """, arguments: [id, authorID, url, contentHTML, now.timeIntervalSince1970])
        }
    }

    /// Comments and mentions not reported yet, oldest first (rejected comments are left out).
    public func undigestedItems() throws -> [DigestItem] {
        try read { db in
            let actorColumns = "a.id AS a_id, a.handle, a.name, a.url AS a_url, a.icon, a.inbox, a.shared_inbox"
            func actor(_ row: Row) -> RemoteActor {
                RemoteActor(id: row["a_id"], handle: row["handle"], name: row["name"], url: row["a_url"], icon: row["icon"],
                            inbox: row["inbox"], sharedInbox: row["shared_inbox"])
            }
            let comments = try Row.fetchAll(db, sql: """
                SELECT c.id, c.url, c.content_html, c.state, c.received_at, c.post_path, p.title, \(actorColumns)
                FROM comments c JOIN remote_actors a ON a.id = c.author_id JOIN posts p ON p.path = c.post_path
                WHERE c.digested_at IS NULL AND c.state != 'rejected' ORDER BY c.received_at, c.id
                """).map {
                DigestItem(kind: .comment, id: $0["id"], url: $0["url"], author: actor($0), contentHTML: $0["content_html"],
                           postTitle: $0["title"], postPath: $0["post_path"], state: $0["state"],
                           receivedAt: Date(timeIntervalSince1970: $0["received_at"]))
            }
            let mentions = try Row.fetchAll(db, sql: """
                SELECT m.id, m.url, m.content_html, m.received_at, \(actorColumns)
                FROM mentions m JOIN remote_actors a ON a.id = m.author_id WHERE m.digested_at IS NULL ORDER BY m.received_at, m.id
                """).map {
                DigestItem(kind: .mention, id: $0["id"], url: $0["url"], author: actor($0), contentHTML: $0["content_html"],
                           postTitle: nil, postPath: nil, state: nil, receivedAt: Date(timeIntervalSince1970: $0["received_at"]))
            }
            return comments + mentions
        }
    }

    /// Marks items as reported and queues the digest message, in one transaction: none is
    /// reported twice or skipped, even if the process stops right here.
    public func recordDigest(items: [DigestItem], activity: (id: String, json: String, inbox: String), note: SentObject,
                             numbers: [Int: String] = [:], now: Date = Date()) throws {
        try write { db in
            try SentObjects.keepSentObject(db, note)
            for (number, commentID) in numbers {
                try db.execute(sql: "INSERT OR REPLACE INTO digest_numbers (note_id, number, comment_id) VALUES (?, ?, ?)",
                               arguments: [note.id, number, commentID])
            }
            try DeliveryQueue.enqueue(db, id: activity.id, type: "Create", objectID: note.id, json: activity.json, inboxes: [activity.inbox], now: now)
            for item in items {
                let table = item.kind == .comment ? "comments" : "mentions"
                try db.execute(sql: "UPDATE \(table) SET digested_at = ? WHERE id = ?", arguments: [now.timeIntervalSince1970, item.id])
            }
            try db.execute(sql: """
                INSERT INTO digest_state (id, last_sent_at) VALUES (1, ?) ON CONFLICT(id) DO UPDATE SET last_sent_at = excluded.last_sent_at
                """, arguments: [now.timeIntervalSince1970])
        }
    }

    public func lastDigestSentAt() throws -> Date? {
        try read { db in
            try Double.fetchOne(db, sql: "SELECT last_sent_at FROM digest_state WHERE id = 1").map(Date.init(timeIntervalSince1970:))
        }
    }
}

extension Digests {
    /// The comment a digest numbered `number`, or nil.
    public func digestComment(noteID: String, number: Int) throws -> String? {
        try read { db in
            try String.fetchOne(db, sql: "SELECT comment_id FROM digest_numbers WHERE note_id = ? AND number = ?",
                                arguments: [noteID, number])
        }
    }
}
