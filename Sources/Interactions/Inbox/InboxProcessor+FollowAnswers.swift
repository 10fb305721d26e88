import ActivityPub
import ActivityStreams
import BlogModel
import Foundation
import Storage

/// The answers to the blog's own follows (`Accept`, `Reject`) and the `Move` of an account it
/// follows. The gate already made sure the signer is the activity's actor, that the activity
/// id is on its origin, and that the blog follows that actor; here the answer must also name
/// the Follow the blog sent *to that actor* (by id, or embedded with that id), so an Accept
/// from anyone else, for a follow never sent, or for an older Follow, changes nothing.
extension InboxProcessor {
    /// The types only an account the blog follows may send (refused at the gate otherwise).
    static let followAnswerTypes: Set<String> = ["Accept", "Reject", "Move"]

    func answer(_ activity: APObject, actorID: String, accepted: Bool, now: Date) throws -> Effects {
        guard let followed = try store.following.followedAccount(actorID: actorID) else { return .ignored("not-followed") }
        guard let object = activity.object else { return .ignored("unknown-object") }
        if let embedded = object.embedded {
            // An answer to something else (a quote request…), or to someone else's Follow.
            guard embedded.activityType == .follow || embedded.types.isEmpty else { return .ignored("not-a-follow") }
            if !embedded.actor.isEmpty, !embedded.actor.contains(urls.actor) { return .ignored("not-our-follow") }
            if let target = embedded.object?.id, target != actorID { return .ignored("not-our-follow") }
        }
        guard let followID = object.id, followID == followed.followActivityID else { return .ignored("unknown-follow") }
        guard try store.following.answerFollow(actorID: actorID, followActivityID: followID, accepted: accepted, now: now) else {
            return .ignored(accepted ? "already-answered" : "already-rejected")
        }
        try blogrollChanged()
        return .applied(accepted ? "follow-accepted" : "follow-rejected")
    }

    /// `Move` of an account the blog follows to `target`: followed there once the target's own
    /// document (fetched now, from its origin) lists the old account in `alsoKnownAs` and its
    /// inboxes are on its own origin; the old account is unfollowed. Bounded: an account a Move
    /// led the blog to cannot move it on for a day (two accounts naming each other cannot bounce
    /// the blog between them, each bounce a signed Follow and Undo), and a followed account's
    /// Moves cost at most one fetch of a target an hour.
    func move(_ activity: APObject, actorID: String, now: Date) async throws -> Effects {
        guard activity.object?.id == actorID else { return .ignored("not-author") }
        guard let target = activity.target?.id, Origin(target) != nil, target != actorID, target != urls.actor else {
            return .ignored("unknown-object")
        }
        guard let followed = try store.following.followedAccount(actorID: actorID), followed.state != .rejected else { return .ignored("not-followed") }
        if try store.blocks.isBlocked(actorID: target) { return .ignored("blocked") }
        if try store.following.movedRecently(actorID: actorID, now: now) { return .ignored("moved-recently") }
        // Already followed (a Move sent again): no fetch, nothing to do but drop the old account.
        if try store.following.followedAccount(actorID: target) != nil {
            try Follows(actors: store.actors, blocks: store.blocks, following: store.following, urls: urls, outbox: outbox).unfollow(actorID, now: now)
            try store.following.markMoved(actorID: target, now: now)
            try blogrollChanged()
            return .applied("followed-move")
        }
        guard let fetcher else { return .ignored("cannot-fetch") }
        guard try store.following.claimMoveFetch(actorID: actorID, now: now) else { return .ignored("move-fetch-budget") }
        let document: APObject
        do { document = try await fetcher.fetchAuthentic(target).object } catch { return .ignored("target-unavailable") }
        guard let actor = ActorConversion.actor(from: document), actor.id == target else { return .ignored("target-unavailable") }
        guard document.alsoKnownAs.contains(actorID) else { return .ignored("not-an-alias") }
        // The Follow goes to the target's inbox: never to a third party's server.
        guard Origin.same(actor.inbox, target), actor.sharedInbox.map({ Origin.same($0, target) }) ?? true else {
            return .ignored("foreign-inbox")
        }
        try await store.actors.saveRemoteActor(actor, keys: ActorConversion.keys(from: document, owner: actor.id))
        let follows = Follows(actors: store.actors, blocks: store.blocks, following: store.following, urls: urls, outbox: outbox)
        try follows.unfollow(actorID, now: now)
        try follows.follow(actor, now: now)
        try store.following.markMoved(actorID: target, now: now)
        if try store.values.setting(BlueskyBridge.botKey) == actorID { try BlueskyBridge.setBot(target, values: store.values) }
        try blogrollChanged()
        return .applied("followed-move")
    }

    /// The blogroll lists accepted follows: a running server renders it again (as it does when
    /// discussions change).
    func blogrollChanged() throws {
        if config.following.page { try store.changes.recordChange([.discussions]) }
    }
}
