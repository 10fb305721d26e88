/// `federation:` in `lectern.yml`: how the blog behaves as an ActivityPub server.
public struct FederationSettings: Sendable, Equatable {
    /// Require signed GETs for ActivityPub documents (Mastodon's "secure mode").
    public var authorizedFetch = false
    /// Let outgoing fetches reach private, loopback and link-local addresses: for local testing only.
    public var allowPrivateAddresses = false
    /// The actor's type: Person, Service, Organization, Group or Application.
    public var actorType = "Person"
    /// List followers' ids in the followers collection (the count is always public).
    public var followersPublic = false
    /// How new posts federate: `Article` (FEP-b2b8: title, summary, link, full text) or `Note`
    /// (title, summary and link as a short post, images attached). Posts already federated keep
    /// their type.
    public var postsAs = "Article"
    /// Who may quote posts without asking (Mastodon 4.5's quote posts): anyone, followers, nobody.
    public var quotePolicy = QuotePolicy.anyone
    /// Who may feature the blog in their collections without asking (Mastodon 4.6's featured
    /// collections, WordPress 9's consent to be featured): anyone, followers, nobody.
    public var featurePolicy = QuotePolicy.anyone
    /// Other names the blog answers to (`www.blog.example`, an old domain still pointed here):
    /// signed requests must be addressed to the `baseURL`'s host or one of these.
    public var hostAliases: [String] = []

    public enum QuotePolicy: String, Sendable, CaseIterable { case anyone, followers, nobody }

    public init() {}

    static let actorTypes: Set<String> = ["Person", "Service", "Organization", "Group", "Application"]
}

/// `profile:` in `lectern.yml`: what fediverse users see on the blog's profile.
public struct ProfileSettings: Sendable, Equatable {
    /// Avatar and header image: site paths (`/images/me.png`) or absolute URLs.
    public var avatar: String?
    public var header: String?
    /// Previous accounts, for moving followers (`alsoKnownAs`).
    public var alsoKnownAs: [String] = []
    /// Profile fields, in order: name and value (a URL becomes a link).
    public var links: [(name: String, value: String)] = []

    public init() {}

    public static func == (a: ProfileSettings, b: ProfileSettings) -> Bool {
        a.avatar == b.avatar && a.header == b.header && a.alsoKnownAs == b.alsoKnownAs
            && a.links.map(\.name) == b.links.map(\.name) && a.links.map(\.value) == b.links.map(\.value)
    }
}

package extension YAMLFields {
    /// `anyone`, `followers` or `nobody`; nil when absent.
    func approvalPolicy(_ key: String) throws -> FederationSettings.QuotePolicy? {
        guard let text = try string(key) else { return nil }
        guard let value = FederationSettings.QuotePolicy(rawValue: text) else { throw error(key, "must be anyone, followers or nobody") }
        return value
    }

    func federationSettings() throws -> FederationSettings {
        var settings = FederationSettings()
        guard let block = try nested("federation") else { return settings }
        try block.rejectUnknown(allowed: ["authorizedFetch", "allowPrivateAddresses", "actorType", "followersPublic", "postsAs",
                                          "quotePolicy", "featurePolicy", "hostAliases"])
        if let postsAs = try block.string("postsAs") {
            guard ["Article", "Note"].contains(postsAs) else { throw block.error("postsAs", "must be Article or Note") }
            settings.postsAs = postsAs
        }
        settings.quotePolicy = try block.approvalPolicy("quotePolicy") ?? settings.quotePolicy
        settings.featurePolicy = try block.approvalPolicy("featurePolicy") ?? settings.featurePolicy
        settings.authorizedFetch = try block.bool("authorizedFetch") ?? false
        settings.allowPrivateAddresses = try block.bool("allowPrivateAddresses") ?? false
        settings.followersPublic = try block.bool("followersPublic") ?? false
        settings.hostAliases = try block.strings("hostAliases")
        for alias in settings.hostAliases where alias.isEmpty || alias.contains("/") || alias.contains(" ") {
            throw block.error("hostAliases", "'\(alias)' is not a host name (host or host:port, no scheme or path)")
        }
        if let type = try block.string("actorType") {
            guard FederationSettings.actorTypes.contains(type) else {
                throw block.error("actorType", "must be one of \(FederationSettings.actorTypes.sorted().joined(separator: ", "))")
            }
            settings.actorType = type
        }
        return settings
    }

    func profileSettings() throws -> ProfileSettings {
        var settings = ProfileSettings()
        guard let block = try nested("profile") else { return settings }
        try block.rejectUnknown(allowed: ["avatar", "header", "alsoKnownAs", "links"])
        settings.avatar = try block.string("avatar")
        settings.header = try block.string("header")
        settings.alsoKnownAs = try block.strings("alsoKnownAs")
        if let links = try block.nested("links") {
            settings.links = try links.keys.map { ($0, try links.string($0) ?? "") }
        }
        return settings
    }
}
