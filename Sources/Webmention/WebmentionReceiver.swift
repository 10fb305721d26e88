import ActivityPub
import BlogModel
import Foundation
import HTMLMarkup
import OutboundHTTP
import Interactions
import Storage
#if canImport(Glibc)
import Glibc
#endif

/// `POST /webmention` judged at once (W3C Webmention §3.2): the form's `source` and `target` are
/// http(s) URLs, not the same, the target is one of the blog's posts, the source is not on the
/// blog's own host, its domain is not blocked and its site has room in the queue. Then the
/// request is stored (the source without its fragment: `S#a` is `S`) and answered 202; the
/// source is fetched and read later (`WebmentionVerifier`), never while the sender waits.
public struct WebmentionReceiver: Sendable {
    public let blocks: Blocks
    public let posts: Posts
    public let webmentions: Webmentions
    public let config: SiteConfig

    /// A form of two URLs needs little room.
    public static let maximumBodySize = 8 * 1024
    static let maximumURLLength = 2048

    public init(blocks: Blocks, posts: Posts, webmentions: Webmentions, config: SiteConfig) {
        (self.blocks, self.posts, self.webmentions) = (blocks, posts, webmentions)
        self.config = config
    }

    public struct Outcome: Sendable, Equatable {
        public var status: Int
        /// What the sender is told (plain text).
        public var message: String
        public var retryAfter: Int?
        public var queued: Bool { status == 202 }

        public init(status: Int, message: String, retryAfter: Int? = nil) {
            (self.status, self.message, self.retryAfter) = (status, message, retryAfter)
        }
    }

    static func refuse(_ status: Int, _ message: String) -> Outcome { Outcome(status: status, message: message) }

    public func receive(contentType: String?, body: [UInt8], now: Date = Date()) async -> Outcome {
        guard config.webmention.receive else { return Self.refuse(404, "this blog does not take webmentions") }
        guard body.count <= Self.maximumBodySize else { return Self.refuse(413, "request body over \(Self.maximumBodySize) bytes") }
        let type = contentType?.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased()
        guard type == "application/x-www-form-urlencoded" else {
            return Self.refuse(400, "expected a form (application/x-www-form-urlencoded) with source and target")
        }
        let form = Self.form(String(decoding: body, as: UTF8.self))
        guard let rawSource = form["source"], let rawTarget = form["target"] else { return Self.refuse(400, "source and target are both required") }
        guard rawSource.utf8.count <= Self.maximumURLLength, rawTarget.utf8.count <= Self.maximumURLLength else {
            return Self.refuse(400, "source and target must be at most \(Self.maximumURLLength) bytes")
        }
        guard let parsed = HTTPURL.parse(rawSource), rawSource.lowercased().hasPrefix("http") else {
            return Self.refuse(400, "source must be an http(s) URL")
        }
        let source = WebmentionLinks.normalized(parsed)
        guard let target = HTTPURL.parse(rawTarget), rawTarget.lowercased().hasPrefix("http") else {
            return Self.refuse(400, "target must be an http(s) URL")
        }
        guard WebmentionLinks.normalized(source) != WebmentionLinks.normalized(target) else {
            return Self.refuse(400, "source and target must be different")
        }
        guard let sourceHost = URLComponents(string: source)?.host?.lowercased() else { return Self.refuse(400, "source has no host") }
        guard !Self.isDisguisedAddress(sourceHost) else {
            return Self.refuse(400, "source's host is a number other than a dotted-quad IPv4 address")
        }
        guard !isOwn(source) else { return Self.refuse(400, "source is on this blog's own host") }
        if !config.federation.allowPrivateAddresses {
            guard source.hasPrefix("https://") else { return Self.refuse(400, "source must be https") }
            guard Self.mayBePublic(host: sourceHost) else { return Self.refuse(400, "source is not a public address") }
        }
        do {
            guard let path = try postPath(for: target) else { return Self.refuse(400, "target is not a post of this blog") }
            if try blocks.isBlocked(actorID: source) { return Self.refuse(403, "source's domain is blocked here") }
            switch try await webmentions.enqueueWebmention(source: source, target: target, postPath: path, sourceHost: sourceHost, now: now) {
            case .queued: return Outcome(status: 202, message: "accepted: the source will be checked shortly")
            case .hostFull:
                return Outcome(status: 429, message: "too many webmentions from \(Webmentions.webmentionSite(sourceHost)) waiting or just accepted; try again later",
                               retryAfter: 600)
            case .queueFull: return Outcome(status: 503, message: "too many webmentions waiting; try again later", retryAfter: 600)
            }
        } catch let error as StoreError where error.isTemporary {
            // Busy, or a full disk: nothing was kept; the sender may try again (as the inbox's 503).
            return Outcome(status: 503, message: "cannot take webmentions right now; try again later", retryAfter: InboxGate.retryAfterSeconds)
        } catch {
            return Self.refuse(500, "could not store the webmention")
        }
    }

    /// The post a target names: one of the blog's URLs (its host, and a post's path or old path).
    func postPath(for target: String) throws -> String? {
        guard let ours = URLComponents(string: config.baseURL), let theirs = URLComponents(string: target),
              ours.host?.lowercased() == theirs.host?.lowercased(), ours.port == theirs.port else { return nil }
        var path = theirs.percentEncodedPath
        if !path.hasSuffix("/") { path += "/" }
        if let post = try posts.post(path: path), post.deletedAt == nil { return post.path }
        return try posts.postAliases()[path]
    }

    /// Whether a URL is on the blog's own host: its `baseURL`'s or one of `federation.hostAliases`
    /// (any port when the blog's is not written, else that port; a trailing dot is the same
    /// host). The blog's pages link to its
    /// posts (the home page to all of them), and its redirects must not lend it to another page.
    func isOwn(_ url: String) -> Bool {
        let bare = { (host: String?) in host?.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: ".")) }
        guard let theirs = URLComponents(string: url), let host = bare(theirs.host) else { return false }
        let port = theirs.port ?? (theirs.scheme?.lowercased() == "http" ? 80 : 443)
        let own = [config.baseURL] + config.federation.hostAliases.map { "http://" + $0 }
        return own.contains { value in
            guard let ours = URLComponents(string: value), bare(ours.host) == host else { return false }
            return ours.port == nil || ours.port == port
        }
    }

    /// False for host names that are private by their spelling (`localhost`, a private or
    /// loopback IP literal); names that resolve to such addresses are refused by the fetch's
    /// SSRF guard when the source is read.
    /// Whether `host` spells an IPv4 address other than as four decimal octets: a host whose last
    /// label is a number is an address to a URL parser (`1572395042`, `0x5db8d822`,
    /// `0135.0270.0330.042`, `93.12113954`, `093.184.216.34` are all `93.184.216.34`), and each
    /// spelling would be a site of its own. IPv6 (`:` in the host) is left to `webmentionSite`.
    static func isDisguisedAddress(_ host: String) -> Bool {
        guard !host.contains(":") else { return false }
        let labels = host.split(separator: ".", omittingEmptySubsequences: false)
        guard let last = labels.last(where: { !$0.isEmpty }),
              last.allSatisfy({ $0.isASCII && $0.isNumber }) || last.lowercased().hasPrefix("0x") else { return false }
        let dottedQuad = labels.count == 4 && labels.allSatisfy { label in
            (1...3).contains(label.count) && label.allSatisfy { $0.isASCII && $0.isNumber }
                && (label == "0" || !label.hasPrefix("0")) && Int(label)! <= 255
        }
        return !dottedQuad
    }

    static func mayBePublic(host: String) -> Bool {
        let bare = host.trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        if bare == "localhost" || bare.hasSuffix(".localhost") { return false }
        var v4 = in_addr()
        if inet_pton(AF_INET, bare, &v4) == 1 { return AddressPolicy.isPublic(ipv4: withUnsafeBytes(of: v4) { Array($0) }) }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, bare, &v6) == 1 { return AddressPolicy.isPublic(ipv6: withUnsafeBytes(of: v6) { Array($0) }) }
        return true
    }

    /// `application/x-www-form-urlencoded`: `+` is a space, then percent-decoding; the first of
    /// repeated names wins.
    static func form(_ text: String) -> [String: String] {
        var fields: [String: String] = [:]
        for pair in text.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let decode = { (part: Substring) in String(part).replacingOccurrences(of: "+", with: " ").removingPercentEncoding }
            guard let name = decode(parts[0]), let value = parts.count > 1 ? decode(parts[1]) : "" else { continue }
            if fields[name] == nil { fields[name] = value }
        }
        return fields
    }
}
