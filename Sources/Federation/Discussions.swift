import Foundation
import Site
import Store

/// The discussions pages show, read from the store: approved comments with their authors,
/// and reaction counts. The builder renders them (`SiteBuilder.Options.discussions`).
public struct Discussions: Sendable {
    public let store: Store

    public init(store: Store) { self.store = store }

    /// Every post's discussion, by post path (posts with none are left out).
    public func all() throws -> [String: Discussion] {
        var discussions: [String: Discussion] = [:]
        for shown in try store.comments(state: .approved, limit: Int.max).reversed() {
            discussions[shown.comment.postPath, default: Discussion()].comments.append(Self.comment(shown))
        }
        for (path, counts) in try store.allReactionCounts() {
            discussions[path, default: Discussion()].likes = counts.likes
            discussions[path, default: Discussion()].announces = counts.announces
        }
        return discussions
    }

    /// One post's discussion (for `/comments/<post>.json`).
    public func discussion(postPath: String) throws -> Discussion {
        let counts = try store.reactionCounts(postPath: postPath)
        return Discussion(comments: try store.comments(state: .approved, postPath: postPath, limit: Int.max).reversed().map(Self.comment),
                          likes: counts.likes, announces: counts.announces)
    }

    static func comment(_ shown: ShownComment) -> Discussion.Comment {
        let c = shown.comment, author = shown.author
        let handle = author.handle ?? author.id
        let name = author.name.flatMap { $0.isEmpty ? nil : $0 } ?? handle
        return Discussion.Comment(id: c.id, parentID: c.parentID, authorName: name, authorHandle: handle,
                                  authorURL: author.url ?? author.id, avatarURL: author.icon.flatMap(Self.webURL),
                                  url: c.url.flatMap(Self.webURL) ?? c.id, contentHTML: c.contentHTML, summary: c.summary,
                                  sensitive: c.sensitive, published: c.publishedAt, updated: c.updatedAt)
    }

    /// Only http(s) URLs reach an `href` or `src` on the page.
    static func webURL(_ url: String) -> String? { HTMLSanitizer.safeURL(url).flatMap { $0.hasPrefix("mailto:") ? nil : $0 } }
}
