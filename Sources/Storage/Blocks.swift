import BlogModel
import Foundation
import GRDB

/// Blocked and silenced actors and domains.
public struct Blocks: StoreFacade {
    let store: Store
    public init(_ store: Store) { self.store = store }
}

extension Store {
    public var blocks: Blocks { Blocks(self) }
}

/// A blocked actor (`https://bad.example/users/x`) or domain (`bad.example`), or a silenced
/// domain (its comments wait for approval).
public struct Block: Sendable, Equatable, Codable, UnixTimeRecord {
    public static let databaseTableName = "blocks"
    public enum Kind: String, Sendable, Codable { case actor, domain, silence }
    public var kind: Kind
    public var value: String
    public var reason: String?
    public var createdAt: Date

    public init(kind: Kind, value: String, reason: String? = nil, createdAt: Date) {
        (self.kind, self.value, self.reason, self.createdAt) = (kind, value, reason, createdAt)
    }

    enum CodingKeys: String, CodingKey {
        case kind, value, reason, createdAt = "created_at"
    }
}

extension Blocks {
    /// Blocks an actor or a whole domain, retroactively: their follows, reactions and pending
    /// mentions go, their comments are rejected (hidden, kept for the record). Returns the paths
    /// of the posts whose discussion changed.
    public func block(_ kind: Block.Kind, _ value: String, reason: String? = nil, now: Date = Date()) throws -> Set<String> {
        var value = value
        if kind != .actor {
            guard let host = HostName.normalized(value) else {
                throw StoreError.conflict("'\(value)' is not a domain name (write it as bad.example, without scheme, path or @)")
            }
            value = host
        }
        return try write { db in
            try db.execute(sql: """
                INSERT INTO blocks (kind, value, reason, created_at) VALUES (?, ?, ?, ?)
                ON CONFLICT(kind, value) DO UPDATE SET reason = excluded.reason
                """, arguments: [kind.rawValue, value, reason, now.timeIntervalSince1970])
            // Silencing changes what comes next, not what is there.
            guard kind != .silence else { return [] }
            let match = kind == .actor ? "= ?" : "IN (SELECT id FROM remote_actors WHERE \(Self.hostMatch))"
            let arguments: StatementArguments = kind == .actor ? [value] : Self.hostArguments(value)
            var paths = Set(try String.fetchAll(db, sql: "SELECT post_path FROM comments WHERE state != 'rejected' AND author_id \(match)",
                                                arguments: arguments))
            paths.formUnion(try String.fetchAll(db, sql: "SELECT post_path FROM reactions WHERE actor_id \(match)", arguments: arguments))
            try db.execute(sql: "UPDATE comments SET state = 'rejected' WHERE author_id \(match)", arguments: arguments)
            try db.execute(sql: "DELETE FROM reactions WHERE actor_id \(match)", arguments: arguments)
            try db.execute(sql: "DELETE FROM followers WHERE actor_id \(match)", arguments: arguments)
            try db.execute(sql: "DELETE FROM mentions WHERE author_id \(match)", arguments: arguments)
            return paths
        }
    }

    /// Lifts a block (rejected comments stay rejected: approve them one by one).
    @discardableResult
    public func unblock(_ kind: Block.Kind, _ value: String) throws -> Bool {
        try write { db in
            try db.execute(sql: "DELETE FROM blocks WHERE kind = ? AND value = ?",
                           arguments: [kind.rawValue, kind == .actor ? value : (HostName.normalized(value) ?? value.lowercased())])
            return db.changesCount > 0
        }
    }

    public func blocks() throws -> [Block] {
        try read { db in
            try Block.order(Column("created_at")).fetchAll(db)
        }
    }

    /// Whether this actor, or its domain (or a parent domain), is blocked.
    public func isBlocked(actorID: String) throws -> Bool {
        try read { db in try Self.isBlocked(db, actorID: actorID) }
    }

    /// For the inbox, in one read: whether the sender is blocked, and whether its host is
    /// marked failing or paused (then `hostIsBack` clears that).
    public func senderStatus(actorID: String) throws -> (blocked: Bool, hostTroubled: Bool) {
        let host = URLComponents(string: actorID)?.host?.lowercased() ?? ""  // as `deliveries.host` spells it
        return try read { db in
            (try Self.isBlocked(db, actorID: actorID),
             try Bool.fetchOne(db.cachedStatement(sql: "SELECT 1 FROM hosts WHERE host = ? AND (paused = 1 OR failing_since IS NOT NULL)"),
                               arguments: [host]) ?? false)
        }
    }

    static func isBlocked(_ db: Database, actorID: String) throws -> Bool {
        guard HostName.of(url: actorID) != nil else { return true }  // no readable host: never let in
        let domains = Self.domains(of: actorID)
        let marks = domains.map { _ in "?" }.joined(separator: ",")
        return try Bool.fetchOne(db.cachedStatement(sql: """
            SELECT 1 FROM blocks WHERE (kind = 'actor' AND value = ?) OR (kind = 'domain' AND value IN (\(marks)))
            """), arguments: StatementArguments([actorID] + domains)) ?? false
    }

    /// Whether this actor's domain (or a parent domain) is silenced: its comments wait for approval.
    public func isSilenced(actorID: String) throws -> Bool {
        let domains = Self.domains(of: actorID)
        let marks = domains.map { _ in "?" }.joined(separator: ",")
        return try read { db in
            try Bool.fetchOne(db.cachedStatement(sql: "SELECT 1 FROM blocks WHERE kind = 'silence' AND value IN (\(marks))"),
                              arguments: StatementArguments(domains)) ?? false
        }
    }

    /// `a.b.example` → `a.b.example`, `b.example` (normalized: `A.B.Example.` is the same).
    static func domains(of actorID: String) -> [String] {
        let host = HostName.of(url: actorID) ?? ""
        var domains = [host]
        var parts = host.split(separator: ".")
        while parts.count > 2 { parts.removeFirst(); domains.append(parts.joined(separator: ".")) }
        return domains
    }

    /// Actors on `host` or its subdomains, by their id URL.
    static let hostMatch = "id LIKE ? OR id LIKE ? OR id LIKE ? OR id LIKE ? OR id LIKE ? OR id LIKE ?"
    static func hostArguments(_ host: String) -> StatementArguments {
        var patterns: [String] = []
        for scheme in ["https", "http"] {
            patterns += ["\(scheme)://\(host)/%", "\(scheme)://\(host):%", "\(scheme)://%.\(host)/%"]
        }
        return StatementArguments(patterns)
    }
}
