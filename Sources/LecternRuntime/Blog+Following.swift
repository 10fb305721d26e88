import ActivityPub
import Foundation
import Interactions
import Site
import Storage

/// `lectern follow`, `unfollow`, `following` and `bridge bluesky`: the Follow (or its Undo) is
/// queued in the store, delivered by the command itself or handed to a running server, and the
/// remote's Accept reaches whichever process serves the inbox. The blogroll page is rebuilt
/// when the accounts it lists change (`followingChanged`).
extension Blog {
    func following() -> BlogFollowing { BlogFollowing(site: activityPub, outbox: outbox) }

    /// Resolves `handleOrURL` (WebFinger, signed fetch) and queues a Follow; the follow is pending
    /// until its Accept. An account that already accepted is returned as it is, nothing sent.
    public func follow(_ handleOrURL: String, now: Date = Date()) async throws -> FollowedAccount {
        try await following().follow(handleOrURL, now: now).account
    }

    /// The same, saying whether the account had already accepted (then nothing was sent).
    public func followReporting(_ handleOrURL: String, now: Date = Date()) async throws -> (account: FollowedAccount, alreadyAccepted: Bool) {
        try await following().follow(handleOrURL, now: now)
    }

    /// Queues `Undo(Follow)` for an account the blog follows and forgets it.
    public func unfollow(_ handleOrURL: String, now: Date = Date()) async throws -> RemoteActor {
        let actor = try await following().unfollow(handleOrURL, now: now)
        try followingChanged()
        return actor
    }

    public func followedAccounts() throws -> [FollowedAccount] { try store.following.followedAccounts() }

    /// Follows Bridgy Fed's Bluesky bot (`bot`: another account that acts as it, for tests and
    /// other bridges speaking the same way) and remembers it as the bridge.
    public func bridgeBluesky(bot: String = BlueskyBridge.botHandle, now: Date = Date()) async throws -> FollowedAccount {
        let account = try await follow(bot, now: now)
        try BlueskyBridge.setBot(account.actor.id, values: store.values)
        return account
    }

    /// Stops the bridge: the bot is sent `stop` and unfollowed, its handle forgotten; nil when
    /// the bridge was not on.
    public func bridgeBlueskyOff(now: Date = Date()) throws -> RemoteActor? {
        let bot = try BlueskyBridge.stop(site: activityPub, outbox: outbox, now: now)
        if bot != nil { try followingChanged() }
        return bot
    }

    public func blueskyBridge() throws -> BlueskyBridge.Status { try BlueskyBridge.status(values: store.values, following: store.following) }

    /// The accounts the blogroll lists changed: a running server rebuilds it; without one, it is
    /// built here (only when the page is on).
    func followingChanged() throws {
        guard config.following.page else { return }
        try discussionsChanged()
    }
}

extension Blog {
    /// The blogroll's entries: the accepted follows, as their actor documents named them (names
    /// and URLs were cleaned when stored and are checked again by the page).
    func blogroll() throws -> [BlogrollEntry] {
        guard config.following.page else { return [] }
        return try store.following.followedAccounts(state: .accepted).map {
            BlogrollEntry(name: $0.actor.name ?? $0.actor.handle ?? $0.actor.id, handle: $0.actor.handle ?? $0.actor.id,
                          url: $0.actor.url ?? $0.actor.id, avatar: $0.actor.icon)
        }
    }
}

extension Blog {
    /// FEP-8fcf's receiving side, for the inbox gate.
    func followersSynchronization() -> FollowersSynchronization {
        let activityPub = activityPub
        var logger = logger
        logger[metadataKey: "component"] = "followers-sync"
        return FollowersSynchronization(actors: store.actors, blocks: store.blocks, following: store.following, urls: activityPub.urls, outbox: outbox, fetcher: activityPub.remoteKeys.fetcher,
                                        logger: logger)
    }
}

extension Blog {
    /// Asks Bridgy Fed's bot to use `domain` as the blog's Bluesky handle (`username DOMAIN`).
    public func requestBlueskyHandle(_ domain: String, now: Date = Date()) throws {
        try BlueskyBridge.requestHandle(domain, site: activityPub, outbox: outbox, now: now)
    }
}

extension Blog {
    /// Blocking an account the blog follows (or its domain) ends the follow: `Undo(Follow)` is
    /// queued and the blogroll drops it. Returns whether any follow ended.
    func unfollowBlocked(now: Date = Date()) throws -> Bool {
        let follows = following().follows
        var ended = false
        for account in try store.following.followedAccounts() where try store.blocks.isBlocked(actorID: account.actor.id) {
            ended = try follows.unfollow(account.actor.id, now: now) || ended
        }
        return ended
    }
}
