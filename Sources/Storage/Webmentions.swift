import Foundation
import GRDB
/// Webmentions: the receiving queue, the kept ones and the links sent.
public struct Webmentions: StoreFacade {
    let store: Store
    public init(_ store: Store) { self.store = store }
    /// The folder that holds the database (what `FullDiskBackoff` watches).
    public var databaseFolder: String { store.databaseFolder }
}

extension Store {
    public var webmentions: Webmentions { Webmentions(self) }
}

#if canImport(Glibc)
import Glibc
#endif

/// A webmention received and waiting to be verified (a row of `webmention_queue`).
public struct QueuedWebmention: Sendable, Equatable, Codable, FetchableRecord, TableRecord {
    public static let databaseTableName = "webmention_queue"
    public var seq: Int64
    public var source: String
    public var target: String
    public var postPath: String
    public var attempts: Int
    /// The source's site (`Webmentions.webmentionSite`): the worker verifies one per site at a time.
    public var site: String

    enum CodingKeys: String, CodingKey {
        case seq, source, target, attempts, postPath = "post_path", site = "source_site"
    }
}

/// A row of `webmention_links`: an external link a post had when its webmentions were queued.
struct WebmentionLink: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "webmention_links"
    var postPath: String
    var target: String

    enum CodingKeys: String, CodingKey {
        case target, postPath = "post_path"
    }
}

/// A verified webmention and what it became (a row of `webmentions`).
public struct KeptWebmention: Sendable, Equatable, Codable, FetchableRecord, TableRecord {
    public static let databaseTableName = "webmentions"
    public enum Kind: String, Sendable, Codable { case comment, like, repost }
    public var source: String
    public var target: String
    public var postPath: String
    public var kind: Kind
    public var authorID: String

    public init(source: String, target: String, postPath: String, kind: Kind, authorID: String) {
        (self.source, self.target, self.postPath, self.kind, self.authorID) = (source, target, postPath, kind, authorID)
    }

    enum CodingKeys: String, CodingKey {
        case source, target, kind, postPath = "post_path", authorID = "author_id"
    }
}

extension Webmentions {
    /// Bounds of the received queue: per source site (`webmentionSite`), and in all.
    public static let webmentionsQueuedPerHost = 20
    public static let webmentionsQueuedInAll = 1_000
    /// Webmentions from one source site verified and kept in the last hour: past this, its new
    /// ones wait (429) until the hour has passed, so one domain cannot fill a post's comments.
    public static let webmentionsKeptPerHostPerHour = 60

    public enum WebmentionQueueResult: Sendable, Equatable {
        case queued
        /// The source's site already has `webmentionsQueuedPerHost` waiting, or
        /// `webmentionsKeptPerHostPerHour` kept in the last hour.
        case hostFull
        /// `webmentionsQueuedInAll` are waiting.
        case queueFull
    }

    /// The site a host belongs to, as the bounds count it: its registrable domain by the Public
    /// Suffix List (`a1.evil.example` and `s0.bad.io` are `evil.example` and `bad.io`;
    /// `x.honest.co.uk` is `honest.co.uk`). An IP literal's site is its network: the /24 of an
    /// IPv4 address, the /64 of an IPv6 one (what one machine or one customer usually has).
    /// Hosts come in one canonical form (lower case, no trailing dot); the receiver refuses
    /// numeric hosts other than a dotted quad or a bracketed IPv6 address, so one address is
    /// one site.
    public static func webmentionSite(_ host: String) -> String {
        let host = host.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "."))
        let bare = host.trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        var v6 = in6_addr()
        if bare.contains(":"), inet_pton(AF_INET6, bare, &v6) == 1 {
            let bytes = withUnsafeBytes(of: v6) { Array($0.prefix(8)) }
            return stride(from: 0, to: 8, by: 2).map { String(Int(bytes[$0]) << 8 | Int(bytes[$0 + 1]), radix: 16) }.joined(separator: ":") + "::/64"
        }
        let labels = host.split(separator: ".", omittingEmptySubsequences: false)
        if labels.count == 4, labels.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isNumber) }) {
            return labels.prefix(3).joined(separator: ".") + ".0/24"
        }
        return RegistrableDomain.of(host)
    }

    /// Queues a received webmention for verification, within the bounds (counted per site). A
    /// re-send of the same (source, target) while it waits takes no second row and obeys the
    /// hourly bound too; it keeps its attempts (a source that keeps failing is dropped after
    /// `failWebmention`'s tries whatever its sender does), and is due again now only if it had
    /// not failed yet.
    public func enqueueWebmention(source: String, target: String, postPath: String, sourceHost: String,
                                  now: Date = Date()) async throws -> WebmentionQueueResult {
        let site = Self.webmentionSite(sourceHost)
        return try await writeAsync { db in
            let seconds = now.timeIntervalSince1970
            let recent = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM webmentions WHERE source_site = ? AND verified_at > ?",
                                          arguments: [site, seconds - 3600]) ?? 0
            if recent >= Self.webmentionsKeptPerHostPerHour { return .hostFull }
            try db.execute(sql: """
                UPDATE webmention_queue SET received_at = ?, post_path = ?,
                    next_attempt_at = CASE WHEN attempts = 0 THEN ? ELSE next_attempt_at END
                WHERE source = ? AND target = ?
                """, arguments: [seconds, postPath, seconds, source, target])
            if db.changesCount > 0 { return .queued }
            let queued = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM webmention_queue WHERE source_site = ?", arguments: [site]) ?? 0
            if queued >= Self.webmentionsQueuedPerHost { return .hostFull }
            let all = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM webmention_queue") ?? 0
            if all >= Self.webmentionsQueuedInAll { return .queueFull }
            try db.execute(sql: """
                INSERT INTO webmention_queue (source, target, post_path, source_site, received_at, next_attempt_at)
                VALUES (?, ?, ?, ?, ?, ?)
                """, arguments: [source, target, postPath, site, seconds, seconds])
            return .queued
        }
    }

    public func dueWebmentions(limit: Int, now: Date = Date()) throws -> [QueuedWebmention] {
        try read { db in
            try QueuedWebmention.filter(Column("next_attempt_at") <= now.timeIntervalSince1970).order(Column("seq")).limit(limit).fetchAll(db)
        }
    }

    /// When the next queued webmention is due, if any.
    public func nextWebmentionDue() throws -> Date? {
        try read { db in
            try Double.fetchOne(db, sql: "SELECT MIN(next_attempt_at) FROM webmention_queue").map(Date.init(timeIntervalSince1970:))
        }
    }

    /// Done with one (verified and applied, or refused): it leaves the queue.
    public func completeWebmention(seq: Int64) async throws {
        try await writeAsync { db in try db.execute(sql: "DELETE FROM webmention_queue WHERE seq = ?", arguments: [seq]) }
    }

    /// Tries again at `retryAt` (the source could not be reached), or drops it after `maximumAttempts`.
    public func failWebmention(seq: Int64, error: String, retryAt: Date, maximumAttempts: Int = 5) async throws {
        try await writeAsync { db in
            try db.execute(sql: """
                UPDATE webmention_queue SET attempts = attempts + 1, last_error = ?, next_attempt_at = ? WHERE seq = ?
                """, arguments: [error, retryAt.timeIntervalSince1970, seq])
            try db.execute(sql: "DELETE FROM webmention_queue WHERE seq = ? AND attempts >= ?", arguments: [seq, maximumAttempts])
        }
    }

    public func webmention(source: String, target: String) throws -> KeptWebmention? {
        try read { db in
            try KeptWebmention.fetchOne(db, key: ["source": source, "target": target])
        }
    }

    /// Records what a verified webmention became (replacing what it was).
    public func keepWebmention(_ kept: KeptWebmention, now: Date = Date()) async throws {
        try await writeAsync { db in
            try db.execute(sql: """
                INSERT OR REPLACE INTO webmentions (source, target, post_path, kind, author_id, source_site, verified_at)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                """, arguments: [kept.source, kept.target, kept.postPath, kept.kind.rawValue, kept.authorID,
                                 Self.webmentionSite(URLComponents(string: kept.source)?.host ?? ""), now.timeIntervalSince1970])
        }
    }

    /// Removes a webmention and what it became (its comment, or its like or repost), in one
    /// transaction. No tombstone: the source may link again, and its next webmention is then
    /// verified afresh. Returns the post whose page changes.
    public func removeWebmention(source: String, target: String) async throws -> String? {
        try await writeAsync { db in
            guard let kept = try KeptWebmention.filter(Column("source") == source && Column("target") == target).fetchOne(db) else {
                return nil
            }
            let path = kept.postPath, author = kept.authorID
            try db.execute(sql: "DELETE FROM comments WHERE id = ? AND author_id = ? AND post_path = ?", arguments: [source, author, path])
            try db.execute(sql: "DELETE FROM reactions WHERE activity_id = ? AND actor_id = ?", arguments: [Self.webmentionReactionID(source, path), author])
            try db.execute(sql: "DELETE FROM webmentions WHERE source = ? AND target = ?", arguments: [source, target])
            return path
        }
    }

    /// A webmention like's or repost's row id in `reactions`: one per source and post.
    public static func webmentionReactionID(_ source: String, _ postPath: String) -> String { "webmention:" + postPath + " " + source }

    /// Saves (or refreshes) the author of webmentions as a comment author: no inbox, no keys.
    public func saveWebmentionAuthor(_ author: RemoteActor, now: Date = Date()) async throws {
        try await writeAsync { db in
            try db.execute(sql: """
                INSERT INTO remote_actors (id, handle, name, url, icon, inbox, shared_inbox, fetched_at) VALUES (?, ?, ?, ?, ?, '', NULL, ?)
                ON CONFLICT(id) DO UPDATE SET handle = excluded.handle, name = excluded.name, url = excluded.url, icon = excluded.icon,
                    fetched_at = excluded.fetched_at
                WHERE remote_actors.inbox = ''
                """, arguments: [author.id, author.handle, author.name, author.url, author.icon, now.timeIntervalSince1970])
        }
    }

    // MARK: sending

    /// The external links a post had when webmentions were last queued for it.
    public func webmentionLinks(postPath: String) throws -> [String] {
        try read { db in
            try WebmentionLink.filter(Column("post_path") == postPath).order(Column("target")).fetchAll(db).map(\.target)
        }
    }

    /// Queues one webmention per target (`source` = the post's URL), remembering `links` as the
    /// post's links now, in one transaction. Each is a delivery of kind `webmention`; with
    /// `heldFor`, they wait until the server serves that site generation (the receiver fetches
    /// the page). A target queued again later gets a new row (a new `send`: the post changed).
    public func queueWebmentions(source: String, postPath: String, targets: [String], links: [String], heldFor generation: Int? = nil,
                                 now: Date = Date()) throws {
        try write { db in
            try WebmentionLink.filter(Column("post_path") == postPath).deleteAll(db)
            for link in Set(links) { try WebmentionLink(postPath: postPath, target: link).insert(db) }
            for target in Set(targets) {
                let id = "webmention:\(now.timeIntervalSince1970) \(source) \(target)"
                let json = String(decoding: try JSONSerialization.data(withJSONObject: ["source": source, "target": target], options: [.sortedKeys]),
                                  as: UTF8.self)
                try DeliveryQueue.enqueue(db, id: id, type: "Webmention", objectID: source, json: json, inboxes: [target], now: now,
                                          heldFor: generation, kind: .webmention)
            }
        }
    }
}
