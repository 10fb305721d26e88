import ActivityPub
import ActivityStreams
import BlogModel
import Foundation
import Storage

/// The blog's own follows: a `Follow` or an `Undo` of it queued through the outbox (the durable
/// delivery queue, signed by the delivery worker as the blog's actor), and the follow recorded,
/// pending until the followed account's `Accept`. Used by `lectern follow` and by the inbox
/// (an account the blog follows moved).
public struct Follows: Sendable {
    let actors: Actors, blocks: Blocks, following: Following
    let urls: FederationURLs
    let outbox: Outbox

    public init(actors: Actors, blocks: Blocks, following: Following, urls: FederationURLs, outbox: Outbox) {
        (self.actors, self.blocks, self.following, self.urls, self.outbox) = (actors, blocks, following, urls, outbox)
    }

    public enum FollowError: Error, Equatable, CustomStringConvertible {
        case itself
        case blocked(String)
        case notFollowed(String)
        /// The account could not be looked up: why, as the lookup said.
        case lookUp(String, String)

        public var description: String {
            switch self {
            case .itself: return "that is this blog's own actor"
            case .blocked(let id): return "\(id) is blocked (lectern blocks list); unblock it first to follow it"
            case .notFollowed(let who): return "the blog does not follow \(who) (lectern following lists whom it does)"
            case .lookUp(let who, let why): return "could not look up \(who): \(why)"
            }
        }
    }

    /// Queues a `Follow` of `actor` (saved in the store) to its inbox and records it as pending.
    /// Following again sends a new Follow (after a Reject, or when an Accept never came).
    @discardableResult
    public func follow(_ actor: RemoteActor, now: Date = Date()) throws -> String {
        guard actor.id != urls.actor else { throw FollowError.itself }
        if try blocks.isBlocked(actorID: actor.id) { throw FollowError.blocked(actor.id) }
        // A new id each time: an answer to an earlier Follow (replayed, or late) names another id.
        let id = urls.actor + "#follows/" + ContentHash(actor.id).hex + "/" + String(Int(now.timeIntervalSince1970 * 1000))
        try following.recordFollow(actorID: actor.id, followActivityID: id, now: now)
        do {
            try outbox.send(Activity(id: id, type: .follow, actor: urls.actor, to: [actor.id], object: actor.id), to: [actor.inbox], now: now)
        } catch {
            // Nothing was queued: the pending record goes too (a record left behind only means the
            // next `lectern follow` sends a new Follow, but it would show as pending meanwhile).
            do { _ = try following.removeFollow(actorID: actor.id) } catch let rollback {
                throw FollowError.lookUp(actor.id, "the Follow was not queued (\(error)), and its pending record stays (\(rollback))")
            }
            throw error
        }
        return id
    }

    /// Forgets the follow of `actorID` and queues `Undo(Follow)` to its inbox; false when the
    /// blog did not follow it.
    @discardableResult
    public func unfollow(_ actorID: String, now: Date = Date()) throws -> Bool {
        guard let actor = try actors.remoteActor(id: actorID), let followID = try following.removeFollow(actorID: actorID) else { return false }
        let follow = ActivityReference(id: followID, type: "Follow", actor: urls.actor, object: actorID)
        try outbox.send(Activity(id: urls.actor + "#undos/" + ContentHash(followID).hex, type: .undo, actor: urls.actor,
                                 to: [actorID], object: follow), to: [actor.inbox], now: now)
        return true
    }
}
