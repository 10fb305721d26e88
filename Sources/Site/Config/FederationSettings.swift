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

extension YAMLFields {
    func federationSettings() throws -> FederationSettings {
        var settings = FederationSettings()
        guard let block = try nested("federation") else { return settings }
        try block.rejectUnknown(allowed: ["authorizedFetch", "allowPrivateAddresses", "actorType", "followersPublic"])
        settings.authorizedFetch = try block.bool("authorizedFetch") ?? false
        settings.allowPrivateAddresses = try block.bool("allowPrivateAddresses") ?? false
        settings.followersPublic = try block.bool("followersPublic") ?? false
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
