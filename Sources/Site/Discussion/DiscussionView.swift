import BlogModel
import Foundation

/// A post's discussion as the page template and `/comments/<post>.json` show it: one place
/// computes what both display, so the live-refresh script renders what the page would.
///
/// Threads are paged from the oldest, `threadsPerPage` to a page: the post's own page shows the
/// newest page, with a link to older ones (`/2025/hello/comments/1/`, …). A new comment changes
/// the newest page only, so a post with 10,000 comments re-renders one page of twenty threads.
public struct DiscussionView: Sendable {
    public static let threadsPerPage = 20

    public let discussion: Discussion
    public let postPath: String
    /// The blog's handle, `@blog@blog.example`, which readers can follow to comment.
    public let account: String
    let dates: DateFormats
    /// Threads in reading order, split into pages (oldest page first); always at least one page.
    let pages: [[(comment: Discussion.Comment, depth: Int)]]

    public init(discussion: Discussion, postPath: String, account: String, timeZone: TimeZone) {
        self.discussion = discussion
        self.postPath = postPath
        self.account = account
        self.dates = DateFormats(timeZone: timeZone)
        var pages: [[(comment: Discussion.Comment, depth: Int)]] = [[]]
        var roots = 0
        for entry in discussion.threaded() {
            if entry.depth == 0 {
                if roots == Self.threadsPerPage { pages.append([]); roots = 0 }
                roots += 1
            }
            pages[pages.count - 1].append(entry)
        }
        self.pages = pages
    }

    /// Number of pages of comments; the last is on the post's page.
    public var pageCount: Int { pages.count }

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

    /// Where older comments page `number` (1-based, oldest first) lives; the newest is the post.
    public func path(ofPage number: Int) -> String { Self.path(ofPage: number, of: pageCount, postPath: postPath) }

    /// The same for a post whose discussion has `pageCount` pages.
    public static func path(ofPage number: Int, of pageCount: Int, postPath: String) -> String {
        number >= pageCount ? postPath : "\(postPath)comments/\(number)/"
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

    /// Changes whenever what page `number` shows changes (its comments, the links; for the newest
    /// page, the counts). An older page does not show totals, so new comments leave it alone.
    public func fingerprint(ofPage number: Int) -> ContentHash {
        let newest = number == pageCount
        var hash = ContentHash("discussion-page", String(number), String(newest), String(number == pageCount - 1))
        if newest {
            hash.combine("\(heading)|\(pageCount)|\(discussion.likes)|\(discussion.announces)")
        }
        for entry in pages[number - 1] {
            hash.combine(String(entry.depth))
            entry.comment.fingerprint(into: &hash)
        }
        return hash
    }

    /// The Mustache context (`discussion.*` in `comments.mustache`) for page `number` (the post's
    /// own page when nil).
    func templateContext(page number: Int? = nil) -> [String: any TemplateValue] {
        let number = number ?? pageCount
        let comments: [[String: any TemplateValue]] = pages[number - 1].map { entry in Self.context(entry.comment, depth: entry.depth, dates: dates) }
        var context: [String: any TemplateValue] = ["comments": comments, "account": account, "jsonURL": Self.jsonPath(forPostPath: postPath)]
        if number == pageCount {
            context["heading"] = heading
            context["hasReactions"] = discussion.likes + discussion.announces > 0
            if discussion.likes > 0 { context["likes"] = discussion.likes }
            if discussion.announces > 0 { context["announces"] = discussion.announces }
            if pageCount > 1 { context["pageLabel"] = "Page \(number) of \(pageCount)" }
        } else {
            context["heading"] = "Older comments, page \(number)"
        }
        if number > 1 { context["olderURL"] = path(ofPage: number - 1) }
        if number < pageCount { context["newerURL"] = path(ofPage: number + 1) }
        return context
    }

    static func context(_ comment: Discussion.Comment, depth: Int, dates: DateFormats) -> [String: any TemplateValue] {
        var context: [String: any TemplateValue] = [
            "anchor": anchor(comment.id), "depth": min(depth, 5), "authorName": comment.authorName,
            "authorHandle": comment.authorHandle, "authorURL": comment.authorURL, "url": comment.url,
            "content": comment.contentHTML, "dateISO": dates.iso8601(comment.published),
            "dateHuman": dates.human(comment.published), "edited": comment.updated != nil,
        ]
        if let avatar = comment.avatarURL { context["avatar"] = avatar } else { context["initial"] = Self.initial(comment.authorName) }
        if let summary = comment.summary, !summary.isEmpty { context["summary"] = summary }
        else if comment.sensitive { context["summary"] = "Sensitive content" }
        if let title = comment.title { context["title"] = title }
        if !comment.attachments.isEmpty {
            context["attachments"] = comment.attachments.map { ["url": $0.url, "label": $0.label, "kind": $0.kind.rawValue] as [String: any TemplateValue] }
            context["hasAttachments"] = true
        }
        if let poll = comment.poll {
            let total = max(1, poll.totalVotes)
            context["poll"] = [
                "options": poll.options.map { ["name": $0.name, "votes": $0.votes, "percent": $0.votes * 100 / total] as [String: any TemplateValue] },
                "total": poll.totalVotes, "closed": poll.closed, "multiple": poll.multiple,
            ] as [String: any TemplateValue]
        }
        if let quote = comment.quoteURL { context["quote"] = quote }
        return context
    }

    /// The first letter of a name, upper-cased, for an avatar's placeholder ("?" for none).
    static func initial(_ name: String) -> String {
        name.first { $0.isLetter || $0.isNumber }.map { String($0).uppercased() } ?? "?"
    }

    /// The JSON the page script reads: the newest page of comments, like the post's page.
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
            let title: String?
            let attachments: [CommentAttachment]
            let poll: CommentPoll?
            let quote: String?
        }
        struct Document: Encodable {
            let post, heading: String
            let count, likes, announces: Int
            let comments: [Item]
            /// Pages of older comments, oldest first.
            let olderPages: [String]
        }
        let items = pages[pageCount - 1].map { entry in
            let c = entry.comment
            return Item(id: c.id, anchor: Self.anchor(c.id), depth: entry.depth, parent: c.parentID,
                        author: Author(name: c.authorName, handle: c.authorHandle, url: c.authorURL, avatar: c.avatarURL),
                        url: c.url, content: c.contentHTML, summary: c.summary ?? (c.sensitive ? "Sensitive content" : nil),
                        sensitive: c.sensitive, published: dates.iso8601(c.published),
                        updated: c.updated.map(dates.iso8601), title: c.title, attachments: c.attachments,
                        poll: c.poll, quote: c.quoteURL)
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(Document(post: postPath, heading: heading, count: discussion.comments.count,
                                           likes: discussion.likes, announces: discussion.announces, comments: items,
                                           olderPages: (1..<pageCount).map(path(ofPage:))))
    }
}
