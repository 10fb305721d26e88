import Foundation
import Yams

/// The site's settings, read from `lectern.yml` at the site root.
///
/// ```yaml
/// title: Field Notes
/// baseURL: https://blog.example
/// author: Ada
/// ```
public struct SiteConfig: Sendable, Equatable {
    public var title: String
    public var description: String
    public var author: String
    /// Absolute base URL without a trailing slash, e.g. `https://blog.example`.
    public var baseURL: String
    /// Whether `lectern.yml` says `baseURL` (else the local default is used: `lectern doctor` says so).
    public var baseURLIsSet = false
    public var username: String
    /// The owner's fediverse handle (`@me@social.example`), used for digests and attribution.
    public var owner: String?
    /// Shown as `<meta name="fediverse:creator">`; defaults to `owner`.
    public var fediverseCreator: String?
    public var language: String
    public var timeZone: TimeZone
    public var postsPerPage: Int
    public var feedSize: Int
    public var server: ServerSettings
    public var federation = FederationSettings()
    public var profile = ProfileSettings()
    public var comments = CommentSettings()
    public var digest = DigestSettings()
    public var delivery = DeliverySettings()
    public var following = FollowingSettings()
    public var webmention = WebmentionSettings()
    public var newsletter = NewsletterSettings()
    /// Content folders besides `posts/` and `pages/`, by folder name (see `SectionSettings`).
    public var sections: [String: SectionSettings] = [:]

    public struct ServerSettings: Sendable, Equatable {
        public var host: String
        public var port: Int

        public init(host: String = "127.0.0.1", port: Int = 8080) {
            self.host = host
            self.port = port
        }
    }

    public init(title: String = "Lectern", description: String = "", author: String = "",
                baseURL: String = "http://127.0.0.1:8080", username: String = "blog",
                owner: String? = nil, fediverseCreator: String? = nil, language: String = "en",
                timeZone: TimeZone = TimeZone(identifier: "UTC")!, postsPerPage: Int = 10,
                feedSize: Int = 20, server: ServerSettings = ServerSettings()) {
        self.title = title
        self.description = description
        self.author = author
        self.baseURL = Self.trimmedBaseURL(baseURL)
        self.username = username
        self.owner = owner
        self.fediverseCreator = fediverseCreator ?? owner
        self.language = language
        self.timeZone = timeZone
        self.postsPerPage = postsPerPage
        self.feedSize = feedSize
        self.server = server
    }

    /// The host name of `baseURL` (what WebFinger and handles use).
    public var host: String { URLComponents(string: baseURL)?.host ?? "localhost" }

    /// Absolute URL for a site path such as `/2025/hello/`.
    public func absoluteURL(_ path: String) -> String { baseURL + path }

    static func trimmedBaseURL(_ url: String) -> String {
        var url = url
        while url.hasSuffix("/") { url.removeLast() }
        return url
    }
}

extension SiteConfig {
    public static let fileName = "lectern.yml"

    /// Reads and validates `lectern.yml`; every error names the line.
    public static func load(from siteRoot: URL) throws -> SiteConfig {
        let url = siteRoot.appendingPathComponent(fileName)
        guard let text = try? String(contentsOf: url, encoding: .utf8) else {
            throw SiteError.config(file: fileName, line: nil,
                                   message: "cannot read the site configuration (run `lectern init` to create one)")
        }
        return try parse(text, file: fileName)
    }

    public static func parse(_ text: String, file: String = fileName) throws -> SiteConfig {
        let fields = try YAMLFields(yaml: text, file: file, lineOffset: 0, isConfig: true)
        var config = SiteConfig()
        try fields.rejectUnknown(allowed: ["title", "description", "author", "baseURL", "username", "owner",
                                           "fediverseCreator", "language", "timezone", "postsPerPage",
                                           "feedSize", "server", "federation", "profile", "comments", "digest",
                                           "delivery", "sections", "following", "webmention", "newsletter"])
        config.title = try fields.string("title") ?? config.title
        config.description = try fields.string("description") ?? ""
        config.author = try fields.string("author") ?? ""
        if let base = try fields.string("baseURL") {
            guard let parts = URLComponents(string: base), ["http", "https"].contains(parts.scheme ?? ""),
                  parts.host?.isEmpty == false else {
                throw fields.error("baseURL", "must be an absolute http(s) URL such as https://blog.example")
            }
            config.baseURL = trimmedBaseURL(base)
            config.baseURLIsSet = true
        }
        config.username = try fields.string("username") ?? "blog"
        config.owner = try fields.string("owner")
        config.fediverseCreator = try fields.string("fediverseCreator") ?? config.owner
        config.language = try fields.string("language") ?? "en"
        if let zone = try fields.string("timezone") {
            guard let tz = TimeZone(identifier: zone) else {
                throw fields.error("timezone", "unknown time zone '\(zone)' (use an IANA name such as Europe/Paris)")
            }
            config.timeZone = tz
        }
        config.postsPerPage = try fields.positiveInt("postsPerPage") ?? 10
        config.feedSize = try fields.positiveInt("feedSize") ?? 20
        config.federation = try fields.federationSettings()
        config.profile = try fields.profileSettings()
        config.comments = try fields.commentSettings()
        config.digest = try fields.digestSettings()
        config.delivery = try fields.deliverySettings()
        config.sections = try fields.sectionSettings()
        config.following = try fields.followingSettings()
        config.webmention = try fields.webmentionSettings()
        config.newsletter = try fields.newsletterSettings()
        if let server = try fields.nested("server") {
            try server.rejectUnknown(allowed: ["host", "port"])
            config.server.host = try server.string("host") ?? config.server.host
            if let port = try server.int("port") {
                guard (0...65535).contains(port) else { throw server.error("port", "must be between 0 and 65535") }
                config.server.port = port
            }
        }
        return config
    }
}
