import Foundation

/// Names and contexts of the ActivityStreams vocabulary as Mastodon reads it.
public enum AS {
    public static let namespace = "https://www.w3.org/ns/activitystreams"
    public static let publicAddress = "https://www.w3.org/ns/activitystreams#Public"
    public static let mediaType = "application/activity+json"
    public static let ldMediaType = "application/ld+json; profile=\"https://www.w3.org/ns/activitystreams\""

    /// The `@context` of actors: ActivityStreams, security (publicKey), data integrity and
    /// Multikey (FEP-521a's `assertionMethod`, as Mastodon and Fedify list them) and Mastodon's terms.
    public static let actorContext: JSONValue = [
        .string(namespace), "https://w3id.org/security/v1", "https://w3id.org/security/data-integrity/v1",
        "https://w3id.org/security/multikey/v1",
        [
            "manuallyApprovesFollowers": "as:manuallyApprovesFollowers", "toot": "http://joinmastodon.org/ns#",
            "featured": ["@id": "toot:featured", "@type": "@id"], "discoverable": "toot:discoverable",
            "indexable": "toot:indexable", "attributionDomains": ["@id": "toot:attributionDomains", "@type": "@id"],
            "alsoKnownAs": ["@id": "as:alsoKnownAs", "@type": "@id"],
            "movedTo": ["@id": "as:movedTo", "@type": "@id"], "schema": "http://schema.org#",
            "PropertyValue": "schema:PropertyValue", "value": "schema:value",
            "webfinger": "https://purl.archive.org/socialweb/webfinger#webfinger",
            "gts": "https://gotosocial.org/ns#", "interactionPolicy": ["@id": "gts:interactionPolicy", "@type": "@id"],
            "canFeature": ["@id": "gts:canFeature", "@type": "@id"],
            "automaticApproval": ["@id": "gts:automaticApproval", "@type": "@id"],
            "manualApproval": ["@id": "gts:manualApproval", "@type": "@id"],
        ],
    ]

    /// The `@context` of objects and activities.
    public static let objectContext: JSONValue = [.string(namespace), [
        "Hashtag": "as:Hashtag", "sensitive": "as:sensitive", "gts": "https://gotosocial.org/ns#",
        "interactionPolicy": ["@id": "gts:interactionPolicy", "@type": "@id"],
        "canQuote": ["@id": "gts:canQuote", "@type": "@id"],
        "automaticApproval": ["@id": "gts:automaticApproval", "@type": "@id"],
        "manualApproval": ["@id": "gts:manualApproval", "@type": "@id"],
        "preview": ["@id": "as:preview", "@type": "@id"],
    ]]
}

/// `2025-03-01T09:30:00Z`: ActivityStreams dates, always UTC, no fractions.
public enum ASDate {
    public static func format(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        func two(_ v: Int?) -> String { let v = v ?? 0; return v < 10 ? "0\(v)" : "\(v)" }
        return "\(c.year!)-\(two(c.month))-\(two(c.day))T\(two(c.hour)):\(two(c.minute)):\(two(c.second))Z"
    }
}

public struct ImageObject: Encodable, Equatable, Sendable {
    public var type = "Image"
    public var url: String
    public var mediaType: String?
    public var name: String?

    public init(url: String, mediaType: String? = nil, name: String? = nil) {
        self.url = url
        self.mediaType = mediaType
        self.name = name
    }
}

public struct PublicKeyDocument: Encodable, Equatable, Sendable {
    public var id: String
    public var owner: String
    public var publicKeyPem: String

    public init(id: String, owner: String, publicKeyPem: String) {
        self.id = id
        self.owner = owner
        self.publicKeyPem = publicKeyPem
    }
}

/// A profile field (`name: value`), shown as a table on Mastodon profiles.
public struct PropertyValue: Encodable, Equatable, Sendable {
    public var type = "PropertyValue"
    public var name: String
    public var value: String

    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}

public struct Hashtag: Encodable, Equatable, Sendable {
    public var type = "Hashtag"
    public var href: String
    public var name: String

    public init(href: String, name: String) {
        self.href = href
        self.name = name
    }
}

/// A key served at its own id (a rotated key of the blog), as GoToSocial and others serve theirs:
/// verifiers find its `owner` and check that the owner lists it.
public struct KeyDocument: Encodable, Equatable, Sendable {
    public var context: JSONValue = .array([.string(AS.namespace), .string("https://w3id.org/security/v1")])
    public var id: String
    public var type = "CryptographicKey"
    public var owner: String
    public var publicKeyPem: String

    enum CodingKeys: String, CodingKey {
        case context = "@context"
        case id, type, owner, publicKeyPem
    }

    public init(id: String, owner: String, publicKeyPem: String) {
        (self.id, self.owner, self.publicKeyPem) = (id, owner, publicKeyPem)
    }
}
