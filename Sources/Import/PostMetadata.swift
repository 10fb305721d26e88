/// What a post says about itself besides its title, dates and slug: shared by the imported
/// item (as read) and the front matter (as written), reachable directly on both
/// (`item.tags`, `fields.draft`).
///
/// ```swift
/// var item = ImportedItem(kind: .post, origin: "feed.xml#1", body: .html("<p>Hi</p>"))
/// item.tags = ["swift"]          // item.metadata.tags
/// ```
public struct PostMetadata: Sendable, Equatable {
    public var category: String?
    public var tags: [String] = []
    public var summary: String?
    public var image: String?
    public var draft = false
    public var pinned = false
    /// Old paths that redirect to the post.
    public var aliases: [String] = []

    public init() {}
}

/// Types that carry a `PostMetadata` and expose its fields as their own.
///
/// ```swift
/// var fields = PostWriter.Fields(title: "Hi", date: Date(), slug: "hi")
/// fields.draft = true   // fields.metadata.draft
/// ```
@dynamicMemberLookup
public protocol PostMetadataCarrier {
    var metadata: PostMetadata { get set }
}

extension PostMetadataCarrier {
    public subscript<Value>(dynamicMember path: WritableKeyPath<PostMetadata, Value>) -> Value {
        get { metadata[keyPath: path] }
        set { metadata[keyPath: path] = newValue }
    }
}
