import Foundation

/// FEP-3b86 activity intents a reader's home server publishes in its WebFinger answer, and
/// where each sends the reader for a reply to one of the blog's posts: the `Create` intent
/// (with `inReplyTo`), else the `Object` intent (open the post there), else the OStatus
/// subscribe template Mastodon publishes (`authorize_interaction?uri=`); nil when none is usable.
/// And where the follow card sends them to follow the blog: the `Follow` intent, else the same
/// subscribe template.
///
/// ```swift
/// let intents = ActivityIntents(jrd: JRD(subject: nil, aliases: nil, links: [.init(rel: "https://w3id.org/fep/3b86/Create",
///     template: "https://social.example/share?inReplyTo={inReplyTo}&text={content}")]))
/// intents.reply(to: "https://blog.example/2025/hello/", host: "social.example")
/// // "https://social.example/share?inReplyTo=https%3A%2F%2Fblog.example%2F2025%2Fhello%2F&text="
/// ```
public struct ActivityIntents: Sendable, Equatable {
    public static let createRel = "https://w3id.org/fep/3b86/Create"
    public static let objectRel = "https://w3id.org/fep/3b86/Object"
    public static let followRel = "https://w3id.org/fep/3b86/Follow"
    public static let subscribeRel = "http://ostatus.org/schema/1.0/subscribe"

    var create: String?
    var object: String?
    var follow: String?
    var subscribe: String?

    public init(jrd: JRD) {
        for link in jrd.links {
            // Some servers (Emissary) write the template as `href`; a `{` tells it is one.
            let (rel, template) = (link.rel, link.template ?? link.href.flatMap { $0.contains("{") ? $0 : nil })
            switch rel {
            case Self.createRel where create == nil: create = template
            case Self.objectRel where object == nil: object = template
            case Self.followRel where follow == nil: follow = template
            case Self.subscribeRel where subscribe == nil: subscribe = template
            default: continue
            }
        }
    }

    /// The first usable intent for replying to `uri`, expanded, on `host` (the server the reader
    /// typed: `social.example`, or `127.0.0.1:PORT` in development).
    public func reply(to uri: String, host: String, allowHTTP: Bool = false) -> String? {
        expandFirst([(create, "inReplyTo"), (object, "object"), (subscribe, "uri")], value: uri, host: host, allowHTTP: allowHTTP)
    }

    /// The first usable intent for following `actor` (the blog's actor id), expanded, on `host`.
    public func follow(_ actor: String, host: String, allowHTTP: Bool = false) -> String? {
        expandFirst([(follow, "object"), (subscribe, "uri")], value: actor, host: host, allowHTTP: allowHTTP)
    }

    private func expandFirst(_ candidates: [(String?, String)], value: String, host: String, allowHTTP: Bool) -> String? {
        for case let (template?, variable) in candidates where template.contains("{\(variable)}") {
            if let url = Self.expand(template, [variable: value]), Self.acceptable(url, host: host, allowHTTP: allowHTTP) { return url }
        }
        return nil
    }

    /// A redirect target only on the typed server or one of its subdomains (a domain that
    /// answers WebFinger for `me@example.com` and serves from `social.example.com`), http(s),
    /// nothing outside RFC 3986's characters. Not a parent domain, and nothing on the word of
    /// the WebFinger answer itself: its `self` link is written by the same hand as its templates.
    static func acceptable(_ url: String, host typed: String, allowHTTP: Bool) -> Bool {
        guard url.unicodeScalars.allSatisfy({ $0.isASCII && uriCharacters.contains($0) }),
              let target = URLComponents(string: url), let scheme = target.scheme?.lowercased(),
              scheme == "https" || (allowHTTP && scheme == "http"), let host = target.host?.lowercased(), !host.isEmpty,
              target.user == nil, target.password == nil else { return false }
        let server = (typed.split(separator: ":").first.map(String.init) ?? typed).lowercased()
        return host == server || host.hasSuffix("." + server)
    }

    /// RFC 3986's unreserved, reserved and `%` characters.
    static let uriCharacters = CharacterSet(charactersIn:
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~:/?#[]@!$&'()*+,;=%")

    /// RFC 6570 level-1 expansion (`{name}`), values percent-encoded as unreserved characters;
    /// variables not given expand to nothing (FEP-3b86). nil for a template that is not one.
    static func expand(_ template: String, _ values: [String: String]) -> String? {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        var result = ""
        var rest = Substring(template)
        while let open = rest.firstIndex(of: "{") {
            result += rest[..<open]
            guard let close = rest[open...].firstIndex(of: "}") else { return nil }
            let name = String(rest[rest.index(after: open)..<close])
            guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }) else { return nil }
            result += values[name].flatMap { $0.addingPercentEncoding(withAllowedCharacters: allowed) } ?? ""
            rest = rest[rest.index(after: close)...]
        }
        guard !rest.contains("}") else { return nil }
        return result + rest
    }
}
