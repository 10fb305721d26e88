import Foundation

/// FEP-3b86 activity intents a reader's home server publishes in its WebFinger answer, and
/// where each sends the reader for a reply to one of the blog's posts: the `Create` intent
/// (with `inReplyTo`), else the `Object` intent (open the post there), else the OStatus
/// subscribe template Mastodon publishes (`authorize_interaction?uri=`); nil when none is usable.
///
/// ```swift
/// let intents = ActivityIntents(jrd: ["links": [["rel": "https://w3id.org/fep/3b86/Create",
///     "template": "https://social.example/share?inReplyTo={inReplyTo}&text={content}"]]])
/// intents.reply(to: "https://blog.example/2025/hello/")
/// // "https://social.example/share?inReplyTo=https%3A%2F%2Fblog.example%2F2025%2Fhello%2F&text="
/// ```
public struct ActivityIntents: Sendable, Equatable {
    public static let createRel = "https://w3id.org/fep/3b86/Create"
    public static let objectRel = "https://w3id.org/fep/3b86/Object"
    public static let subscribeRel = "http://ostatus.org/schema/1.0/subscribe"

    var create: String?
    var object: String?
    var subscribe: String?
    /// The account's actor (the JRD's `self` link): a template must send the reader to its server.
    var actor: String?

    public init(jrd: [String: Any]) {
        for case let link as [String: Any] in jrd["links"] as? [Any] ?? [] {
            guard let rel = link["rel"] as? String else { continue }
            let template = link["template"] as? String
            switch rel {
            case Self.createRel where create == nil: create = template
            case Self.objectRel where object == nil: object = template
            case Self.subscribeRel where subscribe == nil: subscribe = template
            case "self" where actor == nil && Self.isActivityType(link["type"] as? String): actor = link["href"] as? String
            default: continue
            }
        }
    }

    static func isActivityType(_ type: String?) -> Bool {
        guard let type else { return false }
        return type.contains("activity+json") || type.contains("ld+json")
    }

    /// The first usable intent for replying to `uri`, expanded.
    public func reply(to uri: String, allowHTTP: Bool = false) -> String? {
        let candidates: [(String?, String)] = [(create, "inReplyTo"), (object, "object"), (subscribe, "uri")]
        for case let (template?, variable) in candidates where template.contains("{\(variable)}") {
            if let url = Self.expand(template, [variable: uri]), acceptable(url, allowHTTP: allowHTTP) { return url }
        }
        return nil
    }

    /// A redirect target only on the actor's own origin (or a subdomain of its host: a server
    /// may answer WebFinger for a bare domain and live on `social.` of it), http(s) only.
    func acceptable(_ url: String, allowHTTP: Bool) -> Bool {
        guard let target = URLComponents(string: url), let scheme = target.scheme?.lowercased(),
              scheme == "https" || (allowHTTP && scheme == "http"), let host = target.host?.lowercased(), !host.isEmpty,
              target.user == nil, target.password == nil,
              let actor, let actorHost = URLComponents(string: actor)?.host?.lowercased() else { return false }
        return host == actorHost || host.hasSuffix("." + actorHost) || actorHost.hasSuffix("." + host)
    }

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
