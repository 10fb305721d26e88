import Foundation

/// A WebFinger answer (RFC 7033's JSON Resource Descriptor): what the blog serves about its
/// actors and what it reads of others' (their actor's `self` link, their FEP-3b86 intents). One
/// type both ways; read leniently: a link that is not an object with a `rel` is left out.
public struct JRD: Codable, Sendable, Equatable {
    public struct Link: Codable, Sendable, Equatable {
        public var rel: String
        public var type: String?
        public var href: String?
        public var template: String?

        public init(rel: String, type: String? = nil, href: String? = nil, template: String? = nil) {
            (self.rel, self.type, self.href, self.template) = (rel, type, href, template)
        }
    }

    public var subject: String?
    public var aliases: [String]?
    public var links: [Link]

    public init(subject: String?, aliases: [String]?, links: [Link]) {
        (self.subject, self.aliases, self.links) = (subject, aliases, links)
    }

    enum Key: String, CodingKey { case subject, aliases, links }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Key.self)
        subject = try? c.decodeIfPresent(String.self, forKey: .subject)
        aliases = try? c.decodeIfPresent([String].self, forKey: .aliases)
        links = ((try? c.decodeIfPresent([LenientLink].self, forKey: .links)) ?? nil)?.compactMap(\.link) ?? []
    }

    /// The actor a handle names: the `self` link of an ActivityPub type.
    public var actorLink: String? {
        links.first { $0.rel == "self" && ($0.type ?? "").contains("json") }?.href
    }

    /// One link that may fail to decode without failing the others.
    private struct LenientLink: Decodable {
        let link: Link?
        init(from decoder: any Decoder) throws { link = try? Link(from: decoder) }
    }
}
