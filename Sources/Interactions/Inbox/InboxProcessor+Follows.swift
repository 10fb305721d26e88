import ActivityStreams
import BlogModel
import Foundation
import Storage

/// Follows and their undoing.
extension InboxProcessor {
    /// A Follow sent again with an earlier Follow's id (the inbox queues a Follow whatever its id,
    /// see `InboxGate`) is answered again: after an unfollow it is a new follow, and a current
    /// follower's server may have lost the first Accept — that one is answered once a day at
    /// most, within the automatic answers' hourly rate. Accepts go only to the follower's inbox
    /// on the follower's own origin.
    func follow(_ activity: APObject, actorID: String, now: Date) throws -> Effects {
        guard let followID = activity.id, isBlogActor(activity.object?.id) else { return .ignored("not-for-us") }
        guard let follower = try store.actors.remoteActor(id: actorID) else { return .ignored("unknown-object") }
        // Every post would be delivered there: only to the follower's own server, never a third
        // party's (fake followers must not aim the blog's fan-out at someone else).
        guard Origin.same(follower.inbox, actorID) else { return .ignored("inbox-elsewhere") }
        if try store.followers.isFollower(actorID), try !store.automaticReplies.claimAutomaticReply(to: actorID, about: "follow", now: now) {
            return .ignored("answer-limited")
        }
        try store.followers.addFollower(actorID: actorID, followActivityID: followID, now: now)
        try outbox.send(activities.accept(followID: followID, follower: actorID, now: now), to: [follower.inbox], now: now)
        return .applied("follow")
    }

    /// Undo of a Follow, Like or Announce, only the undoer's own.
    func undo(_ activity: APObject, actorID: String) throws -> Effects {
        guard let undone = activity.object, let undoneID = undone.id else { return .ignored("unknown-object") }
        let embedded = undone.embedded
        if let embedded, !embedded.actor.isEmpty, !embedded.actor.contains(actorID) { return .ignored("not-author") }
        switch embedded?.activityType {
        case .follow?:
            return try store.followers.removeFollower(actorID: actorID) ? .applied("unfollow") : .ignored("unknown-object")
        case .like?, .announce?:
            let kind: Reactions.ReactionKind = embedded?.activityType == .like ? .like : .announce
            let path = try embedded?.object?.id.flatMap { try postPath(for: $0) }
            guard let changed = try store.reactions.removeReaction(activityID: undoneID, actorID: actorID, kind: kind, postPath: path) else {
                return .ignored("unknown-object")
            }
            return .applied("unreaction", posts: [changed])
        default:
            // Only an id: a reaction we recorded, or the follow.
            if let changed = try store.reactions.removeReaction(activityID: undoneID, actorID: actorID) {
                return .applied("unreaction", posts: [changed])
            }
            return try store.followers.removeFollower(actorID: actorID, followActivityID: undoneID) ? .applied("unfollow") : .ignored("unknown-object")
        }
    }
}
