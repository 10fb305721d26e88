/// The activity types the blog acts on, and `other` for the rest (whose name is kept for the log).
///
/// ```swift
/// ActivityType("Create") == .create
/// ActivityType("Listen") == .other("Listen")
/// ```
public enum ActivityType: Equatable, Sendable {
    case create, update, delete, follow, accept, reject, undo, like, announce, emojiReact, dislike
    case add, remove, block, flag, move, quoteRequest
    case other(String)

    public init(_ name: String) {
        switch name {
        case "Create": self = .create
        case "Update": self = .update
        case "Delete": self = .delete
        case "Follow": self = .follow
        case "Accept": self = .accept
        case "Reject": self = .reject
        case "Undo": self = .undo
        case "Like": self = .like
        case "Announce": self = .announce
        case "EmojiReact": self = .emojiReact
        case "Dislike": self = .dislike
        case "Add": self = .add
        case "Remove": self = .remove
        case "Block": self = .block
        case "Flag": self = .flag
        case "Move": self = .move
        case "QuoteRequest": self = .quoteRequest
        default: self = .other(name)
        }
    }
}

/// What kind of thing an object is, as far as replies go: the types servers write posts in.
public enum ObjectKind: String, Sendable, CaseIterable {
    case note = "Note", article = "Article", page = "Page", question = "Question", video = "Video", image = "Image"
    case event = "Event", audio = "Audio", document = "Document", review = "Review", comment = "Comment"
    case chatMessage = "ChatMessage", tombstone = "Tombstone"

    /// The kinds a reply to a post may be and become a comment (a chat message is private).
    public var canBeComment: Bool { self != .chatMessage && self != .tombstone }
}
