import ActivityStreams
import Foundation

/// WebFinger (RFC 7033), host-meta (RFC 6415) and NodeInfo 2.1 and 2.0: how other servers find the blog.
package struct Discovery {
    let urls: FederationURLs
    let softwareVersion: String

    package init(urls: FederationURLs, softwareVersion: String) { (self.urls, self.softwareVersion) = (urls, softwareVersion) }

    /// The JRD when `resource` names one of the blog's two actors (as `acct:`, bare `user@host`,
    /// or the actor or profile URL); nil for anyone else. Hosts compare case-insensitively and
    /// percent-encoded forms are decoded. The instance actor, which signs the blog's GETs, is
    /// `acct:HOST@HOST` as Mastodon's is: GoToSocial and Mastodon webfinger the
    /// `preferredUsername@host` of every actor that signs a request to them, and refuse the request
    /// when that does not lead back to the actor.
    package func webFinger(resource: String) throws -> Data? {
        guard let account = account(named: resource) else { return nil }
        let (subject, actor, aliases) = account == .blog ? (urls.account, urls.actor, [urls.actor, urls.profilePage])
                                                         : (urls.instanceAccount, urls.instanceActor, [urls.instanceActor])
        return try ASEncoder.encode(JRD(subject: subject, aliases: aliases, links: [
            .init(rel: "self", type: AS.mediaType, href: actor),
            .init(rel: "http://webfinger.net/rel/profile-page", type: "text/html", href: urls.profilePage),
        ]))
    }

    /// The blog's two actors, as WebFinger names them.
    enum Account { case blog, instance }

    func account(named resource: String) -> Account? {
        let decoded = (resource.removingPercentEncoding ?? resource).trimmingCharacters(in: .whitespaces)
        if decoded == urls.actor || decoded == urls.profilePage || decoded == urls.base { return .blog }
        if decoded == urls.instanceActor { return .instance }
        var account = decoded
        if account.lowercased().hasPrefix("acct:") { account = String(account.dropFirst(5)) }
        if account.hasPrefix("@") { account = String(account.dropFirst()) }
        let parts = account.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[1].lowercased() == urls.host.lowercased() else { return nil }
        switch parts[0].lowercased() {
        case urls.username.lowercased(): return .blog
        case urls.host.lowercased(): return .instance
        default: return nil
        }
    }

    package var hostMeta: String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <XRD xmlns="http://docs.oasis-open.org/ns/xri/xrd-1.0">
          <Link rel="lrdd" template="\(urls.base)/.well-known/webfinger?resource={uri}"/>
        </XRD>

        """
    }

    /// The NodeInfo versions served: 2.1, and 2.0 for servers that look for nothing else (Takahē).
    package static let nodeInfoVersions = ["2.1", "2.0"]

    static func nodeInfoSchema(_ version: String) -> String { "http://nodeinfo.diaspora.software/ns/schema/\(version)" }

    package func nodeInfoLinks() throws -> Data {
        try ASEncoder.encode(["links": Self.nodeInfoVersions.map { version in
            JRD.Link(rel: Self.nodeInfoSchema(version), href: urls.base + "/nodeinfo/" + version)
        }])
    }

    /// The document in `version` (2.0's `software` has no `homepage`).
    package func nodeInfo(version: String, localPosts: Int, nodeName: String) throws -> Data {
        var software: [String: JSONValue] = ["name": "lectern", "version": .string(softwareVersion)]
        if version != "2.0" { software["homepage"] = .string(urls.profilePage) }
        let document: JSONValue = [
            "version": .string(version),
            "software": .object(software),
            "protocols": ["activitypub"],
            "services": ["inbound": [], "outbound": ["atom1.0", "rss2.0"]],
            "openRegistrations": .bool(false),
            "usage": ["users": ["total": .number(1), "activeMonth": .number(1), "activeHalfyear": .number(1)],
                      "localPosts": .number(Double(localPosts))],
            "metadata": ["nodeName": .string(nodeName)],
        ]
        return try ASEncoder.encode(document)
    }
}
