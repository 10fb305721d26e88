import Foundation

/// An actor: the blog (`Person` by default) or the instance actor (`Application`).
public struct ActorDocument: Encodable, Sendable {
    public struct Endpoints: Encodable, Sendable {
        public var sharedInbox: String
        public init(sharedInbox: String) { self.sharedInbox = sharedInbox }
    }

    public var context: JSONValue = AS.actorContext
    public var id: String
    public var type: String
    public var preferredUsername: String
    public var name: String
    public var summary: String
    public var url: String
    public var icon: ImageObject?
    public var image: ImageObject?
    public var inbox: String
    public var outbox: String
    public var followers: String
    public var following: String
    public var featured: String?
    public var endpoints: Endpoints
    public var publicKey: PublicKeyDocument
    /// FEP-521a: the Ed25519 key of the actor's object integrity proofs (FEP-8b32).
    public var assertionMethod: [MultikeyDocument]?
    public var manuallyApprovesFollowers: Bool
    public var discoverable: Bool
    public var indexable: Bool
    public var published: String
    public var attributionDomains: [String]?
    public var alsoKnownAs: [String]?
    /// The account the blog moved to (`lectern move`): servers move its followers there.
    public var movedTo: String?
    public var attachment: [PropertyValue]?
    /// FEP-2c59: the account's WebFinger address (`blog@blog.example`), so a server can check
    /// that the handle it shows is the one the actor's own domain answers for.
    public var webfinger: String?
    public var interactionPolicy: InteractionPolicy?

    enum CodingKeys: String, CodingKey {
        case context = "@context"
        case id, type, preferredUsername, name, summary, url, icon, image, inbox, outbox, followers, following
        case featured, endpoints, publicKey, assertionMethod, manuallyApprovesFollowers, discoverable, indexable, published
        case attributionDomains, alsoKnownAs, movedTo, attachment, webfinger, interactionPolicy
    }

    public init(id: String, type: String, preferredUsername: String, name: String, summary: String, url: String,
                icon: ImageObject?, image: ImageObject?, inbox: String, outbox: String, followers: String,
                following: String, featured: String?, sharedInbox: String, publicKey: PublicKeyDocument,
                manuallyApprovesFollowers: Bool, discoverable: Bool, indexable: Bool, published: String,
                attributionDomains: [String]?, alsoKnownAs: [String]?, attachment: [PropertyValue]?) {
        (self.id, self.type, self.preferredUsername, self.name, self.summary, self.url) =
            (id, type, preferredUsername, name, summary, url)
        (self.icon, self.image, self.inbox, self.outbox, self.followers, self.following, self.featured) =
            (icon, image, inbox, outbox, followers, following, featured)
        self.endpoints = Endpoints(sharedInbox: sharedInbox)
        (self.publicKey, self.manuallyApprovesFollowers, self.discoverable, self.indexable, self.published) =
            (publicKey, manuallyApprovesFollowers, discoverable, indexable, published)
        (self.attributionDomains, self.alsoKnownAs, self.attachment) = (attributionDomains, alsoKnownAs, attachment)
    }
}

/// A public key as FEP-521a lists it in an actor's `assertionMethod`: `Multikey`, controlled by
/// the actor, `publicKeyMultibase` = `z` + base58btc(multicodec prefix + key).
public struct MultikeyDocument: Encodable, Equatable, Sendable {
    public var id: String
    public var type = "Multikey"
    public var controller: String
    public var publicKeyMultibase: String

    public init(id: String, controller: String, publicKeyMultibase: String) {
        (self.id, self.controller, self.publicKeyMultibase) = (id, controller, publicKeyMultibase)
    }
}

/// A blog post as an ActivityStreams `Article`.
public struct ArticleDocument: Encodable, Sendable {
    public var context: JSONValue? = AS.objectContext
    public var id: String
    public var type = "Article"
    /// The title. In a post as it federates, under its language in `nameMap` instead (below).
    public var name: String?
    public var nameMap: [String: String]?
    public var summary: String?
    public var summaryMap: [String: String]?
    public var content: String
    public var contentMap: [String: String]?
    public var mediaType = "text/html"
    public var url: String
    public var attributedTo: String
    public var published: String
    public var updated: String?
    public var to: [String]
    public var cc: [String]
    public var tag: [Hashtag]
    public var attachment: [ImageObject]
    public var replies: String
    /// Reaction counts, as collections (Mastodon reads `totalItems`), each fetchable at its id.
    public var likes: CountCollection?
    public var shares: CountCollection?
    public var sensitive = false
    /// The image shown with the post (OpenGraph's `og:image` too).
    public var image: ImageObject?
    /// FEP-b2b8: a short Note some servers show instead of the whole article.
    public var preview: NoteDocument?
    /// FEP-7888: the thread, a collection of the post and its public comments.
    public var threadContext: String?
    /// Who may quote the post without asking (FEP-044f, as Mastodon 4.5 reads it).
    public var interactionPolicy: InteractionPolicy?

    enum CodingKeys: String, CodingKey {
        case context = "@context"
        case id, type, name, nameMap, summary, summaryMap, content, contentMap, mediaType, url, attributedTo, published, updated
        case to, cc, tag
        case attachment, replies, likes, shares, sensitive, image, preview, interactionPolicy
        case threadContext = "context"
    }

    public init(id: String, name: String, summary: String?, content: String, url: String, attributedTo: String,
                published: String, updated: String?, to: [String], cc: [String], tag: [Hashtag],
                attachment: [ImageObject], replies: String) {
        (self.id, self.name, self.summary, self.content, self.url, self.attributedTo) =
            (id, name, summary, content, url, attributedTo)
        (self.published, self.updated, self.to, self.cc, self.tag, self.attachment, self.replies) =
            (published, updated, to, cc, tag, attachment, replies)
    }
}

/// `interactionPolicy` (GoToSocial's, read by Mastodon 4.5 for quotes): who may quote without asking.
public struct InteractionPolicy: Encodable, Sendable, Equatable {
    public struct Rule: Encodable, Sendable, Equatable {
        public var automaticApproval: [String]
        public var manualApproval: [String] = []
        public init(automaticApproval: [String]) { self.automaticApproval = automaticApproval }
    }
    /// Who may quote a post (Mastodon 4.5).
    public var canQuote: Rule?
    /// Who may feature the actor in their collections without asking (Mastodon 4.6, WordPress 9).
    public var canFeature: Rule?
    public init(canQuote: Rule? = nil, canFeature: Rule? = nil) { (self.canQuote, self.canFeature) = (canQuote, canFeature) }
}

/// A collection known only by its size: a post's likes or shares.
public struct CountCollection: Encodable, Equatable, Sendable {
    /// Set when the collection is served on its own (embedded in a post, it has none).
    public var context: JSONValue?
    public var id: String
    public var type = "Collection"
    public var totalItems: Int

    enum CodingKeys: String, CodingKey {
        case context = "@context"
        case id, type, totalItems
    }

    public init(id: String, totalItems: Int, context: JSONValue? = nil) {
        (self.id, self.totalItems, self.context) = (id, totalItems, context)
    }
}

/// `Create` of an Article, as the outbox lists it.
public struct CreateActivity: Encodable, Sendable {
    public var id: String
    public var type = "Create"
    public var actor: String
    public var published: String
    public var to: [String]
    public var cc: [String]
    public var object: ArticleDocument

    public init(id: String, actor: String, published: String, to: [String], cc: [String], object: ArticleDocument) {
        (self.id, self.actor, self.published, self.to, self.cc, self.object) = (id, actor, published, to, cc, object)
    }
}

/// What a removed post's id answers with (410 Gone).
public struct TombstoneDocument: Encodable, Sendable {
    public var context: JSONValue = .string(AS.namespace)
    public var id: String
    public var type = "Tombstone"
    public var formerType = "Article"
    /// When it was removed; nil for an object that is simply not offered (left out of the JSON).
    public var deleted: String?

    enum CodingKeys: String, CodingKey {
        case context = "@context"
        case id, type, formerType, deleted
    }

    public init(id: String, deleted: String?) {
        self.id = id
        self.deleted = deleted
    }
}

/// `OrderedCollection` with its first page linked (or items inline when small and unpaged).
public struct OrderedCollectionDocument: Encodable, Sendable {
    public var context: JSONValue = .string(AS.namespace)
    public var id: String
    public var type = "OrderedCollection"
    public var totalItems: Int
    public var first: String?
    public var last: String?
    public var orderedItems: [JSONValue]?
    /// Who the collection belongs to (FEP-7888 asks it of a thread's `context`).
    public var attributedTo: String?

    enum CodingKeys: String, CodingKey {
        case context = "@context"
        case id, type, totalItems, first, last, orderedItems, attributedTo
    }

    public init(id: String, totalItems: Int, first: String? = nil, last: String? = nil, orderedItems: [JSONValue]? = nil) {
        (self.id, self.totalItems, self.first, self.last, self.orderedItems) = (id, totalItems, first, last, orderedItems)
    }
}

public struct OrderedCollectionPageDocument: Encodable, Sendable {
    public var context: JSONValue = .string(AS.namespace)
    public var id: String
    public var type = "OrderedCollectionPage"
    public var partOf: String
    public var totalItems: Int
    public var next: String?
    public var prev: String?
    public var orderedItems: [JSONValue]

    enum CodingKeys: String, CodingKey {
        case context = "@context"
        case id, type, partOf, totalItems, next, prev, orderedItems
    }

    public init(id: String, partOf: String, totalItems: Int, next: String?, prev: String?, orderedItems: [JSONValue]) {
        (self.id, self.partOf, self.totalItems, self.next, self.prev, self.orderedItems) =
            (id, partOf, totalItems, next, prev, orderedItems)
    }
}

/// Encodes documents the one way Lectern serves them: sorted keys (stable output, golden files),
/// no escaped slashes.
public enum ASEncoder {
    public static func encode(_ value: some Encodable) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(value)
    }

    /// A value as `JSONValue`, to put documents of different types in one collection.
    public static func value(_ value: some Encodable) throws -> JSONValue {
        try JSONDecoder().decode(JSONValue.self, from: encode(value))
    }
}
