import Foundation
import GRDB

/// Remote actors and their keys.
public struct Actors: StoreFacade {
    let store: Store
    public init(_ store: Store) { self.store = store }
}

extension Store {
    public var actors: Actors { Actors(self) }
}

/// A remote actor as cached from its document: a row of `remote_actors` (its `fetched_at` is
/// written by the upserts below, which keep what they must not overwrite).
public struct RemoteActor: Equatable, Sendable, Codable, FetchableRecord, TableRecord {
    public static let databaseTableName = "remote_actors"

    public var id: String
    public var handle: String?
    public var name: String?
    public var url: String?
    public var icon: String?
    public var inbox: String
    public var sharedInbox: String?

    public init(id: String, handle: String? = nil, name: String? = nil, url: String? = nil, icon: String? = nil,
                inbox: String, sharedInbox: String? = nil) {
        (self.id, self.handle, self.name, self.url, self.icon, self.inbox, self.sharedInbox) =
            (id, handle, name, url, icon, inbox, sharedInbox)
    }

    enum CodingKeys: String, CodingKey {
        case id, handle, name, url, icon, inbox
        case sharedInbox = "shared_inbox"
    }
}

/// A remote public key and the actor that owns it (`actor_keys`).
public struct RemoteKey: Equatable, Sendable, Codable, UnixTimeRecord {
    public static let databaseTableName = "actor_keys"
    public var keyID: String
    public var actorID: String
    public var pem: String
    public var fetchedAt: Date

    enum CodingKeys: String, CodingKey {
        case pem
        case keyID = "key_id", actorID = "actor_id", fetchedAt = "fetched_at"
    }
}

extension Actors {
    /// Records (or refreshes) an actor and the keys its document published.
    ///
    /// A key already recorded for another actor keeps its owner: only `authoritativeKeyID`, a key
    /// fetched from its own URL just now, may change hands. So an actor's `Update` listing
    /// someone else's key id cannot take it over.
    public func saveRemoteActor(_ actor: RemoteActor, keys: [(keyID: String, pem: String)], authoritativeKeyID: String? = nil,
                                assertionKeys: [AssertionKey]? = nil, now: Date = Date()) throws {
        try write { db in
            try Self.saveRemoteActor(db, actor, keys: keys, authoritativeKeyID: authoritativeKeyID, now: now)
            if let assertionKeys { try Self.saveAssertionKeys(db, actorID: actor.id, assertionKeys, now: now) }
        }
    }

    /// The same, without holding a thread of the caller's while the database is busy.
    public func saveRemoteActor(_ actor: RemoteActor, keys: [(keyID: String, pem: String)], authoritativeKeyID: String? = nil,
                                assertionKeys: [AssertionKey]? = nil, now: Date = Date()) async throws {
        let keys = keys.map { KeyRow(keyID: $0.keyID, pem: $0.pem) }
        try await writeAsync { db in
            try Self.saveRemoteActor(db, actor, keys: keys.map { ($0.keyID, $0.pem) }, authoritativeKeyID: authoritativeKeyID, now: now)
            if let assertionKeys { try Self.saveAssertionKeys(db, actorID: actor.id, assertionKeys, now: now) }
        }
    }

    /// An actor's assertion keys as its own document lists them now: keys it no longer lists
    /// are forgotten, and a key id another actor holds is never taken over.
    static func saveAssertionKeys(_ db: Database, actorID: String, _ keys: [AssertionKey], now: Date) throws {
        let listed = Set(keys.map(\.keyID))
        for stale in try String.fetchAll(db, sql: "SELECT key_id FROM actor_assertion_keys WHERE actor_id = ?", arguments: [actorID])
        where !listed.contains(stale) {
            try db.execute(sql: "DELETE FROM actor_assertion_keys WHERE key_id = ?", arguments: [stale])
        }
        for key in keys where key.actorID == actorID {
            try db.execute(sql: """
                INSERT INTO actor_assertion_keys (key_id, actor_id, multibase, fetched_at) VALUES (?, ?, ?, ?)
                ON CONFLICT(key_id) DO UPDATE SET multibase = excluded.multibase, fetched_at = excluded.fetched_at
                WHERE actor_assertion_keys.actor_id = excluded.actor_id
                """, arguments: [key.keyID, actorID, key.multibase, now.timeIntervalSince1970])
        }
    }

    /// A remote actor's assertion key (FEP-521a), as last fetched from the actor's own document.
    public func assertionKey(id: String) throws -> AssertionKey? {
        try read { db in
            try AssertionKey.fetchOne(db, key: id)
        }
    }

    private struct KeyRow: Sendable { let keyID, pem: String }

    /// Upserts by hand, not the records' `upsert`: a key keeps its owner unless authoritative, and
    /// the update leaves out what it must not change.
    static func saveRemoteActor(_ db: Database, _ actor: RemoteActor, keys: [(keyID: String, pem: String)],
                                authoritativeKeyID: String?, now: Date) throws {
        let now = now.timeIntervalSince1970
        try db.execute(sql: """
            INSERT INTO remote_actors (id, handle, name, url, icon, inbox, shared_inbox, fetched_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT(id) DO UPDATE SET handle = excluded.handle, name = excluded.name, url = excluded.url,
                icon = excluded.icon, inbox = excluded.inbox, shared_inbox = excluded.shared_inbox,
                fetched_at = excluded.fetched_at
            """, arguments: [actor.id, actor.handle, actor.name, actor.url, actor.icon, actor.inbox, actor.sharedInbox, now])
        for key in keys {
            if key.keyID == authoritativeKeyID {
                try db.execute(sql: """
                    INSERT INTO actor_keys (key_id, actor_id, pem, fetched_at) VALUES (?, ?, ?, ?)
                    ON CONFLICT(key_id) DO UPDATE SET actor_id = excluded.actor_id, pem = excluded.pem,
                        fetched_at = excluded.fetched_at
                    """, arguments: [key.keyID, actor.id, key.pem, now])
            } else {
                try db.execute(sql: """
                    INSERT INTO actor_keys (key_id, actor_id, pem, fetched_at) VALUES (?, ?, ?, ?)
                    ON CONFLICT(key_id) DO UPDATE SET pem = excluded.pem, fetched_at = excluded.fetched_at
                    WHERE actor_keys.actor_id = excluded.actor_id
                    """, arguments: [key.keyID, actor.id, key.pem, now])
            }
        }
    }

    public func remoteKey(id: String) throws -> RemoteKey? {
        try read { db in
            try RemoteKey.fetchOne(db, key: id)
        }
    }

    public func remoteActor(id: String) throws -> RemoteActor? {
        try read { db in
            // Read for every inbox request: the statement is kept prepared.
            try RemoteActor.fetchOne(db.cachedStatement(sql: "SELECT * FROM remote_actors WHERE id = ?"), arguments: [id])
        }
    }
}

/// A key an actor lists in its `assertionMethod` (FEP-521a): it signs that actor's objects.
/// A row of `actor_assertion_keys` (its `fetched_at` is written by `saveAssertionKeys`).
public struct AssertionKey: Sendable, Equatable, Codable, FetchableRecord, TableRecord {
    public static let databaseTableName = "actor_assertion_keys"
    public var keyID: String
    public var actorID: String
    /// `publicKeyMultibase`.
    public var multibase: String

    public init(keyID: String, actorID: String, multibase: String) {
        (self.keyID, self.actorID, self.multibase) = (keyID, actorID, multibase)
    }

    enum CodingKeys: String, CodingKey {
        case multibase
        case keyID = "key_id", actorID = "actor_id"
    }
}
