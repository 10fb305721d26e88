/// A `Note` the blog writes: a direct message (automatic replies, digests), or a post federated
/// as a Note (`federation.postsAs: Note`).
public struct NoteDocument: ActivityObject, Equatable {
    public var context: JSONValue?
    public var id: String
    public var type = "Note"
    public var attributedTo: String
    public var published: String
    public var updated: String?
    public var to: [String]
    public var cc: [String]
    public var content: String
    /// `content` again under its language (`{"en": …}`): how Mastodon and GoToSocial learn it.
    public var contentMap: [String: String]?
    public var inReplyTo: String?
    public var url: String?
    public var tag: [Tag] = []
    public var attachment: [ImageObject] = []
    public var replies: String?
    public var contextCollection: String?
    public var sensitive: Bool?
    /// Posts federated as Notes carry their counts and quote policy, as Articles do.
    public var likes: CountCollection?
    public var shares: CountCollection?
    public var interactionPolicy: InteractionPolicy?

    /// A `Mention` or a `Hashtag`.
    public struct Tag: Encodable, Sendable, Equatable {
        public var type: String
        public var href: String
        public var name: String
        public init(type: String, href: String, name: String) { (self.type, self.href, self.name) = (type, href, name) }
    }

    enum CodingKeys: String, CodingKey {
        case context = "@context"
        case id, type, attributedTo, published, updated, to, cc, content, contentMap, inReplyTo, url, tag, attachment, replies, sensitive
        case likes, shares, interactionPolicy
        case contextCollection = "context"
    }

    public init(id: String, attributedTo: String, published: String, to: [String], cc: [String], content: String) {
        (self.id, self.attributedTo, self.published, self.to, self.cc, self.content) = (id, attributedTo, published, to, cc, content)
    }

    public var objectID: String? { id }
}

/// A quote request granted (FEP-044f, Mastodon 4.5): fetchable at its id, it proves the blog
/// allowed `interactingObject` to quote `interactionTarget`.
public struct QuoteAuthorization: ActivityObject, Equatable {
    public var context: JSONValue? = .array([.string(AS.namespace), ["QuoteAuthorization": "https://w3id.org/fep/044f#QuoteAuthorization",
                                                                     "gts": "https://gotosocial.org/ns#",
                                                                     "interactingObject": ["@id": "gts:interactingObject", "@type": "@id"],
                                                                     "interactionTarget": ["@id": "gts:interactionTarget", "@type": "@id"]]])
    public var id: String
    public var type = "QuoteAuthorization"
    public var attributedTo: String
    public var interactingObject: String
    public var interactionTarget: String

    enum CodingKeys: String, CodingKey {
        case context = "@context"
        case id, type, attributedTo, interactingObject, interactionTarget
    }

    public init(id: String, attributedTo: String, interactingObject: String, interactionTarget: String) {
        (self.id, self.attributedTo, self.interactingObject, self.interactionTarget) = (id, attributedTo, interactingObject, interactionTarget)
    }

    public var objectID: String? { id }
}
