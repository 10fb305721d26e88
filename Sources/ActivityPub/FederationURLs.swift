import BlogModel
import Foundation
import ActivityStreams

/// Every URL the blog's ActivityPub surface answers on, derived from `baseURL`.
public struct FederationURLs: Sendable {
    public let base: String
    /// Host, with the port when it is not the scheme's default: `blog.example`, `127.0.0.1:8080`.
    public let host: String
    public let username: String

    public init(config: SiteConfig) {
        base = config.baseURL
        // The account's domain includes a non-default port, as Mastodon's LOCAL_DOMAIN does.
        let parts = URLComponents(string: config.baseURL)
        host = (parts?.host ?? config.host) + (parts?.port.map { ":\($0)" } ?? "")
        username = config.username
    }

    public var actor: String { base + "/actor" }
    /// A rotated key's id (the first key is `<actor>#main-key`; see `ActorKeyring`).
    public func actorKey(_ token: String) -> String { actor + "/keys/" + token }
    public var inbox: String { actor + "/inbox" }
    public var sharedInbox: String { base + "/inbox" }
    public var outbox: String { actor + "/outbox" }
    public var followers: String { actor + "/followers" }
    public var following: String { actor + "/following" }
    public var featured: String { actor + "/featured" }
    public var profilePage: String { base + "/" }
    public var instanceActor: String { base + "/instance-actor" }
    public var instanceKeyID: String { instanceActor + "#main-key" }
    /// `acct:blog@blog.example`
    public var account: String { "acct:\(username)@\(host)" }
    /// `acct:blog.example@blog.example`: the instance actor's account, named after the host as
    /// Mastodon names its own.
    public var instanceAccount: String { "acct:\(host)@\(host)" }

    /// A post's thread (FEP-7888 `context`): `/2025/hello/context`, a collection of the post's
    /// public comments, which servers that backfill threads read.
    public func context(forPostPath path: String) -> String { base + path + "context" }

    /// The post a `context` names: ours end in `/context`; anything else is taken as it is.
    public static func postID(fromContext context: String) -> String {
        context.hasSuffix("/context") ? String(context.dropLast("context".count)) : context
    }

    /// A note the blog wrote (a direct message, an automatic answer): `/actor/notes/<uuid>`
    /// (under the actor, so no site path can ever collide with it).
    public func note(_ token: String) -> String { actor + "/notes/" + token }
    /// A quote authorization (FEP-044f): `/actor/quotes/<token>`.
    public func quoteAuthorization(_ token: String) -> String { actor + "/quotes/" + token }

    /// A post's comments collection: `/2025/hello/replies`.
    public func replies(forPostPath path: String) -> String { base + path + "replies" }
    /// A post's like and share counts: `/2025/hello/likes`, `/2025/hello/shares`.
    public func likes(forPostPath path: String) -> String { base + path + "likes" }
    public func shares(forPostPath path: String) -> String { base + path + "shares" }
    public func absolute(_ path: String) -> String { path.hasPrefix("/") ? base + path : path }
}

package extension FederationURLs {
    /// An `interactionPolicy` rule: who is approved without asking.
    func approvalRule(_ policy: FederationSettings.QuotePolicy) -> InteractionPolicy.Rule {
        switch policy {
        case .anyone: return .init(automaticApproval: [AS.publicAddress])
        case .followers: return .init(automaticApproval: [followers])
        case .nobody: return .init(automaticApproval: [])
        }
    }

    /// FEP-2c59's `webfinger`: the account without `acct:`.
    var webfingerAddress: String { "\(username)@\(host)" }
}
