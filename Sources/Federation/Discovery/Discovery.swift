import ActivityStreams
import Foundation

/// WebFinger (RFC 7033), host-meta (RFC 6415) and NodeInfo 2.1: how other servers find the blog.
struct Discovery {
    let urls: FederationURLs
    let softwareVersion: String

    struct JRD: Encodable {
        struct Link: Encodable {
            var rel: String
            var type: String?
            var href: String?
            var template: String?
        }
        var subject: String
        var aliases: [String]
        var links: [Link]
    }

    /// The JRD when `resource` names the blog (as `acct:`, bare `user@host`, or the actor or
    /// profile URL); nil for anyone else. Hosts compare case-insensitively and percent-encoded
    /// forms are decoded.
    func webFinger(resource: String) throws -> Data? {
        guard matches(resource) else { return nil }
        let jrd = JRD(subject: urls.account, aliases: [urls.actor, urls.profilePage], links: [
            .init(rel: "self", type: AS.mediaType, href: urls.actor),
            .init(rel: "http://webfinger.net/rel/profile-page", type: "text/html", href: urls.profilePage),
        ])
        return try ASEncoder.encode(jrd)
    }

    func matches(_ resource: String) -> Bool {
        let decoded = (resource.removingPercentEncoding ?? resource).trimmingCharacters(in: .whitespaces)
        if decoded == urls.actor || decoded == urls.profilePage || decoded == urls.base { return true }
        var account = decoded
        if account.lowercased().hasPrefix("acct:") { account = String(account.dropFirst(5)) }
        if account.hasPrefix("@") { account = String(account.dropFirst()) }
        let parts = account.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2 else { return false }
        return parts[0].lowercased() == urls.username.lowercased() && parts[1].lowercased() == urls.host.lowercased()
    }

    var hostMeta: String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <XRD xmlns="http://docs.oasis-open.org/ns/xri/xrd-1.0">
          <Link rel="lrdd" template="\(urls.base)/.well-known/webfinger?resource={uri}"/>
        </XRD>

        """
    }

    static let nodeInfoSchema = "http://nodeinfo.diaspora.software/ns/schema/2.1"

    func nodeInfoLinks() throws -> Data {
        try ASEncoder.encode(["links": [JRD.Link(rel: Self.nodeInfoSchema, href: urls.base + "/nodeinfo/2.1")]])
    }

    func nodeInfo(localPosts: Int, nodeName: String) throws -> Data {
        let document: JSONValue = [
            "version": "2.1",
            "software": ["name": "lectern", "version": .string(softwareVersion),
                         "homepage": .string(urls.profilePage)],
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
