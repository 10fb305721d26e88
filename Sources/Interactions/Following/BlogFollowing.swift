import ActivityPub
import Foundation
import Storage

/// `lectern follow`, `unfollow` and `bridge bluesky`: accounts named by a handle
/// (`@name@host`, looked up with WebFinger) or an actor URL, fetched signed through the
/// SSRF-guarded client, then followed through `Follows`.
public struct BlogFollowing: Sendable {
    public let follows: Follows
    public let resolver: BlogOwnerResolver

    public init(site: BlogActor, outbox: Outbox) {
        let store = site.store
        follows = Follows(actors: store.actors, blocks: store.blocks, following: store.following, urls: site.urls, outbox: outbox)
        following = store.following
        resolver = BlogOwnerResolver(fetcher: site.remoteKeys.fetcher, actors: store.actors, blocks: store.blocks, values: store.values)
    }

    let following: Following

    /// Resolves and follows an account; returns it as recorded (pending). An account whose server
    /// already accepted is left as it is (`alreadyAccepted`); a pending or rejected follow is sent again.
    public func follow(_ handleOrURL: String, now: Date = Date()) async throws -> (account: FollowedAccount, alreadyAccepted: Bool) {
        let actor = try await lookUp(handleOrURL)
        if let existing = try following.followedAccount(actorID: actor.id), existing.state == .accepted { return (existing, true) }
        try follows.follow(actor, now: now)
        guard let recorded = try following.followedAccount(actorID: actor.id) else { throw Follows.FollowError.notFollowed(actor.id) }
        return (recorded, false)
    }

    /// Unfollows an account the blog follows, named as `lectern following` lists it (actor URL or
    /// handle); only an unknown handle is looked up. Returns the actor.
    public func unfollow(_ handleOrURL: String, now: Date = Date()) async throws -> RemoteActor {
        let actor = try await followed(handleOrURL)
        guard try follows.unfollow(actor.id, now: now) else { throw Follows.FollowError.notFollowed(handleOrURL) }
        return actor
    }

    /// The followed account a handle or URL names.
    func followed(_ handleOrURL: String) async throws -> RemoteActor {
        let accounts = try following.followedAccounts()
        let wanted = handleOrURL.lowercased().hasPrefix("@") ? handleOrURL.lowercased() : "@" + handleOrURL.lowercased()
        if let account = accounts.first(where: { $0.actor.id == handleOrURL || $0.actor.handle?.lowercased() == wanted }) {
            return account.actor
        }
        // Only a handle that is not the one stored (a server whose WebFinger domain differs) is looked up.
        guard !handleOrURL.contains("://") else { throw Follows.FollowError.notFollowed(handleOrURL) }
        let actor = try await lookUp(handleOrURL)  // a failure says which account and why
        guard accounts.contains(where: { $0.actor.id == actor.id }) else { throw Follows.FollowError.notFollowed(handleOrURL) }
        return actor
    }

    /// The account a handle or URL names, fetched now; a failure says which account and why.
    func lookUp(_ handleOrURL: String) async throws -> RemoteActor {
        do {
            return try await resolver.lookUp(handleOrURL).actor
        } catch BlogOwnerResolver.ResolveError.blocked(let id) {
            throw Follows.FollowError.blocked(id)
        } catch BlogOwnerResolver.ResolveError.badHandle {
            throw Follows.FollowError.lookUp(handleOrURL, "not @name@host nor an actor URL")
        } catch let error as BlogOwnerResolver.ResolveError {
            throw Follows.FollowError.lookUp(handleOrURL, error.description)
        } catch let error as RemoteFetchError {
            throw Follows.FollowError.lookUp(handleOrURL, error.description)
        }
    }
}
