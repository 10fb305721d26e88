import Foundation
import GRDB

/// What changed when the site's posts were compared with the store.
public struct PostSync: Equatable, Sendable {
    public var created: [PostRecord] = []
    public var updated: [PostRecord] = []
    public var deleted: [PostRecord] = []
    /// Came back after having been deleted (same path): published again under its old id.
    public var restored: [PostRecord] = []

    public init() {}

    /// Whether anything changed.
    public var isEmpty: Bool { created.isEmpty && updated.isEmpty && deleted.isEmpty && restored.isEmpty }
}

extension Store {
    /// Brings the posts table in line with the site: new paths are created with `apID` from
    /// `idFor`, changed content hashes are updated (the first id stays), paths no longer in the
    /// site are marked deleted. One transaction: readers never see half a sync.
    public func syncPosts(_ current: [PostRecord], now: Date = Date()) throws -> PostSync {
        try database.write { db in
            var sync = PostSync()
            let existing = Dictionary(uniqueKeysWithValues: try PostRecord.fetchAll(db).map { ($0.path, $0) })
            for post in current {
                guard var stored = existing[post.path] else {
                    try post.insert(db)
                    sync.created.append(post)
                    continue
                }
                let wasDeleted = stored.deletedAt != nil
                let changed = stored.contentHash != post.contentHash || stored.title != post.title || stored.pinned != post.pinned
                guard changed || wasDeleted else { continue }
                stored.title = post.title
                stored.contentHash = post.contentHash
                stored.pinned = post.pinned
                stored.updatedAt = post.updatedAt ?? (changed ? now : stored.updatedAt)
                stored.deletedAt = nil
                try stored.update(db)
                if wasDeleted { sync.restored.append(stored) } else { sync.updated.append(stored) }
            }
            let paths = Set(current.map(\.path))
            for stored in existing.values where !paths.contains(stored.path) && stored.deletedAt == nil {
                var gone = stored
                gone.deletedAt = now
                try gone.update(db)
                sync.deleted.append(gone)
            }
            return sync
        }
    }

    /// Posts not deleted, newest first.
    public func publishedPosts() throws -> [PostRecord] {
        try database.read { db in
            try PostRecord.filter(Column("deleted_at") == nil).order(Column("published_at").desc).fetchAll(db)
        }
    }

    /// Posts marked deleted (their URLs answer 410).
    public func deletedPosts() throws -> [PostRecord] {
        try database.read { db in try PostRecord.filter(Column("deleted_at") != nil).fetchAll(db) }
    }

    public func post(path: String) throws -> PostRecord? {
        try database.read { db in try PostRecord.fetchOne(db, key: path) }
    }

    /// Looks a post up by its ActivityPub id (whole URL), deleted or not.
    public func post(apID: String) throws -> PostRecord? {
        try database.read { db in try PostRecord.filter(Column("ap_id") == apID).fetchOne(db) }
    }
}
