import Foundation

/// What readers said about a post on the fediverse, as its page shows it: threaded comments
/// (already sanitized) and reaction counts. `Site` renders it; it does not know where it came from.
public struct Discussion: Sendable, Equatable {
    public var comments: [Comment]
    public var likes: Int
    public var announces: Int

    public init(comments: [Comment] = [], likes: Int = 0, announces: Int = 0) {
        self.comments = comments
        self.likes = likes
        self.announces = announces
    }

    public var isEmpty: Bool { comments.isEmpty && likes == 0 && announces == 0 }

    public struct Comment: Sendable, Equatable {
        public var id: String
        public var parentID: String?
        public var authorName: String
        /// `@name@host`
        public var authorHandle: String
        public var authorURL: String
        public var avatarURL: String?
        /// The note on its own server.
        public var url: String
        /// Sanitized by `HTMLSanitizer` before it was stored.
        public var contentHTML: String
        /// Content warning: the comment is shown collapsed under it.
        public var summary: String?
        public var sensitive: Bool
        public var published: Date
        public var updated: Date?
        /// A reply that is not a Note (an Article, an Event…) is shown by its title.
        public var title: String?
        public var attachments: [CommentAttachment] = []
        public var poll: CommentPoll?
        /// The URL of a post it quotes.
        public var quoteURL: String?

        public init(id: String, parentID: String?, authorName: String, authorHandle: String, authorURL: String,
                    avatarURL: String?, url: String, contentHTML: String, summary: String?, sensitive: Bool,
                    published: Date, updated: Date?) {
            (self.id, self.parentID, self.authorName, self.authorHandle, self.authorURL) =
                (id, parentID, authorName, authorHandle, authorURL)
            (self.avatarURL, self.url, self.contentHTML, self.summary, self.sensitive, self.published, self.updated) =
                (avatarURL, url, contentHTML, summary, sensitive, published, updated)
        }
    }

    /// Comments in reading order: each followed by its replies, oldest first, with their depth.
    /// A reply whose parent is not shown (removed, hidden) moves up to the top level.
    public func threaded() -> [(comment: Comment, depth: Int)] {
        let shown = Set(comments.map(\.id))
        var children: [String: [Comment]] = [:]
        var roots: [Comment] = []
        for comment in comments.sorted(by: { ($0.published, $0.id) < ($1.published, $1.id) }) {
            if let parent = comment.parentID, parent != comment.id, shown.contains(parent) {
                children[parent, default: []].append(comment)
            } else {
                roots.append(comment)
            }
        }
        var result: [(Comment, Int)] = []
        var visited = Set<String>()
        func walk(_ comment: Comment, _ depth: Int) {
            guard visited.insert(comment.id).inserted else { return }  // a cycle in remote data
            result.append((comment, depth))
            for child in children[comment.id] ?? [] { walk(child, depth + 1) }
        }
        for root in roots { walk(root, 0) }
        return result
    }

    /// Changes whenever anything the page shows of the discussion changes.
    public var fingerprint: ContentHash {
        var hash = ContentHash("discussion", String(likes), String(announces))
        for comment in comments { comment.fingerprint(into: &hash) }
        return hash
    }
}

extension Discussion.Comment {
    /// Adds everything the page shows of this comment to `hash`.
    package func fingerprint(into hash: inout ContentHash) {
        hash.combine("\(id)|\(parentID ?? "")|\(authorName)|\(authorHandle)")
        hash.combine("\(avatarURL ?? "")|\(url)|\(summary ?? "")|\(sensitive)")
        hash.combine("\(published.timeIntervalSince1970)|\(updated?.timeIntervalSince1970 ?? 0)")
        hash.combine(contentHTML)
        hash.combine("\(title ?? "")|\(quoteURL ?? "")|\(CommentAttachment.encode(attachments))")
        if let poll { hash.combine(poll.options.map { "\($0.name)=\($0.votes)" }.joined(separator: "|")) }
    }
}
