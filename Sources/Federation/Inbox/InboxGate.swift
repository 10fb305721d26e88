import ActivityStreams
import Foundation
import HTTPSignatures
import LecternCrypto
import Site
import Store

/// The inbox's front: decides, quickly and without side effects on refusal, whether an incoming
/// activity is accepted, and records it for `InboxProcessor`. Checks in order: content type,
/// JSON (depth ≤ 32), signature, signer = actor, origin rules, blocks; then stores the activity
/// with its signature (a replay is refused) and answers 202.
///
/// Nothing here blocks a thread: key fetches suspend on the network thread, the write runs on
/// the database's own writer. A key server that is slow or saturated, and a database locked by
/// another process, make the answer 503 with `Retry-After`: the sender retries, nothing is lost.
public struct InboxGate: Sendable {
    public static let maximumBodySize = 256 * 1024
    static let acceptedTypes = ["application/activity+json", "application/ld+json", "application/json"]
    /// Seconds a sender is asked to wait after a 503.
    public static let retryAfterSeconds = 30

    public let store: Store
    public let keys: RemoteKeyProvider

    public init(store: Store, keys: RemoteKeyProvider) {
        self.store = store
        self.keys = keys
    }

    public struct Outcome: Sendable, Equatable {
        public var status: Int
        /// Why, for the log (never sent to the client beyond a generic message).
        public var reason: String
        /// Whether a new activity was queued for processing.
        public var queued: Bool
        /// With 503: seconds the sender should wait before trying again.
        public var retryAfter: Int?

        public init(status: Int, reason: String, queued: Bool, retryAfter: Int? = nil) {
            (self.status, self.reason, self.queued, self.retryAfter) = (status, reason, queued, retryAfter)
        }

        static func refuse(_ status: Int, _ reason: String) -> Outcome { Outcome(status: status, reason: reason, queued: false) }
        static func later(_ reason: String) -> Outcome {
            Outcome(status: 503, reason: reason, queued: false, retryAfter: InboxGate.retryAfterSeconds)
        }
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
        guard Origin(actor) != nil else { return .refuse(400, "the actor \(actor) is not an http(s) URL") }
        do {
            // A server announcing that an account we never heard of is gone: nothing to undo, and
            // its key cannot be fetched any more. Accept without storing, so it stops retrying.
            if type == "Delete", activity.id("object") == actor, try store.remoteActor(id: actor) == nil {
                return Outcome(status: 202, reason: "deletion of an unknown actor", queued: false)
            }
            let verified: VerifiedSignature
            do {
                verified = try await SignatureVerifier(now: now).verify(request, keys: keys)
            } catch SignatureError.keyTemporarilyUnavailable(let why) {
                return .later("signing key not available now: \(why)")
            } catch {
                return .refuse(401, "signature: \(error)")
            }
            guard let signer = try keys.owner(ofKey: verified.keyId) else {
                return .refuse(401, "key \(verified.keyId) has no known owner")
            }
            guard signer == actor else { return .refuse(401, "signed by \(signer) but the activity's actor is \(actor)") }
            if let violation = OriginRules.violation(activity, actor: actor) { return .refuse(401, violation) }
            let sender = try store.senderStatus(actorID: actor)
            if sender.blocked { return .refuse(403, "\(actor) is blocked") }
            guard let json = String(validating: body, as: UTF8.self) else { return .refuse(400, "the body is not UTF-8") }
            let signature = request.field("signature").map { value in
                (fingerprint: Data(Digest.sha256(Array(value.utf8))).base64EncodedString(), until: verified.acceptedUntil ?? now.addingTimeInterval(2 * 3600))
            }
            let result = try await store.enqueueInbound(activityID: id, actorID: actor, json: json, signature: signature, now: now)
            // Hearing from a host that was failing resumes deliveries to it.
            if sender.hostTroubled, let host = Origin(actor)?.host { try await store.hostIsBack(host, now: now) }
            switch result {
            case .queued: return Outcome(status: 202, reason: "\(type) \(id) queued", queued: true)
            case .duplicate: return Outcome(status: 202, reason: "duplicate \(id)", queued: false)
            case .replayed: return .refuse(401, "replayed signature")
            }
        } catch StoreError.busy {
            return .later("the database is busy")
        } catch {
            return .refuse(500, "store: \(error)")
        }
    }
}
