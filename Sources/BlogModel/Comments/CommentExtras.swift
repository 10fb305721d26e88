import Foundation

/// A file attached to a comment, shown as a link with its alt text: the page loads nothing from
/// the commenter's server (readers' addresses stay theirs, and no image jumps into place).
public struct CommentAttachment: Codable, Sendable, Equatable {
    public enum Kind: String, Codable, Sendable { case image, video, audio, document, link }

    /// An http(s) URL, already checked.
    public var url: String
    /// Alt text or file name.
    public var name: String?
    public var kind: Kind
    public var width: Int?
    public var height: Int?

    public init(url: String, name: String?, kind: Kind, width: Int? = nil, height: Int? = nil) {
        (self.url, self.name, self.kind, self.width, self.height) = (url, name, kind, width, height)
    }

    /// The kind from the attachment's type and media type (`Document` with `image/png` is an image).
    public static func kind(type: String?, mediaType: String?) -> Kind {
        let media = mediaType ?? ""
        if media.hasPrefix("image/") || type == "Image" { return .image }
        if media.hasPrefix("video/") || type == "Video" { return .video }
        if media.hasPrefix("audio/") || type == "Audio" { return .audio }
        if type == "Link" || media.hasPrefix("text/html") { return .link }
        return .document
    }

    public static func encode(_ attachments: [CommentAttachment]) -> String {
        (try? String(decoding: JSONEncoder().encode(attachments), as: UTF8.self)) ?? "[]"
    }

    public static func decode(_ json: String?) -> [CommentAttachment] {
        guard let json else { return [] }
        return (try? JSONDecoder().decode([CommentAttachment].self, from: Data(json.utf8))) ?? []
    }

    /// "Image: a diagram of…" — what a link to it says.
    public var label: String {
        let what = switch kind {
        case .image: "Image"
        case .video: "Video"
        case .audio: "Audio"
        case .document: "File"
        case .link: "Link"
        }
        return name.map { "\(what): \($0)" } ?? what
    }
}

/// A poll in a comment (a Mastodon `Question`), shown with its choices and counts.
public struct CommentPoll: Codable, Sendable, Equatable {
    public struct Option: Codable, Sendable, Equatable {
        public var name: String
        public var votes: Int
        public init(name: String, votes: Int) { (self.name, self.votes) = (name, votes) }
    }
    public var options: [Option]
    public var multiple: Bool
    public var closed: Bool

    public init(options: [Option], multiple: Bool, closed: Bool) {
        (self.options, self.multiple, self.closed) = (options, multiple, closed)
    }

    public static func decode(_ json: String?) -> CommentPoll? {
        json.flatMap { try? JSONDecoder().decode(CommentPoll.self, from: Data($0.utf8)) }
    }

    public var totalVotes: Int { options.reduce(0) { $0 + $1.votes } }
}
