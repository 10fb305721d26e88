import Foundation
import GRDB

/// A row of `outbound_activities`: an activity the blog sends, stored once for all its inboxes.
struct OutboundActivity: Codable, UnixTimeRecord {
    static let databaseTableName = "outbound_activities"
    var id: String
    var type: String
    /// The object it carries (a post's id, a note's), to find its activities again.
    var objectID: String?
    var json: String
    var createdAt: Date

    enum CodingKeys: String, CodingKey {
        case id, type, json
        case objectID = "object_id", createdAt = "created_at"
    }
}

/// A row of `deliveries`: one activity to one inbox, and where its sending stands.
public struct Delivery: Codable, Equatable, Sendable, UnixTimeRecord {
    public static let databaseTableName = "deliveries"
    public enum State: String, Codable, Sendable { case queued, delivered, failed }

    public var id: Int64?
    public var activityID: String
    public var inbox: String
    /// The inbox's host, lowercased: deliveries take turns by it, and a host is paused as one.
    public var host: String
    public var state: State = .queued
    public var attempts = 0
    /// When it is due; while leased, when the lease runs out.
    public var nextAttemptAt: Date
    public var lastStatus: Int?
    public var lastError: String?
    public var createdAt: Date
    /// Held until the server serves this site generation (see `SiteChanges`).
    public var heldGeneration: Int?
    public var kind: DeliveryKind = .activity

    enum CodingKeys: String, CodingKey {
        case id, inbox, host, state, attempts, kind
        case activityID = "activity_id", nextAttemptAt = "next_attempt_at", lastStatus = "last_status"
        case lastError = "last_error", createdAt = "created_at", heldGeneration = "held_generation"
    }
}

/// A row of `hosts`: a host whose deliveries fail, paused once it has failed long enough.
struct DeliveryHost: Codable, UnixTimeRecord {
    static let databaseTableName = "hosts"
    var host: String
    var failingSince: Date?
    var paused: Bool

    enum CodingKeys: String, CodingKey {
        case host, paused
        case failingSince = "failing_since"
    }
}

/// A row of `signature_memory`: an origin that takes only draft-cavage, as the double-knock learned.
struct SignatureMemory: Codable, UnixTimeRecord {
    static let databaseTableName = "signature_memory"
    var origin: String
    var rfc9421: Bool
    var learnedAt: Date

    enum CodingKeys: String, CodingKey {
        case origin, rfc9421
        case learnedAt = "learned_at"
    }
}
