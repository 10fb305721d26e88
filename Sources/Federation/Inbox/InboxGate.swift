import Synchronization
import ActivityStreams
import Foundation
import HTTPSignatures
import Site
import Store

/// The inbox's front: decides, quickly and without side effects on refusal, whether an incoming
/// activity is accepted, and records it for `InboxProcessor`. Checks in order: content type,
/// JSON (depth ≤ 32), signature, signer = actor, replay, blocks; then stores and answers 202.
public struct InboxGate: Sendable {
    public static let maximumBodySize = 256 * 1024
    static let acceptedTypes = ["application/activity+json", "application/ld+json", "application/json"]

    public let store: Store
    public let keys: RemoteKeyProvider
    let replays: ReplayCache

    public init(store: Store, keys: RemoteKeyProvider) {
        self.store = store
        self.keys = keys
        self.replays = ReplayCache()
    }

    public struct Outcome: Sendable, Equatable {
        public var status: Int
        /// Why, for the log (never sent to the client beyond a generic message).
        public var reason: String
        /// Whether a new activity was queued for processing.
        public var queued: Bool

        public init(status: Int, reason: String, queued: Bool) {
            (self.status, self.reason, self.queued) = (status, reason, queued)
        }

        static func refuse(_ status: Int, _ reason: String) -> Outcome { Outcome(status: status, reason: reason, queued: false) }
    }

    /// `request` must carry the body; its headers are as received.
    public func receive(_ request: HTTPRequestParts, now: Date = Date()) async -> Outcome {
        let body = request.body
        guard body.count <= Self.maximumBodySize else { return .refuse(413, "body over \(Self.maximumBodySize) bytes") }
        let contentType = (request.field("content-type") ?? "").split(separator: ";").first?
            .trimmingCharacters(in: .whitespaces).lowercased() ?? ""
        guard Self.acceptedTypes.contains(contentType) else {
            return .refuse(415, "content type '\(contentType)' is not an ActivityPub type")
        }
        let activity: ASObject
        do { activity = try ASObject(json: body) } catch { return .refuse(400, "\(error)") }
        guard let id = activity.id, let type = activity.type, let actor = activity.id("actor") else {
            return .refuse(400, "an activity needs an id, a type and an actor")
        }
        // A server announcing that an account we never heard of is gone: nothing to undo, and
        // its key cannot be fetched any more. Accept without storing, so it stops retrying.
        if type == "Delete", activity.id("object") == actor, (try? store.remoteActor(id: actor)).flatMap({ $0 }) == nil {
            return Outcome(status: 202, reason: "deletion of an unknown actor", queued: false)
        }
        let signer: String
        do {
            let verified = try await SignatureVerifier(now: now).verify(request, keys: keys)
            guard let owner = try keys.owner(ofKey: verified.keyId) else {
                return .refuse(401, "key \(verified.keyId) has no known owner")
            }
            signer = owner
        } catch {
            return .refuse(401, "signature: \(error)")
        }
        guard signer == actor else { return .refuse(401, "signed by \(signer) but the activity's actor is \(actor)") }
        // Notes and articles must be by whoever sends them.
        if ["Create", "Update"].contains(type), let object = activity.object("object"),
           let author = object.id("attributedTo"), author != actor {
            return .refuse(401, "\(actor) sent an object attributed to \(author)")
        }
        guard let signature = request.field("signature"), replays.firstSighting(signature, now: now) else {
            return .refuse(401, "replayed signature")
        }
        do {
            let sender = try store.senderStatus(actorID: actor)
            if sender.blocked { return .refuse(403, "\(actor) is blocked") }
            guard let json = String(bytes: body, encoding: .utf8) else { return .refuse(400, "the body is not UTF-8") }
            let queued = try store.enqueueInbound(activityID: id, actorID: actor, json: json, now: now)
            // Hearing from a host that was failing resumes deliveries to it.
            if sender.hostTroubled, let host = URLComponents(string: actor)?.host { try store.hostIsBack(host, now: now) }
            return Outcome(status: 202, reason: queued ? "\(type) \(id) queued" : "duplicate \(id)", queued: queued)
        } catch {
            return .refuse(500, "store: \(error)")
        }
    }
}

/// Signatures seen recently. A signature passes the date checks for about two hours (an hour
/// ahead, its expiry plus an hour behind), so one seen twice within that is a replay. Two
/// generations of 64-bit fingerprints, rotated every `generation`, bound the memory; the
/// activity-id check still catches a replay of a forgotten one (after a restart, say).
final class ReplayCache: Sendable {
    private struct State {
        var current = Set<ContentHash>()
        var previous = Set<ContentHash>()
        var rotatedAt = Date()
    }
    private let state = Mutex(State())
    static let generation: TimeInterval = 75 * 60
    static let maximumPerGeneration = 1_000_000

    /// Records the signature; false when it was seen before.
    func firstSighting(_ signature: String, now: Date) -> Bool {
        let key = ContentHash(signature)
        return state.withLock { state in
            if now.timeIntervalSince(state.rotatedAt) > Self.generation || state.current.count >= Self.maximumPerGeneration {
                state.previous = state.current
                state.current = []
                state.rotatedAt = now
            }
            if state.previous.contains(key) { return false }
            return state.current.insert(key).inserted
        }
    }
}
