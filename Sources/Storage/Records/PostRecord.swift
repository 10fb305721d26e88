import Foundation
import GRDB

/// A post as the fediverse knows it. `apID` is the id it was first published under.
public struct PostRecord: Codable, Equatable, Sendable, FetchableRecord, PersistableRecord {
    public static let databaseTableName = "posts"

    public var path: String
    public var apID: String
    public var title: String
    public var contentHash: String
    public var publishedAt: Date
    public var updatedAt: Date?
    public var pinned: Bool
    public var deletedAt: Date?
    /// The source file (`content/posts/x.md`): a post whose slug or date changes is recognised by it.
    public var source: String?
    /// False for `federate: false`: on the site, off the fediverse.
    public var federate: Bool
    /// `Article` or `Note`: how the post federates, fixed when it first appears.
    public var apType: String
    /// What `contentHash` was computed from (source, settings, version): the same key, the same
    /// fingerprint, so an unchanged post is not converted again to learn it.
    public var fingerprintSource: String?

    enum CodingKeys: String, CodingKey {
        case path, title, pinned, source, federate
        case apType = "ap_type", fingerprintSource = "fingerprint_source"
        case apID = "ap_id", contentHash = "content_hash", publishedAt = "published_at"
        case updatedAt = "updated_at", deletedAt = "deleted_at"
    }

    /// `contentHash` fingerprints what followers see of the post (a change means an Update).
    public init(path: String, apID: String, title: String, contentHash: String, publishedAt: Date,
                updatedAt: Date? = nil, pinned: Bool = false, deletedAt: Date? = nil, source: String? = nil,
                federate: Bool = true, apType: String = "Article", fingerprintSource: String? = nil) {
        self.apType = apType
        self.fingerprintSource = fingerprintSource
        self.path = path
        self.apID = apID
        self.title = title
        self.contentHash = contentHash
        self.publishedAt = publishedAt
        self.updatedAt = updatedAt
        self.pinned = pinned
        self.deletedAt = deletedAt
        self.source = source
        self.federate = federate
    }
}

/// A row of `post_aliases`: the old path of a post that moved, answered with a redirect.
struct PostAlias: Codable, UnixTimeRecord {
    static let databaseTableName = "post_aliases"
    var path: String
    var postPath: String
    var createdAt: Date

    enum CodingKeys: String, CodingKey {
        case path
        case postPath = "post_path", createdAt = "created_at"
    }
}
