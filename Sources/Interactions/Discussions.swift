import BlogModel
import Foundation
import HTMLMarkup
import Storage

/// The discussions pages show, read from the store: approved comments with their authors,
/// and reaction counts. The builder renders them (`Discussions.source()`, in LecternRuntime).
public struct Discussions: Sendable {
    public let comments: Comments
    public let reactions: Reactions

    public init(comments: Comments, reactions: Reactions) { (self.comments, self.reactions) = (comments, reactions) }

    /// One post's discussion.
    public func discussion(postPath: String) throws -> Discussion {
        let counts = try reactions.reactionCounts(postPath: postPath)
        return Discussion(comments: try comments.comments(state: .approved, postPath: postPath, limit: Int.max).reversed().map(Self.comment),
                          likes: counts.likes, announces: counts.announces)
    }

    /// What a page shows of a stored comment. Values were cleaned when stored; they are cleaned
    /// again here so rows written by older versions, or edited by hand, cannot reach a page raw.
    static func comment(_ shown: ShownComment) -> Discussion.Comment {
        let c = shown.comment, author = shown.author
        let handle = DisplayText.name(author.handle ?? author.id, limit: 200)
        let name = author.name.map { DisplayText.name($0) }.flatMap { $0.isEmpty ? nil : $0 } ?? handle
        let profile = author.url.flatMap(HTTPURL.parse) ?? HTTPURL.parse(author.id) ?? ""
        var comment = Discussion.Comment(id: c.id, parentID: c.parentID, authorName: name, authorHandle: handle,
                                         authorURL: profile, avatarURL: author.icon.flatMap(HTTPURL.parse),
                                         url: c.url.flatMap(HTTPURL.parse) ?? HTTPURL.parse(c.id) ?? profile,
                                         contentHTML: c.contentHTML, summary: c.summary.map { DisplayText.name($0, limit: 500) },
                                         sensitive: c.sensitive, published: c.publishedAt, updated: c.updatedAt)
        comment.title = c.title.map { DisplayText.name($0, limit: 300) }
        comment.attachments = CommentAttachment.decode(c.attachments).filter { HTTPURL.parse($0.url) == $0.url }
        comment.poll = CommentPoll.decode(c.poll)
        comment.quoteURL = c.quoteURL.flatMap(HTTPURL.parse)
        return comment
    }
}
