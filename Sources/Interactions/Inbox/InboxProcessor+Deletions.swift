import ActivityStreams
import Foundation
import Storage

/// Deletions: of an author's own comment, or of a whole account.
extension InboxProcessor {
    func delete(_ activity: APObject, actorID: String, now: Date) throws -> Effects {
        guard let objectID = activity.object?.id else { return .ignored("unknown-object") }
        if objectID == actorID {
            return .applied("actor-deleted", posts: try store.comments.deleteActorContent(actorID: actorID))
        }
        if let path = try store.comments.deleteComment(id: objectID, authorID: actorID, activityID: activity.id, now: now) {
            return .applied("delete", posts: [path])
        }
        return try store.comments.comment(id: objectID) == nil ? .ignored("unknown-object") : .ignored("not-author")
    }
}
