import ActivityStreams
import BlogModel
import Foundation
import Storage

/// Quote requests (FEP-044f, Mastodon 4.5): someone asks to quote one of our posts. The answer
/// follows `federation.quotePolicy`, the same policy the posts state in `interactionPolicy`.
extension InboxProcessor {
    func quoteRequest(_ activity: APObject, actorID: String, now: Date) throws -> Effects {
        guard let requestID = activity.id, let quoted = activity.object?.id, let quoting = activity.instrument?.id
        else { return .ignored("unknown-object") }
        guard try postPath(for: quoted) != nil else { return .ignored("not-for-us") }
        // Only the quoting post's author may ask, for a post on their own server.
        guard Origin.same(quoting, actorID) else { return .ignored("wrong-origin") }
        if let author = activity.instrument?.embedded?.attributedTo, !author.isEmpty, !author.contains(actorID) {
            return .ignored("not-author")
        }
        guard let requester = try store.actors.remoteActor(id: actorID) else { return .ignored("unknown-object") }
        // The answer goes only to the asker's own server (an actor whose inbox names a third
        // party's must not aim the blog's signed answers there), once per asker and quoting post
        // a day, within the automatic answers' hourly rate (`Store.claimAutomaticReply`).
        guard Origin.same(requester.inbox, actorID) else { return .ignored("answer-elsewhere") }
        guard try store.automaticReplies.claimAutomaticReply(to: actorID, about: "quote " + quoting, now: now) else { return .ignored("answer-limited") }
        let allowed = switch config.federation.quotePolicy {
        case .anyone: true
        case .followers: try store.followers.isFollower(actorID)
        case .nobody: false
        }
        let answer = try activities.answerQuote(requestID: requestID, requester: actorID, quoted: quoted, quoting: quoting,
                                                allowed: allowed, now: now)
        try outbox.send(answer.activity, to: [requester.inbox], keeping: answer.kept, now: now)
        return .applied(allowed ? "quote-accepted" : "quote-rejected")
    }
}
