import Foundation

/// A post's discussion as the page template and `/comments/<post>.json` show it: one place
/// computes what both display, so the live-refresh script renders what the page would.
public struct DiscussionView: Sendable {
    public let discussion: Discussion
    public let postPath: String
    /// The blog's handle, `@blog@blog.example`, which readers can follow to comment.
    public let account: String
    let dates: DateFormats

    public init(discussion: Discussion, postPath: String, account: String, timeZone: TimeZone) {
        self.discussion = discussion
        self.postPath = postPath
        self.account = account
        self.dates = DateFormats(timeZone: timeZone)
    }

    /// `/2025/hello/` → `/comments/2025/hello.json`
    public static func jsonPath(forPostPath path: String) -> String {
        "/comments/" + path.split(separator: "/").joined(separator: "/") + ".json"
    }

    /// The post path for `/comments/2025/hello.json`, or nil.
    public static func postPath(forJSONPath path: String) -> String? {
        guard path.hasPrefix("/comments/"), path.hasSuffix(".json") else { return nil }
        let inner = path.dropFirst("/comments/".count).dropLast(".json".count)
        guard !inner.isEmpty, !inner.contains(".."), !inner.hasPrefix("/") else { return nil }
        return "/\(inner)/"
    }

    /// `comment-` and 12 hex digits of the comment id's hash: stable, and safe in an id attribute.
    static func anchor(_ id: String) -> String { "comment-" + String(ContentHash(id).hex.prefix(12)) }

    var heading: String {
        switch discussion.comments.count {
        case 0: return "Comments"
        case 1: return "1 comment"
        case let count: return "\(count) comments"
        }
    }

    /// The Mustache context (`discussion.*` in `comments.mustache`).
    var templateContext: [String: Any] {
        let comments: [[String: Any]] = discussion.threaded().map { entry in
            let comment = entry.comment
            var context: [String: Any] = [
                "anchor": Self.anchor(comment.id), "depth": min(entry.depth, 5), "authorName": comment.authorName,
                "authorHandle": comment.authorHandle, "authorURL": comment.authorURL, "url": comment.url,
                "content": comment.contentHTML, "dateISO": dates.iso8601(comment.published),
                "dateHuman": dates.human(comment.published), "edited": comment.updated != nil,
            ]
            if let avatar = comment.avatarURL { context["avatar"] = avatar }
            if let summary = comment.summary, !summary.isEmpty { context["summary"] = summary }
            else if comment.sensitive { context["summary"] = "Sensitive content" }
            return context
        }
        var context: [String: Any] = ["heading": heading, "comments": comments, "account": account,
                                      "jsonURL": Self.jsonPath(forPostPath: postPath),
                                      "hasReactions": discussion.likes + discussion.announces > 0]
        if discussion.likes > 0 { context["likes"] = discussion.likes }
        if discussion.announces > 0 { context["announces"] = discussion.announces }
        return context
    }

    /// The JSON the page script reads.
    public func json() throws -> Data {
        struct Author: Encodable { let name, handle, url: String; let avatar: String? }
        struct Item: Encodable {
            let id, anchor: String
            let depth: Int
            let parent: String?
            let author: Author
            let url, content: String
            let summary: String?
            let sensitive: Bool
            let published: String
            let updated: String?
        }
        struct Document: Encodable {
            let post, heading: String
            let count, likes, announces: Int
            let comments: [Item]
        }
        let iso = ISO8601DateFormatter()
        let items = discussion.threaded().map { entry in
            let c = entry.comment
            return Item(id: c.id, anchor: Self.anchor(c.id), depth: entry.depth, parent: c.parentID,
                        author: Author(name: c.authorName, handle: c.authorHandle, url: c.authorURL, avatar: c.avatarURL),
                        url: c.url, content: c.contentHTML, summary: c.summary ?? (c.sensitive ? "Sensitive content" : nil),
                        sensitive: c.sensitive, published: iso.string(from: c.published),
                        updated: c.updated.map(iso.string(from:)))
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(Document(post: postPath, heading: heading, count: items.count,
                                           likes: discussion.likes, announces: discussion.announces, comments: items))
    }
}
