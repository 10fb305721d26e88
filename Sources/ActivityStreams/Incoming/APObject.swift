import Foundation

/// Anything that arrives over ActivityPub — an activity or the object it carries — read
/// tolerantly: JSON-LD lets a property be a string, an object, a `Link` or an array of any of
/// them, servers use every form, and a property of an unexpected shape is left out rather than
/// making the whole document unreadable. One type serves activities and objects because they
/// nest both ways (an `Announce` of a `Create` of a `Note`).
///
/// ```swift
/// let activity = try JSONDecoder().decode(APObject.self, from: body)
/// activity.activityType        // .create
/// activity.object?.embedded    // the Note
/// ```
public struct APObject: Decodable, Sendable {
    public var id: String?
    /// Every type given (`["Note", "ex:Extra"]`); the first known one decides.
    public var types: [String] = []
    public var actor: [String] = []
    public var object: Reference<APObject>?
    public var target: Reference<APObject>?
    /// A quote request's quoting post (FEP-044f).
    public var instrument: Reference<APObject>?
    public var attributedTo: [String] = []
    public var inReplyTo: Reference<APObject>?
    public var to: [String] = []
    public var cc: [String] = []
    public var content: String?
    /// Language → HTML, when a server sends translations (or only these).
    public var contentMap: [String: String] = [:]
    public var summary: String?
    public var sensitive = false
    public var name: String?
    public var url: [APLink] = []
    public var published: String?
    public var updated: String?
    public var tag: [APTag] = []
    public var attachment: [APAttachment] = []
    /// The URL of a quoted post (`quote`, `quoteUrl`, `quoteUri`, `_misskey_quote`).
    public var quote: String?
    /// A poll's choices (`oneOf`, or `anyOf` for several answers).
    public var pollOptions: [APPollOption] = []
    public var multipleChoice = false
    public var closed: String?
    /// The thread the object belongs to (FEP-7888 `context`, or `conversation`).
    public var context: String?
    /// Emoji reactions name their emoji in `content` (Misskey's `_misskey_reaction` too).
    public var reaction: String?

    // An actor's document, as far as the blog keeps it (`ActorConversion`).
    public var preferredUsername: String?
    public var inbox: String?
    /// `endpoints.sharedInbox`.
    public var sharedInbox: String?
    /// `icon`: a URL, or Images whose `url` is one (or Links).
    public var icon: [APAttachment] = []
    /// `publicKey`: one key or an array (Mastodon's RSA keys).
    public var publicKey: [APKey] = []
    /// `assertionMethod`: FEP-521a `Multikey`s, for object integrity proofs.
    public var assertionMethod: [APKey] = []
    public var alsoKnownAs: [String] = []
    /// A key document's owner (`publicKey` served at its own URL, GoToSocial's way) or
    /// controller (a `Multikey`).
    public var owner: String?
    public var controller: String?

    public init(id: String?, types: [String]) {
        self.id = id
        self.types = types
    }

    enum Key: String, CodingKey {
        case id, type, actor, object, target, instrument, attributedTo, inReplyTo, to, cc, content, contentMap, summary, sensitive
        case name, url, published, updated, tag, attachment, quote, quoteUrl, quoteUri, oneOf, anyOf, closed, endTime
        case context, conversation, misskeyQuote = "_misskey_quote", misskeyReaction = "_misskey_reaction"
        case preferredUsername, inbox, endpoints, icon, publicKey, assertionMethod, alsoKnownAs, owner, controller
    }
    enum EndpointsKey: String, CodingKey { case sharedInbox }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Key.self)
        id = c.text(.id)
        types = c.texts(.type)
        actor = c.ids(.actor)
        object = c.lenient(Reference<APObject>.self, .object)
        target = c.lenient(Reference<APObject>.self, .target)
        instrument = c.lenient(Reference<APObject>.self, .instrument)
        attributedTo = c.ids(.attributedTo)
        inReplyTo = c.lenient(Reference<APObject>.self, .inReplyTo)
        to = c.ids(.to)
        cc = c.ids(.cc)
        content = c.text(.content)
        contentMap = c.lenient([String: String].self, .contentMap) ?? [:]
        summary = c.text(.summary)
        sensitive = c.lenient(Bool.self, .sensitive) ?? false
        name = c.text(.name)
        url = c.many(APLink.self, .url)
        published = c.text(.published)
        updated = c.text(.updated)
        tag = c.many(APTag.self, .tag)
        attachment = c.many(APAttachment.self, .attachment)
        quote = c.text(.quote) ?? c.text(.quoteUrl) ?? c.text(.quoteUri) ?? c.text(.misskeyQuote)
            ?? c.lenient(Reference<APObject>.self, .quote)?.id
        let anyOf = c.many(APPollOption.self, .anyOf)
        pollOptions = anyOf.isEmpty ? c.many(APPollOption.self, .oneOf) : anyOf
        multipleChoice = !anyOf.isEmpty
        closed = c.text(.closed) ?? (c.lenient(Bool.self, .closed) == true ? c.text(.endTime) ?? "closed" : nil)
        context = c.lenient(Reference<APObject>.self, .context)?.id ?? c.text(.conversation)
        reaction = c.text(.misskeyReaction)
        preferredUsername = c.text(.preferredUsername)
        inbox = c.text(.inbox)
        sharedInbox = (try? c.nestedContainer(keyedBy: EndpointsKey.self, forKey: .endpoints))?.text(.sharedInbox)
        icon = c.text(.icon).map { [APAttachment(url: [APLink(href: $0)])] } ?? c.many(APAttachment.self, .icon)
        publicKey = c.many(APKey.self, .publicKey)
        assertionMethod = c.many(APKey.self, .assertionMethod)
        alsoKnownAs = c.ids(.alsoKnownAs)
        owner = c.text(.owner)
        controller = c.text(.controller)
    }

    /// The first type this vocabulary knows, as an activity.
    public var activityType: ActivityType { ActivityType(types.first ?? "") }

    /// What kind of object it is (nil for types that are not posts: activities, actors, unknowns).
    public var kind: ObjectKind? { types.lazy.compactMap(ObjectKind.init(rawValue:)).first }

    /// Every address, `to` and `cc` together.
    public var audience: [String] { to + cc }
}

/// A URL with what it points at: `url` and attachments' `url` are strings, `Link`s or arrays.
public struct APLink: Decodable, Sendable, Equatable {
    public var href: String
    public var mediaType: String?

    public init(href: String, mediaType: String? = nil) {
        self.href = href
        self.mediaType = mediaType
    }

    enum Key: String, CodingKey { case href, url, mediaType }

    public init(from decoder: any Decoder) throws {
        if let text = try? decoder.singleValueContainer().decode(String.self) {
            href = text
            return
        }
        let c = try decoder.container(keyedBy: Key.self)
        guard let href = c.text(.href) ?? c.text(.url) else {
            throw DecodingError.keyNotFound(Key.href, .init(codingPath: decoder.codingPath, debugDescription: "a link needs an href"))
        }
        self.href = href
        mediaType = c.text(.mediaType)
    }
}

/// A `Mention`, `Hashtag`, `Emoji` or a FEP-e232 `Link` in `tag`.
public struct APTag: Decodable, Sendable {
    public var type: String?
    public var href: String?
    public var name: String?
    public var mediaType: String?
    /// An `Emoji`'s image.
    public var icon: String?

    enum Key: String, CodingKey { case type, href, name, mediaType, icon, id }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Key.self)
        type = c.texts(.type).first
        href = c.text(.href) ?? c.text(.id)
        name = c.text(.name)
        mediaType = c.text(.mediaType)
        icon = c.lenient(APAttachment.self, .icon)?.url.first?.href
    }
}

/// A file attached to a post: an image, a video, a sound, a document, or a link.
public struct APAttachment: Decodable, Sendable {
    public var type: String?
    public var mediaType: String?
    public var url: [APLink] = []
    /// Alt text (or the file's name).
    public var name: String?
    public var width: Int?
    public var height: Int?

    enum Key: String, CodingKey { case type, mediaType, url, href, name, summary, width, height }

    public init(url: [APLink]) { self.url = url }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Key.self)
        type = c.texts(.type).first
        mediaType = c.text(.mediaType)
        url = c.many(APLink.self, .url)
        if url.isEmpty, let href = c.text(.href) { url = [APLink(href: href, mediaType: mediaType)] }
        name = c.text(.name) ?? c.text(.summary)
        width = c.lenient(Int.self, .width)
        height = c.lenient(Int.self, .height)
    }
}

/// One choice of a poll and how many chose it (`replies.totalItems`).
public struct APPollOption: Decodable, Sendable, Equatable {
    public var name: String
    public var votes: Int

    enum Key: String, CodingKey { case name, replies }
    enum RepliesKey: String, CodingKey { case totalItems }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Key.self)
        guard let name = c.text(.name) else {
            throw DecodingError.keyNotFound(Key.name, .init(codingPath: decoder.codingPath, debugDescription: "a poll option has a name"))
        }
        self.name = name
        votes = (try? c.nestedContainer(keyedBy: RepliesKey.self, forKey: .replies)).flatMap { try? $0.decode(Int.self, forKey: .totalItems) } ?? 0
    }
}

/// A key an actor lists, or a key document: an RSA `publicKey` (`publicKeyPem`, `owner`) or a
/// FEP-521a `Multikey` (`publicKeyMultibase`, `controller`).
public struct APKey: Decodable, Sendable, Equatable {
    public var id: String?
    public var types: [String] = []
    public var owner: String?
    public var controller: String?
    public var publicKeyPem: String?
    public var publicKeyMultibase: String?
    /// Whether the key states an expiry (FEP-521a).
    public var expires = false

    enum Key: String, CodingKey { case id, type, owner, controller, publicKeyPem, publicKeyMultibase, expires }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Key.self)
        id = c.text(.id)
        types = c.texts(.type)
        owner = c.text(.owner)
        controller = c.text(.controller)
        publicKeyPem = c.text(.publicKeyPem)
        publicKeyMultibase = c.text(.publicKeyMultibase)
        expires = c.contains(.expires)
    }
}
