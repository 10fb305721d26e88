import ActivityStreams
import BlogModel

/// Which ids an activity's signer may speak for (design §5): its own activity ids, and the
/// objects it creates, updates, deletes or undoes, all on its own origin; the objects it
/// creates or updates attributed to itself. Applied at the inbox door, before anything is
/// stored; the inbox worker then checks ownership of existing objects (authors, followers).
///
/// `Like`, `Announce` and `Follow` point at other servers' objects (ours) by nature, so only
/// their own ids are checked; an `Announce` never vouches for an object it embeds: the worker
/// fetches that object from its own origin.
package enum OriginRules {
    static let ownObjectTypes: Set<String> = ["Create", "Update", "Delete", "Undo"]

    /// Why `activity` (signed by `actor`) breaks the rules, or nil when it does not.
    package static func violation(_ activity: APObject, actor: String) -> String? {
        guard let id = activity.id, Origin.same(id, actor) else {
            return "activity id \(activity.id ?? "(none)") is not on the origin of its actor \(actor)"
        }
        guard let type = activity.types.first, ownObjectTypes.contains(type) else { return nil }
        if let object = activity.object?.embedded {
            if let objectID = object.id, !Origin.same(objectID, actor) {
                return "\(type) of \(objectID), which is not on the origin of \(actor)"
            }
            if type == "Create" || type == "Update" {
                let authors = object.attributedTo
                if !authors.isEmpty, !authors.contains(actor) {
                    return "\(actor) sent an object attributed to \(authors.joined(separator: ", "))"
                }
            }
        } else if let objectID = activity.object?.id, type != "Create", !Origin.same(objectID, actor) {
            // By reference: a Create's object is fetched from its origin later; the others must be the signer's.
            return "\(type) of \(objectID), which is not on the origin of \(actor)"
        }
        return nil
    }
}
