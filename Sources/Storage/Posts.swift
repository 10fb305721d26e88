import Foundation
import GRDB

/// The posts as the fediverse knows them, and their old addresses.
public struct Posts: StoreFacade {
    let store: Store
    public init(_ store: Store) { self.store = store }
}

extension Store {
    public var posts: Posts { Posts(self) }
}

/// What changed when the site's posts were compared with the store.
public struct PostSync: Equatable, Sendable {
    public var created: [PostRecord] = []
    public var updated: [PostRecord] = []
    public var deleted: [PostRecord] = []
    /// Came back after having been deleted (same path): published again under its old id.
    public var restored: [PostRecord] = []
    /// Found at a new path (its slug or date changed): same id, comments and reactions; the old
    /// path became an alias.
    public var moved: [(from: String, post: PostRecord)] = []

    public init() {}

    /// Whether anything changed.
    public var isEmpty: Bool { created.isEmpty && updated.isEmpty && deleted.isEmpty && restored.isEmpty && moved.isEmpty }

    public static func == (a: PostSync, b: PostSync) -> Bool {
        a.created == b.created && a.updated == b.updated && a.deleted == b.deleted && a.restored == b.restored
            && a.moved.map(\.from) == b.moved.map(\.from) && a.moved.map(\.post) == b.moved.map(\.post)
    }
}

/// A post as the site has it now, for `Store.syncPosts`.
public struct CurrentPost: Sendable, Equatable {
    public var record: PostRecord
    /// `id:` in the front matter: the post's first URL, for a file renamed since.
    public var declaredID: String?
    /// The stored fingerprint was made from this same post and settings by an earlier way of
    /// computing it: a new value of it is no edit, and is stored without an Update.
    public var fingerprintRestated = false

    public init(record: PostRecord, declaredID: String? = nil, fingerprintRestated: Bool = false) {
        self.record = record
        self.declaredID = declaredID
        self.fingerprintRestated = fingerprintRestated
    }
}

extension Posts {
    /// Brings the posts table in line with the site, in one transaction. A post is the stored
    /// one with the id its front matter declares, else the one from the same source file, else
    /// the one at the same path; only a post none of these finds is new. A post found at another
    /// path moved: its path changes (comments and reactions follow), its id stays, and its old
    /// path becomes an alias. Changed fingerprints are updated, paths no longer in the site are
    /// marked deleted.
    public func syncPosts(_ current: [CurrentPost], now: Date = Date()) throws -> PostSync {
        try write { db in
            var sync = PostSync()
            var byPath = Dictionary(uniqueKeysWithValues: try PostRecord.fetchAll(db).map { ($0.path, $0) })
            // Live posts by source file and by id, to find moved and renamed posts without a scan each.
            let index = StoredPosts(bySource: Dictionary(byPath.values.filter { $0.deletedAt == nil && $0.source != nil }
                                                             .map { ($0.source!, $0.path) }, uniquingKeysWith: { a, _ in a }),
                                    byID: Dictionary(byPath.values.map { ($0.apID, $0.path) }, uniquingKeysWith: { a, _ in a }))
            var claimed = Set<String>()  // stored paths matched to a current post
            for entry in current {
                var post = entry.record
                let match = Self.match(entry, in: byPath, index: index, claimed: claimed)
                guard var stored = match else {
                    // A deleted post's row at this path gives way to the new post.
                    if let old = byPath[post.path], old.deletedAt != nil { try old.delete(db); byPath[post.path] = nil }
                    try post.insert(db)
                    byPath[post.path] = post
                    claimed.insert(post.path)
                    sync.created.append(post)
                    continue
                }
                if stored.path != post.path {
                    let from = stored.path
                    if let occupant = byPath[post.path] {
                        guard occupant.deletedAt != nil, !claimed.contains(occupant.path) else {
                            throw StoreError.conflict("\(post.path) is taken by \(occupant.apID)")
                        }
                        try occupant.delete(db)
                    }
                    try db.execute(sql: "UPDATE posts SET path = ? WHERE path = ?", arguments: [post.path, from])
                    try PostAlias(path: from, postPath: post.path, createdAt: now).insert(db, onConflict: .replace)
                    _ = try PostAlias.deleteOne(db, key: post.path)
                    byPath[from] = nil
                    stored.path = post.path
                    byPath[post.path] = stored
                    sync.moved.append((from, stored))
                }
                claimed.insert(post.path)
                post.apID = stored.apID
                let wasDeleted = stored.deletedAt != nil
                if entry.fingerprintRestated && !wasDeleted { stored.contentHash = post.contentHash }
                let changed = stored.contentHash != post.contentHash || stored.title != post.title || stored.pinned != post.pinned
                    || stored.source != post.source || stored.federate != post.federate
                if stored.fingerprintSource != post.fingerprintSource {
                    stored.fingerprintSource = post.fingerprintSource
                    // Only what the fingerprint was computed from: kept, no Update for followers.
                    if !changed && !wasDeleted { try stored.update(db); continue }
                }
                guard changed || wasDeleted else { continue }
                let moved = sync.moved.last?.post.path == post.path
                stored.title = post.title
                stored.pinned = post.pinned
                stored.source = post.source
                stored.federate = post.federate
                if stored.contentHash != post.contentHash {
                    stored.contentHash = post.contentHash
                    stored.updatedAt = post.updatedAt ?? now
                }
                stored.deletedAt = nil
                try stored.update(db)
                if wasDeleted { sync.restored.append(stored) } else if !moved { sync.updated.append(stored) }
                else { sync.moved[sync.moved.count - 1].post = stored }
            }
            for stored in byPath.values where !claimed.contains(stored.path) && stored.deletedAt == nil {
                var gone = stored
                gone.deletedAt = now
                try gone.update(db)
                sync.deleted.append(gone)
            }
            return sync
        }
    }

    /// Where stored posts were at the start of a sync, by source file and by id.
    private struct StoredPosts {
        let bySource: [String: String]
        let byID: [String: String]
    }

    /// The stored post `entry` is, if any (see `syncPosts`): the one its front matter's `id`
    /// names, else the one at its path (unless that came from another file), else the live one
    /// from the same file, else whatever is at its path.
    private static func match(_ entry: CurrentPost, in byPath: [String: PostRecord], index: StoredPosts,
                              claimed: Set<String>) -> PostRecord? {
        func free(_ path: String?) -> PostRecord? {
            path.flatMap { byPath[$0] }.flatMap { claimed.contains($0.path) ? nil : $0 }
        }
        if let declared = entry.declaredID, let stored = free(index.byID[declared]), stored.apID == declared { return stored }
        let atPath = free(entry.record.path)
        if let atPath, atPath.source == nil || atPath.source == entry.record.source { return atPath }
        if let source = entry.record.source, let stored = free(index.bySource[source]), stored.source == source { return stored }
        return atPath
    }

    /// Old paths of moved posts: old path → current path.
    public func postAliases() throws -> [String: String] {
        try read { db in
            Dictionary(uniqueKeysWithValues: try PostAlias.fetchAll(db).map { ($0.path, $0.postPath) })
        }
    }

    /// Posts not deleted, newest first.
    public func publishedPosts() throws -> [PostRecord] {
        try read { db in
            try PostRecord.filter(Column("deleted_at") == nil).order(Column("published_at").desc).fetchAll(db)
        }
    }

    /// Posts marked deleted (their URLs answer 410).
    public func deletedPosts() throws -> [PostRecord] {
        try read { db in try PostRecord.filter(Column("deleted_at") != nil).fetchAll(db) }
    }

    public func post(path: String) throws -> PostRecord? {
        try read { db in try PostRecord.fetchOne(db.cachedStatement(sql: "SELECT * FROM posts WHERE path = ?"), arguments: [path]) }
    }

    /// Looks a post up by its ActivityPub id (whole URL), deleted or not.
    public func post(apID: String) throws -> PostRecord? {
        try read { db in try PostRecord.fetchOne(db.cachedStatement(sql: "SELECT * FROM posts WHERE ap_id = ?"), arguments: [apID]) }
    }
}
