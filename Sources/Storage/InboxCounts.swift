import BlogModel
import Foundation
import GRDB

/// What the inbox did with what it received, per day and type.
public struct InboxCounts: StoreFacade {
    let store: Store
    public init(_ store: Store) { self.store = store }
}

extension Store {
    public var inboxCounts: InboxCounts { InboxCounts(self) }
}

/// What the inbox did with an activity, for the daily counts.
public struct InboxOutcome: Sendable, Hashable {
    public enum Kind: String, Sendable, CaseIterable { case applied, ignored, refused }
    public var kind: Kind
    /// A short code: `comment`, `follow`, `not-for-us`, `bad-signature`…
    public var reason: String

    public init(_ kind: Kind, _ reason: String) {
        self.kind = kind
        self.reason = reason
    }

    /// The reason for a type the blog does not act on. Only the vocabulary's own names become a
    /// reason: anything a sender makes up is `other`, so invented types cannot become rows,
    /// metric labels or lines of `lectern status --json` one by one.
    public static func unsupportedType(_ name: String?) -> String {
        guard let name, !name.isEmpty else { return "unsupported-type:none" }
        return "unsupported-type:" + (knownTypes.contains(name) ? name : "other")
    }

    /// ActivityStreams 2.0's activity and object types, and the extensions servers send.
    static let knownTypes: Set<String> = [
        "Accept", "Add", "Announce", "Arrive", "Block", "Create", "Delete", "Dislike", "Flag", "Follow", "Ignore", "Invite",
        "Join", "Leave", "Like", "Listen", "Move", "Offer", "Question", "Reject", "Read", "Remove", "TentativeReject",
        "TentativeAccept", "Travel", "Undo", "Update", "View", "EmojiReact", "QuoteRequest", "Bite",
        "Article", "Audio", "Document", "Event", "Image", "Note", "Page", "Place", "Profile", "Relationship", "Tombstone",
        "Video", "Person", "Service", "Group", "Organization", "Application", "Collection", "OrderedCollection",
        "ChatMessage", "Link", "Mention", "Hashtag", "Emoji",
    ]
}

extension InboxCounts {
    /// Adds to the day's counts (UTC) in one transaction.
    public func countInboxOutcomes(_ counts: [InboxOutcome: Int], on date: Date = Date()) throws {
        guard !counts.isEmpty else { return }
        try write { db in try Self.count(db, counts, day: Self.day(date)) }
    }

    static func count(_ db: Database, _ counts: [InboxOutcome: Int], day: String) throws {
        guard !counts.isEmpty else { return }
        let statement = try db.makeStatement(sql: """
            INSERT INTO inbox_counts (day, outcome, reason, count) VALUES (?, ?, ?, ?)
            ON CONFLICT(day, outcome, reason) DO UPDATE SET count = count + excluded.count
            """)
        for (outcome, count) in counts { try statement.execute(arguments: [day, outcome.kind.rawValue, outcome.reason, count]) }
    }

    /// Counts since `date` (whole days, UTC), summed per outcome and reason.
    public func inboxCounts(since date: Date) throws -> [InboxOutcome: Int] {
        try read { db in
            var counts: [InboxOutcome: Int] = [:]
            for row in try Row.fetchAll(db, sql: """
                SELECT outcome, reason, SUM(count) AS total FROM inbox_counts WHERE day >= ? GROUP BY outcome, reason
                """, arguments: [Self.day(date)]) {
                guard let kind = InboxOutcome.Kind(rawValue: row["outcome"]) else { continue }
                counts[InboxOutcome(kind, row["reason"])] = row["total"]
            }
            return counts
        }
    }

    static func day(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let c = calendar.dateComponents([.year, .month, .day], from: date)
        return String(format: "%04d-%02d-%02d", c.year!, c.month!, c.day!)
    }
}
