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

/// A row of `mentions`: a note that mentions the blog but replies to nothing on it, kept for
/// the owner's digest only. `contentHTML` is already sanitized.
struct MentionRecord: Codable, UnixTimeRecord {
    static let databaseTableName = "mentions"
    static let author = belongsTo(RemoteActor.self, key: "author")
    var id: String
    var authorID: String
    var url: String?
    var contentHTML: String
    var receivedAt: Date
    var digestedAt: Date?

    enum CodingKeys: String, CodingKey {
        case id, url
        case authorID = "author_id", contentHTML = "content_html", receivedAt = "received_at", digestedAt = "digested_at"
    }

    /// A mention and its author, read in one join.
    struct WithAuthor: Decodable, FetchableRecord {
        var mention: MentionRecord
        var author: RemoteActor
    }
}

/// A row of `digest_numbers`: the comment a digest note numbered, for "hide 3" in an answer.
struct DigestNumber: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "digest_numbers"
    var noteID: String
    var number: Int
    var commentID: String

    enum CodingKeys: String, CodingKey {
        case number
        case noteID = "note_id", commentID = "comment_id"
    }
}

/// The row of `digest_state`: when the last digest went.
struct DigestState: Codable, UnixTimeRecord {
    static let databaseTableName = "digest_state"
    var id = 1
    var lastSentAt: Date?

    enum CodingKeys: String, CodingKey {
        case id
        case lastSentAt = "last_sent_at"
    }
}

/// A comment not reported yet, with its author and its post's title.
private struct UndigestedComment: Decodable, FetchableRecord {
    var comment: CommentRecord
    var author: RemoteActor
    /// Named apart from the comment's own `title` column.
    var postTitle: String

    enum CodingKeys: String, CodingKey {
        case comment, author
        case postTitle = "post_title"
    }
}

extension Digests {
    /// Mentions of the blog that reply to nothing here, kept for the digest.
    public func insertMention(id: String, authorID: String, url: String?, contentHTML: String, now: Date = Date()) throws {
        try write { db in
            try MentionRecord(id: id, authorID: authorID, url: url, contentHTML: contentHTML, receivedAt: now).insert(db, onConflict: .ignore)
        }
    }

    /// Comments and mentions not reported yet, oldest first (rejected comments are left out).
    public func undigestedItems() throws -> [DigestItem] {
        try read { db in
            let comments = try CommentRecord.including(required: CommentRecord.author)
                .annotated(withRequired: CommentRecord.post.select(Column("title").forKey("post_title")))
                .filter(Column("digested_at") == nil && Column("state") != CommentRecord.State.rejected.rawValue)
                .order(Column("received_at"), Column("id")).asRequest(of: UndigestedComment.self).fetchAll(db).map {
                    DigestItem(kind: .comment, id: $0.comment.id, url: $0.comment.url, author: $0.author, contentHTML: $0.comment.contentHTML,
                               postTitle: $0.postTitle, postPath: $0.comment.postPath, state: $0.comment.state.rawValue,
                               receivedAt: $0.comment.receivedAt)
                }
            let mentions = try MentionRecord.including(required: MentionRecord.author).filter(Column("digested_at") == nil)
                .order(Column("received_at"), Column("id")).asRequest(of: MentionRecord.WithAuthor.self).fetchAll(db).map {
                    DigestItem(kind: .mention, id: $0.mention.id, url: $0.mention.url, author: $0.author, contentHTML: $0.mention.contentHTML,
                               postTitle: nil, postPath: nil, state: nil, receivedAt: $0.mention.receivedAt)
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
                try DigestNumber(noteID: note.id, number: number, commentID: commentID).insert(db, onConflict: .replace)
            }
            try DeliveryQueue.enqueue(db, id: activity.id, type: "Create", objectID: note.id, json: activity.json, inboxes: [activity.inbox], now: now)
            for item in items {
                let table = item.kind == .comment ? "comments" : "mentions"
                try db.execute(sql: "UPDATE \(table) SET digested_at = ? WHERE id = ?", arguments: [now.timeIntervalSince1970, item.id])
            }
            try DigestState(lastSentAt: now).upsert(db)
        }
    }

    public func lastDigestSentAt() throws -> Date? {
        try read { db in
            try DigestState.fetchOne(db, key: 1)?.lastSentAt
        }
    }
}

extension Digests {
    /// The comment a digest numbered `number`, or nil.
    public func digestComment(noteID: String, number: Int) throws -> String? {
        try read { db in
            try DigestNumber.fetchOne(db, key: ["note_id": noteID, "number": number])?.commentID
        }
    }
}
