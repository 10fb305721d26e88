import ActivityStreams
import BlogModel
import Foundation

/// A relayed activity (signed by another server than its actor's) without its actor's own proof
/// (FEP-8b32) is taken only as its actor's server serves it, as Mastodon and Pleroma do with
/// forwarded activities: its id (on its actor's origin) is fetched, and what that server answers
/// is what the blog applies, never the relay's copy. A `Create` or `Update` whose activity is not
/// served (GoToSocial serves no activities) stands on its object, fetched from its own id and
/// attributed to the actor; a `Delete` stands when its object is gone (404 or 410) at its origin.
///
/// Every such check costs the blog one or two GETs to a server a stranger named, so they are
/// bounded like key fetches: `perHostPerMinute` to one origin, `overallPerMinute` in all; over
/// the budget the relay is asked to come back later (503).
struct RelayedActivity: Sendable {
    static let perHostPerMinute = 10.0
    static let overallPerMinute = 60.0

    let fetcher: RemoteFetcher
    let budget = FetchBudget(perHostPerMinute: perHostPerMinute, overallPerMinute: overallPerMinute)

    enum Outcome: Equatable {
        /// What the actor's server vouches for: the activity to apply, as JSON.
        case vouched([UInt8])
        /// Could not be checked now (the origin slow, or the budget spent): the relay retries.
        case later(String)
        /// The actor's server does not vouch for it.
        case unverifiable(String)
    }

    /// `body` is the relay's copy of `activity`, whose actor is `actor`.
    func check(_ activity: APObject, body: [UInt8], actor: String, now: Date) async -> Outcome {
        guard let id = activity.id, let type = activity.types.first, Origin.same(id, actor), let host = Origin(actor)?.host else {
            return .unverifiable("its id is not on its actor's server")
        }
        guard budget.take(host: host, now: now) else { return .later("over the budget of checks at \(host)") }
        do {
            if type == "Delete" { return try await deletion(activity, body: body, actor: actor) }
            do {
                let served = try await fetcher.fetchAuthentic(id)
                guard served.object.actor.first == actor, served.object.types.first == type else {
                    return .unverifiable("\(id) at its origin is another activity")
                }
                return .vouched(served.body)
            } catch let error as RemoteFetchError where !error.isTemporary && ["Create", "Update"].contains(type) {
                return try await byObject(activity, id: id, type: type, actor: actor, activityError: error)
            }
        } catch let error as RemoteFetchError where error.isTemporary {
            budget.hostFailed(host, now: now)
            return .later("its origin did not answer: \(error)")
        } catch {
            return .unverifiable("\(error)")
        }
    }

    /// A `Create` or `Update` stands on its object as the actor's server serves it.
    private func byObject(_ activity: APObject, id: String, type: String, actor: String, activityError: RemoteFetchError) async throws -> Outcome {
        guard let objectID = activity.object?.id, Origin.same(objectID, actor) else {
            return .unverifiable("the activity is not served (\(activityError)) and its object is not on its actor's server")
        }
        let document = try await fetcher.fetchAuthentic(objectID)
        guard document.object.attributedTo.contains(actor) else { return .unverifiable("\(objectID) at its origin is not \(actor)'s") }
        // The activity around the object's own bytes, addressed as the object is.
        let head: [String: Any] = ["@context": "https://www.w3.org/ns/activitystreams", "id": id, "type": type, "actor": actor,
                                   "to": document.object.to, "cc": document.object.cc]
        var wrapper = Array(try JSONSerialization.data(withJSONObject: head))
        wrapper.removeLast()  // the closing brace
        return .vouched(wrapper + Array(",\"object\":".utf8) + document.body + [UInt8(ascii: "}")])
    }

    /// A `Delete` stands when what it deletes is gone at its origin.
    private func deletion(_ activity: APObject, body: [UInt8], actor: String) async throws -> Outcome {
        guard let objectID = activity.object?.id, Origin.same(objectID, actor) else {
            return .unverifiable("it deletes something not on its actor's server")
        }
        do {
            _ = try await fetcher.fetch(objectID)
            return .unverifiable("\(objectID) still exists at its origin")
        } catch RemoteFetchError.status(let status, _) where status == 404 || status == 410 {
            return .vouched(body)
        }
    }
}
