import ActivityPub
import ActivityStreams
import Foundation
import Storage

/// Moves the blog's followers to another account, the way Mastodon's account migration does:
/// the new account first lists the blog in its `alsoKnownAs`, then the blog states `movedTo` in
/// its actor and sends `Move` to every follower; their servers follow the new account.
public struct BlogMove: Sendable {
    public let site: BlogActor
    public let outbox: Outbox
    public let resolver: BlogOwnerResolver

    public init(site: BlogActor, outbox: Outbox, resolver: BlogOwnerResolver) {
        (self.site, self.outbox, self.resolver) = (site, outbox, resolver)
    }

    public enum MoveError: Error, CustomStringConvertible {
        case toItself
        /// The new account does not (yet) say it is also the blog: servers would ignore the Move.
        case notAnAlias(target: String, blog: String)

        public var description: String {
            switch self {
            case .toItself: return "that is this blog's own actor"
            case .notAnAlias(let target, let blog):
                return "\(target) does not list \(blog) in alsoKnownAs; add the blog as an alias of the new account first "
                    + "(Mastodon: Preferences → Account → Moving from a different account), then run this again"
            }
        }
    }

    public struct Report: Sendable {
        public let target: String
        public let deliveries: Int
    }

    /// Records the move and queues `Move` for every follower's inbox. Running it again re-sends.
    public func move(to handleOrURL: String, now: Date = Date()) async throws -> Report {
        let target = try await resolver.lookUp(handleOrURL)
        guard target.actor.id != site.urls.actor else { throw MoveError.toItself }
        let aliases = target.document.alsoKnownAs
        guard aliases.contains(site.urls.actor) else { throw MoveError.notAnAlias(target: target.actor.id, blog: site.urls.actor) }
        // `movedTo` first: a server that fetches the blog on receiving the Move must see it.
        try site.store.values.setSetting(BlogActor.movedToKey, target.actor.id)
        let inboxes = try site.store.followers.followerInboxes()
        try outbox.send(Activities(urls: site.urls, config: site.config).move(to: target.actor.id, now: now), to: inboxes, now: now)
        return Report(target: target.actor.id, deliveries: Set(inboxes).count)
    }

    /// Undoes the record of a move (the actor stops saying `movedTo`); followers already moved stay moved.
    public func cancel() throws {
        try site.store.values.setSetting(BlogActor.movedToKey, nil)
    }

    /// `alsoKnownAs` as one id or a list of ids (or of objects with ids).
    static func ids(_ value: Any?) -> [String] {
        switch value {
        case let id as String: return [id]
        case let list as [Any]: return list.flatMap { ids($0) }
        case let object as [String: Any]: return (object["id"] as? String).map { [$0] } ?? []
        default: return []
        }
    }
}
