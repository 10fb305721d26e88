import Foundation
import GRDB

/// Comments on posts (replies from the fediverse, webmentions) and the tombstones of deleted ones.
public struct Comments: StoreFacade {
    let store: Store
    public init(_ store: Store) { self.store = store }
    /// Whether a read waits for a write in progress (see `Store.readsWaitForWrites`).
    public var readsWaitForWrites: Bool { store.readsWaitForWrites }
}

extension Store {
    public var comments: Comments { Comments(self) }
}

/// A reply to a post, stored as a comment (a row of `comments`). `contentHTML` must already be sanitized.
public struct CommentRecord: Sendable, Equatable, Codable, UnixTimeRecord {
    public static let databaseTableName = "comments"
    public enum Visibility: String, Sendable, Codable { case `public`, unlisted }
    public enum State: String, Sendable, Codable, CaseIterable { case pending, approved, rejected }

    public var id: String
    public var postPath: String
    public var parentID: String?
    public var authorID: String
    public var url: String?
    public var contentHTML: String
    public var summary: String?
    public var sensitive: Bool
    public var language: String?
    public var visibility: Visibility
    public var state: State
    public var publishedAt: Date
    public var updatedAt: Date?
    public var receivedAt: Date
    /// What the author posted it as (`Note`, `Article`, `Question`…), and its title when it has one.
    public var kind = "Note"
    public var title: String?
    /// Attachments and poll as JSON (their URLs already checked), and the URL of a quoted post.
    public var attachments: String?
    public var poll: String?
    public var quoteURL: String?

    enum CodingKeys: String, CodingKey {
        case id, url, summary, sensitive, language, visibility, state, kind, title, attachments, poll
        case postPath = "post_path", parentID = "parent_id", authorID = "author_id", contentHTML = "content_html"
        case publishedAt = "published_at", updatedAt = "updated_at", receivedAt = "received_at", quoteURL = "quote_url"
    }

    public init(id: String, postPath: String, parentID: String?, authorID: String, url: String?, contentHTML: String,
                summary: String?, sensitive: Bool, language: String?, visibility: Visibility, state: State,
                publishedAt: Date, updatedAt: Date? = nil, receivedAt: Date = Date()) {
        (self.id, self.postPath, self.parentID, self.authorID, self.url, self.contentHTML) =
            (id, postPath, parentID, authorID, url, contentHTML)
        (self.summary, self.sensitive, self.language, self.visibility, self.state) = (summary, sensitive, language, visibility, state)
        (self.publishedAt, self.updatedAt, self.receivedAt) = (publishedAt, updatedAt, receivedAt)
    }
}

/// A comment with its author, for the page, the CLI and the digest.
public struct ShownComment: Sendable, Equatable, Decodable, FetchableRecord {
    public var comment: CommentRecord
    public var author: RemoteActor
}

extension CommentRecord {
    static let author = belongsTo(RemoteActor.self, key: "author")
    static let post = belongsTo(PostRecord.self, key: "post")
}

extension Comments {
    /// Stores a new comment; false when one with this id exists (a duplicate delivery). The
    /// caller suspends while the writer works (the inbox worker runs on the cooperative pool).
    @discardableResult
    /// Comments received since `since` on the post at `path`, and by authors on `host` (`a.example`,
    /// `127.0.0.1:8080`): what reading threads may still take today.
    public func receivedSince(_ since: Date, postPath path: String, authorHost host: String) throws -> (onPost: Int, fromHost: Int) {
        try read { db in
            let time = since.timeIntervalSince1970
            let onPost = try Int.fetchOne(db, sql: "SELECT count(*) FROM comments WHERE post_path = ? AND received_at >= ?",
                                          arguments: [path, time]) ?? 0
            let fromHost = try Int.fetchOne(db, sql: """
                SELECT count(*) FROM comments WHERE received_at >= ? AND (author_id LIKE ? OR author_id LIKE ?)
                """, arguments: [time, "https://\(host)/%", "http://\(host)/%"]) ?? 0
            return (onPost, fromHost)
        }
    }

    public func insertComment(_ c: CommentRecord) async throws -> Bool {
        try await writeAsync { db in
            try c.insert(db, onConflict: .ignore)
            return db.changesCount == 1
        }
    }

    public func comment(id: String) throws -> CommentRecord? {
        try read { db in
            try CommentRecord.fetchOne(db, key: id)
        }
    }

    /// Edits a comment, only when `edit.authorID` wrote it: its text, warning, title, attachments,
    /// poll and quote (id, post, parent and state stay), and only with an edit newer than the one
    /// it shows. Returns the post path when it changed.
    public func editComment(_ edit: CommentRecord) throws -> String? {
        try write { db in
            try db.execute(sql: """
                UPDATE comments SET content_html = ?, summary = ?, sensitive = ?, updated_at = ?, kind = ?, title = ?,
                    attachments = ?, poll = ?, quote_url = ?
                WHERE id = ? AND author_id = ? AND (updated_at IS NULL OR updated_at < ?)
                """, arguments: [edit.contentHTML, edit.summary, edit.sensitive, (edit.updatedAt ?? edit.receivedAt).timeIntervalSince1970,
                                 edit.kind, edit.title, edit.attachments, edit.poll, edit.quoteURL, edit.id, edit.authorID,
                                 (edit.updatedAt ?? edit.receivedAt).timeIntervalSince1970])
            let id = edit.id
            guard db.changesCount == 1 else { return nil }
            return try String.fetchOne(db, sql: "SELECT post_path FROM comments WHERE id = ?", arguments: [id])
        }
    }

    /// Deletes a comment, only when `authorID` wrote it. Returns the post path when it existed.
    public func deleteComment(id: String, authorID: String, activityID: String? = nil, now: Date = Date()) throws -> String? {
        try write { db in
            let path = try String.fetchOne(db, sql: "SELECT post_path FROM comments WHERE id = ? AND author_id = ?",
                                           arguments: [id, authorID])
            if path != nil { try db.execute(sql: "DELETE FROM comments WHERE id = ?", arguments: [id]) }
            var removed = path != nil
            try db.execute(sql: "DELETE FROM mentions WHERE id = ? AND author_id = ?", arguments: [id, authorID])
            removed = removed || db.changesCount > 0
            try db.execute(sql: "DELETE FROM pending_replies WHERE note_id = ? AND author_id = ?", arguments: [id, authorID])
            removed = removed || db.changesCount > 0
            if removed {
                try Self.bury(db, id, activityID: activityID, now: now)
            } else if try !Self.isKnown(db, id) {
                // A Delete may overtake its Create (a retry, a slow queue): an id never seen is
                // kept too, briefly (`pruneTombstones`), so the late Create finds it.
                try Self.bury(db, id, activityID: activityID, now: now, hadObject: false)
            }
            return path
        }
    }

    /// Whether the id is a comment, mention or waiting reply (someone else's, as the caller
    /// knows it is not the deleter's) or an actor: then a Delete of it buries nothing.
    static func isKnown(_ db: Database, _ id: String) throws -> Bool {
        try Bool.fetchOne(db, sql: """
            SELECT EXISTS (SELECT 1 FROM comments WHERE id = ?1) OR EXISTS (SELECT 1 FROM mentions WHERE id = ?1)
                OR EXISTS (SELECT 1 FROM pending_replies WHERE note_id = ?1) OR EXISTS (SELECT 1 FROM remote_actors WHERE id = ?1)
            """, arguments: [id]) ?? false
    }

    /// An upsert by hand: `had_object` never goes back to 0.
    static func bury(_ db: Database, _ id: String, activityID: String?, now: Date, hadObject: Bool = true) throws {
        try db.execute(sql: """
            INSERT INTO remote_tombstones (object_id, activity_id, deleted_at, had_object) VALUES (?, ?, ?, ?)
            ON CONFLICT(object_id) DO UPDATE SET activity_id = excluded.activity_id, deleted_at = excluded.deleted_at,
                had_object = MAX(had_object, excluded.had_object)
            """, arguments: [id, activityID, now.timeIntervalSince1970, hadObject])
    }

    /// When a remote object the blog had was deleted by its author, or nil.
    public func tombstone(id: String) throws -> Date? {
        try read { db in
            try RemoteTombstone.fetchOne(db, key: id)?.deletedAt
        }
    }

    /// Lifts a tombstone: the object's origin serves it again, edited after the deletion.
    public func liftTombstone(id: String) throws {
        _ = try write { db in try RemoteTombstone.deleteOne(db, key: id) }
    }

    /// Forgets tombstones: of objects the blog had, after 90 days; of ids it never saw, after 2.
    public func pruneTombstones(now: Date = Date()) throws {
        let time = now.timeIntervalSince1970
        try write { db in
            try db.execute(sql: "DELETE FROM remote_tombstones WHERE deleted_at < ? OR (had_object = 0 AND deleted_at < ?)",
                           arguments: [time - 90 * 86_400, time - 2 * 86_400])
        }
    }

    /// An actor deleted their account: their comments, reactions and follow go. Returns the
    /// paths of the posts whose discussion changed.
    public func deleteActorContent(actorID: String) throws -> Set<String> {
        try write { db in
            var paths = Set(try String.fetchAll(db, sql: "SELECT DISTINCT post_path FROM comments WHERE author_id = ?",
                                                arguments: [actorID]))
            paths.formUnion(try String.fetchAll(db, sql: "SELECT DISTINCT post_path FROM reactions WHERE actor_id = ?",
                                                arguments: [actorID]))
            for id in try String.fetchAll(db, sql: "SELECT id FROM comments WHERE author_id = ?", arguments: [actorID]) {
                try Self.bury(db, id, activityID: nil, now: Date())
            }
            try db.execute(sql: "DELETE FROM comments WHERE author_id = ?", arguments: [actorID])
            try db.execute(sql: "DELETE FROM pending_replies WHERE author_id = ?", arguments: [actorID])
            try db.execute(sql: "DELETE FROM reactions WHERE actor_id = ?", arguments: [actorID])
            try db.execute(sql: "DELETE FROM mentions WHERE author_id = ?", arguments: [actorID])
            try db.execute(sql: "DELETE FROM followers WHERE actor_id = ?", arguments: [actorID])
            return paths
        }
    }

    /// Whether the actor has a comment the owner approved (`first-time` moderation trusts them).
    public func hasApprovedComment(authorID: String) throws -> Bool {
        try read { db in
            try Bool.fetchOne(db.cachedStatement(sql: "SELECT 1 FROM comments WHERE author_id = ? AND state = 'approved' LIMIT 1"),
                              arguments: [authorID]) ?? false
        }
    }

    /// Moderation: sets a comment's state. Returns its post path when it exists.
    public func setCommentState(id: String, _ state: CommentRecord.State) throws -> String? {
        try write { db in
            try db.execute(sql: "UPDATE comments SET state = ? WHERE id = ?", arguments: [state.rawValue, id])
            return try String.fetchOne(db, sql: "SELECT post_path FROM comments WHERE id = ?", arguments: [id])
        }
    }

    /// Moderation: removes a comment whoever wrote it. Returns its post path.
    public func removeComment(id: String) throws -> String? {
        try write { db in
            let path = try String.fetchOne(db, sql: "SELECT post_path FROM comments WHERE id = ?", arguments: [id])
            try db.execute(sql: "DELETE FROM comments WHERE id = ?", arguments: [id])
            return path
        }
    }

    /// Comments with their authors, newest first; all states unless one is given.
    /// One comment with its author, or nil.
    public func shownComment(id: String) throws -> ShownComment? {
        guard let comment = try comment(id: id), let author = try store.actors.remoteActor(id: comment.authorID) else { return nil }
        return ShownComment(comment: comment, author: author)
    }

    public func comments(state: CommentRecord.State? = nil, postPath: String? = nil, authorID: String? = nil,
                         limit: Int = 1000) throws -> [ShownComment] {
        try read { db in
            var request = CommentRecord.including(required: CommentRecord.author)
            if let state { request = request.filter(Column("state") == state.rawValue) }
            if let postPath { request = request.filter(Column("post_path") == postPath) }
            if let authorID { request = request.filter(Column("author_id") == authorID) }
            return try request.order(Column("published_at").desc, Column("id")).limit(limit).asRequest(of: ShownComment.self).fetchAll(db)
        }
    }

    /// Post paths that have approved comments or reactions (what pages show).
    public func postsWithDiscussion() throws -> [String] {
        try read { db in
            try String.fetchAll(db, sql: """
                SELECT post_path FROM comments WHERE state = 'approved' UNION SELECT post_path FROM reactions
                """)
        }
    }
}

/// A comment as the replies collection lists it.
public struct PublicComment: Equatable, Sendable, FetchableRecord, Decodable {
    public var id: String
    public var publishedAt: Date

    enum CodingKeys: String, CodingKey {
        case id, publishedAt = "published_at"
    }
}

extension Comments {
    /// Approved, public or unlisted comments on a post, oldest first.
    public func approvedComments(postPath: String) throws -> [PublicComment] {
        try read { db in
            try PublicComment.fetchAll(db, sql: """
                SELECT id, published_at FROM comments
                WHERE post_path = ? AND state = 'approved' ORDER BY published_at, id
                """, arguments: [postPath])
        }
    }
}

/// A row of `remote_tombstones`: a remote object its author deleted, so that a late copy of it
/// is not stored again.
struct RemoteTombstone: Codable, UnixTimeRecord {
    static let databaseTableName = "remote_tombstones"
    var objectID: String
    /// The Delete that removed it.
    var activityID: String?
    var deletedAt: Date
    /// False: deleted before it arrived.
    var hadObject: Bool

    enum CodingKeys: String, CodingKey {
        case objectID = "object_id", activityID = "activity_id", deletedAt = "deleted_at", hadObject = "had_object"
    }
}
