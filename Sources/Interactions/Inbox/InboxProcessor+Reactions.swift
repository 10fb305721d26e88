import ActivityPub
import ActivityStreams
import BlogModel
import DataIntegrity
import Foundation
import Storage

/// Likes and boosts of posts, counted per post.
extension InboxProcessor {
    func react(_ kind: Reactions.ReactionKind, _ activity: APObject, actorID: String, now: Date) throws -> Effects {
        guard let activityID = activity.id, let target = activity.object?.id, let path = try postPath(for: target) else {
            return .ignored("not-for-us")
        }
        guard try store.reactions.addReaction(activityID: activityID, kind: kind, postPath: path, actorID: actorID, now: now) else {
            return .ignored("duplicate")
        }
        return .applied("reaction", posts: [path])
    }

    /// A boost of one of our posts, or a group relaying an activity (FEP-1b12, Lemmy).
    ///
    /// A relayed activity is never taken from the `Announce` on the announcer's word: its copy
    /// could say anything. It is fetched from its own id, which must be on its actor's origin, and
    /// that copy is applied as its actor's own — a comment by a Lemmy user reaches the blog as the
    /// user's reply. Unless the embedded copy carries its author's own integrity proof (FEP-8b32,
    /// `ProofCheck`): then that copy is the author's word, and is used without the fetch. A proof
    /// on the `Announce` itself vouches for the announcer only, never for what it embeds.
    func announce(_ activity: APObject, actorID: String, raw: [String: CanonicalJSON]?, now: Date) async throws -> Effects {
        guard let inner = activity.object, let innerID = inner.id else { return .ignored("unknown-object") }
        if try postPath(for: innerID) != nil { return try react(.announce, activity, actorID: actorID, now: now) }
        guard let fetcher, Origin(innerID) != nil, !innerID.hasPrefix(config.baseURL + "/") else { return .ignored("not-for-us") }
        // A blocked server's post does not come in through someone else's boost.
        if try store.blocks.isBlocked(actorID: innerID) { return .ignored("blocked") }
        let fetched: APObject
        if let proven = await provenEmbedded(inner.embedded, raw: raw?["object"], now: now) {
            fetched = proven
        } else {
            fetched = try await fetcher.fetchAuthentic(innerID).object
        }
        if let innerActor = fetched.actor.first {
            // An activity: applied as its actor's, when its id is on that actor's origin.
            guard Origin.same(fetched.id, innerActor), fetched.activityType != .announce else { return .ignored("not-author") }
            // Only what a group shares (FEP-1b12): an announced Follow, Undo or Accept would let
            // anyone who saw an author's old activity replay it as theirs.
            guard Self.announceable.contains(fetched.activityType) else { return .ignored("not-for-us") }
            // Taken once by its id, as if it had been delivered: a replayed one is a duplicate.
            guard let innerID = fetched.id, try store.inbox.recordReceived(activityID: innerID, now: now) else { return .ignored("duplicate") }
            // What the inbox asks of an activity delivered by its own actor, asked of one that came embedded.
            if OriginRules.violation(fetched, actor: innerActor) != nil { return .ignored("not-author") }
            if try store.blocks.isBlocked(actorID: innerActor) { return .ignored("blocked") }
            guard try await knownActor(innerActor) != nil else { return .ignored("unknown-object") }
            return try await apply(fetched, signedBy: innerActor, now: now)
        }
        // An object (a post shared by a group): a reply of its author's, if it replies to us.
        guard let author = fetched.attributedTo.first, Origin.same(fetched.id, author) else { return .ignored("not-for-us") }
        guard try await knownActor(author) != nil else { return .ignored("unknown-object") }
        return try await reply(fetched, authorID: author, activity: nil, now: now)
    }

    /// What an `Announce` may carry as an activity: what groups (FEP-1b12) share.
    static let announceable: [ActivityType] = [.create, .update, .delete, .like]

    /// The embedded object, when its author's own proof vouches for it: an activity's author is
    /// its `actor`, an object's its `attributedTo`; its id must be on the author's origin.
    func provenEmbedded(_ embedded: APObject?, raw: CanonicalJSON?, now: Date) async -> APObject? {
        guard let proofs, let embedded, let document = raw?.members, let id = embedded.id else { return nil }
        let authors = embedded.actor.isEmpty ? embedded.attributedTo : embedded.actor
        guard authors.count == 1, Origin.same(id, authors[0]) else { return nil }
        let author = authors[0]
        return await proofs.check(document, author: author, now: now).isProven ? embedded : nil
    }
}
