import ActivityStreams
import BlogModel
import DataIntegrity
import Foundation
import HTTPSignatures
import LecternCrypto
import Storage

/// The inbox's front: decides, quickly and without side effects on refusal, whether an incoming
/// activity is accepted, and records it for `InboxProcessor`. Checks in order: content type,
/// JSON (depth ≤ 32), signature, signer = actor (or, relayed, the actor's own integrity proof,
/// else the activity as its actor's server serves it: `RelayedActivity`), origin rules, blocks;
/// then stores the activity
/// with its signature (a replay is refused) and answers 202.
///
/// Nothing here blocks a thread: key fetches suspend on the network thread, the write runs on
/// the database's own writer. A key that cannot be had now (its server slow or saturated) makes
/// the request held for a later check (`HeldInbox`, answered 202) while there is room, else 503
/// with `Retry-After`; a database locked by another process, or a full disk, make it 503: the
/// sender retries, nothing is lost.
public struct InboxGate: Sendable {
    public static let maximumBodySize = 256 * 1024
    static let acceptedTypes = ["application/activity+json", "application/ld+json", "application/json"]
    /// Seconds a sender is asked to wait after a 503.
    public static let retryAfterSeconds = 30

    /// Where accepted activities wait for the inbox worker.
    public let inbox: InboxQueue
    /// What the gate reads to decide (senders, blocks, follows) and the host trouble it clears.
    let actors: Actors, blocks: Blocks, following: Following, deliveries: DeliveryQueue
    public let keys: RemoteKeyProvider
    /// Where refusals are counted (by reason); nil counts nothing.
    public let counter: InboxCounter?
    /// The hosts signed requests must be addressed to; nil accepts any.
    public let audience: SignatureAudience?
    /// FEP-8fcf: what a verified delivery's `Collection-Synchronization` header is handed to.
    /// Told of each queued delivery's FEP-8fcf header with its signer (Interactions reconciles).
    public var onCollectionSynchronization: (@Sendable (_ header: String, _ signer: String) -> Void)?
    /// Where requests whose key cannot be had now are kept for a later check; nil answers 503.
    public var held: HeldInbox?
    /// Types the blog never acts on: accepted (with no effect) even without an id, which some
    /// servers leave out (Mastodon's `Add` to a featured collection).
    static let ignoredTypes: Set<String> = ["Add", "Remove", "Block", "Flag", "Listen", "Read", "View", "Accept", "Reject"]

    /// Relayed activities without their actor's proof, checked at their origin.
    let relayed: RelayedActivity

    /// The activity types the blog acts on, as the layer that acts on them says (`InboxProcessor.actedOn`).
    public struct ActedOn: Sendable {
        public var types: Set<String>
        /// Of those, the ones taken only from an account the blog follows (answers to its follows).
        public var fromFollowedOnly: Set<String>
        public init(types: Set<String>, fromFollowedOnly: Set<String>) { (self.types, self.fromFollowedOnly) = (types, fromFollowedOnly) }
    }
    let actedOn: ActedOn

    public init(inbox: InboxQueue, actors: Actors, blocks: Blocks, following: Following, deliveries: DeliveryQueue,
                keys: RemoteKeyProvider, audience: SignatureAudience?, actedOn: ActedOn, counter: InboxCounter? = nil) {
        self.actedOn = actedOn
        (self.inbox, self.actors, self.blocks, self.following, self.deliveries) = (inbox, actors, blocks, following, deliveries)
        self.keys = keys
        self.relayed = RelayedActivity(fetcher: keys.fetcher)
        self.audience = audience
        self.counter = counter
    }

    public struct Outcome: Sendable, Equatable {
        public var status: Int
        /// Why, for the log (never sent to the client beyond a generic message).
        public var reason: String
        /// Whether a new activity was queued for processing.
        public var queued: Bool
        /// With 503: seconds the sender should wait before trying again.
        public var retryAfter: Int?
        /// A short code for the counts: `bad-signature`, `origin`, `duplicate`…
        public var code = "queued"
        /// The verified signer of an activity that was queued, when it is the activity's actor
        /// (nil for a relayed one).
        public var signer: String?

        public init(status: Int, reason: String, queued: Bool, retryAfter: Int? = nil, code: String = "queued") {
            (self.status, self.reason, self.queued, self.retryAfter, self.code) = (status, reason, queued, retryAfter, code)
        }

        static func refuse(_ status: Int, _ code: String, _ reason: String) -> Outcome {
            Outcome(status: status, reason: reason, queued: false, code: code)
        }
        static func later(_ code: String, _ reason: String) -> Outcome {
            Outcome(status: 503, reason: reason, queued: false, retryAfter: InboxGate.retryAfterSeconds, code: code)
        }
        static func ignore(_ code: String, _ reason: String) -> Outcome { Outcome(status: 202, reason: reason, queued: false, code: code) }
    }

    /// `request` must carry the body; its headers are as received. Refusals and activities
    /// accepted without effect are counted by reason.
    /// `mayHold`: false when `HeldInbox` checks a held request again (it is held already).
    public func receive(_ request: HTTPRequestParts, now: Date = Date(), mayHold: Bool = true) async -> Outcome {
        let outcome = await decide(request, now: now, mayHold: mayHold)
        if outcome.queued, let signer = outcome.signer, let synchronize = onCollectionSynchronization,
           let header = request.field("collection-synchronization") {
            synchronize(header, signer)
        }
        if !outcome.queued {
            counter?.record(InboxOutcome(outcome.status == 202 ? .ignored : .refused, outcome.code))
        }
        return outcome
    }

    private func decide(_ request: HTTPRequestParts, now: Date, mayHold: Bool) async -> Outcome {
        // Replaced by the activity as its origin serves it when a relay brought it unproven.
        var body = request.body
        guard body.count <= Self.maximumBodySize else { return .refuse(413, "too-large", "body over \(Self.maximumBodySize) bytes") }
        let contentType = (request.field("content-type") ?? "").split(separator: ";").first?
            .trimmingCharacters(in: .whitespaces).lowercased() ?? ""
        guard Self.acceptedTypes.contains(contentType) else {
            return .refuse(415, "content-type", "content type '\(contentType)' is not an ActivityPub type")
        }
        // The typed vocabulary the inbox worker applies later: the gate checks what it will act on.
        var activity: APObject
        do { activity = try APObject(json: body) } catch { return .refuse(400, "malformed", "\(error)") }
        guard let type = activity.types.first, let actor = activity.actor.first, activity.id != nil || Self.ignoredTypes.contains(type) else {
            return .refuse(400, "malformed", "an activity needs an id, a type and an actor")
        }
        guard Origin(actor) != nil else { return .refuse(400, "malformed", "the actor \(actor) is not an http(s) URL") }
        do {
            // A server announcing that an account we never heard of is gone: nothing to undo, and
            // its key cannot be fetched any more. Accept without storing, so it stops retrying.
            if type == "Delete", activity.object?.id == actor, try actors.remoteActor(id: actor) == nil {
                return .ignore("unknown-actor-deleted", "deletion of an unknown actor")
            }
            // A blocked sender costs no key fetch: refused before the signature is looked at (one
            // read, which also says whether its host was failing, for after the signature).
            let sender = try blocks.senderStatus(actorID: actor)
            if sender.blocked { return .refuse(403, "blocked", "\(actor) is blocked") }
            let verified: VerifiedSignature
            do {
                verified = try await SignatureVerifier(now: now, audience: audience).verify(request, keys: keys)
            } catch SignatureError.keyTemporarilyUnavailable(let why) {
                // The claim reads what `verify` read before it asked for the key: it cannot fail here
                // unless the request is malformed, and then there is nothing to hold.
                if mayHold, let held, let claim = try? SignatureVerifier(now: now, audience: audience).claimedSignature(request),
                   try await held.hold(request, actor: actor, keyId: claim.keyId, replayKey: claim.replayKey, now: now) {
                    return .ignore("held", "held until its signing key can be had (\(why))")
                }
                return .later("key-unavailable-now", "signing key not available now: \(why)")
            } catch let error as SignatureError {
                return .refuse(401, Self.code(error), "signature: \(error)")
            } catch {
                return .refuse(401, "bad-signature", "signature: \(error)")
            }
            guard let signer = try keys.owner(ofKey: verified.keyId) else {
                return .refuse(401, "key-owner", "key \(verified.keyId) has no known owner")
            }
            var relayedBy: String?
            if signer != actor {
                // Relayed (forwarded by another server, FEP-8b32's use case): taken as the actor's
                // when the activity carries the actor's own integrity proof, else as the actor's
                // server serves it (fetched, bounded). A blocked relay is not heard either way.
                if try blocks.isBlocked(actorID: signer) { return .refuse(403, "blocked", "relayed by \(signer), which is blocked") }
                let verdict = await Self.proof(of: body, by: actor, keys: keys, now: now)
                if !verdict.isProven {
                    switch await relayed.check(activity, body: body, actor: actor, now: now) {
                    case .vouched(let served):
                        guard served.count <= Self.maximumBodySize else {
                            return .refuse(413, "too-large", "as served at its origin: over \(Self.maximumBodySize) bytes")
                        }
                        do { activity = try APObject(json: served) } catch { return .refuse(400, "malformed", "as served at its origin: \(error)") }
                        body = served
                    case .later(let why):
                        return .later("relayed-check-later", "relayed by \(signer) without \(actor)'s proof: \(why)")
                    case .unverifiable(let why):
                        return .refuse(401, "not-the-signer", "signed by \(signer) but the activity's actor is \(actor) (proof: \(verdict); at its origin: \(why))")
                    }
                }
                relayedBy = signer
            }
            guard let id = activity.id else {
                return .ignore(InboxOutcome.unsupportedType(type), "\(type) without an id, which the blog does not act on")
            }
            // What the blog never acts on is not stored: a flood of made-up types costs no rows.
            guard actedOn.types.contains(type) else {
                return .ignore(InboxOutcome.unsupportedType(type), "\(type.prefix(64)), which the blog does not act on")
            }
            if let violation = OriginRules.violation(activity, actor: actor) { return .refuse(401, "origin", violation) }
            // Answers to the blog's follows and moves of followed accounts: only from an account
            // the blog follows (anyone else's would be rows for nothing).
            if actedOn.fromFollowedOnly.contains(type), try !following.isFollowing(actor) {
                return .ignore("not-followed", "\(type) from \(actor), whom the blog does not follow")
            }
            guard let json = String(validating: body, as: UTF8.self) else { return .refuse(400, "malformed", "the body is not UTF-8") }
            // Remembered past the last moment it could pass the date checks (in `Signature` or
            // `Authorization` alike): the window is always shorter than the memory.
            let until = (verified.acceptedUntil ?? now.addingTimeInterval(TimeWindow.maximumLifetime + TimeWindow.clockSkew))
                .addingTimeInterval(TimeWindow.replayMemoryMargin)
            let signature = (fingerprint: Data(verified.replayKey).base64EncodedString(), until: until)
            let result = try await inbox.enqueueInbound(activityID: id, actorID: actor, json: json, signature: signature,
                                                        repeatable: type == "Follow" && relayedBy == nil, now: now)
            // Hearing from a host that was failing resumes deliveries to it.
            // (A relayed activity says nothing of its actor's host.)
            if sender.hostTroubled, relayedBy == nil, let host = Origin(actor)?.host { try await deliveries.hostIsBack(host, now: now) }
            switch result {
            case .queued:
                var outcome = Outcome(status: 202, reason: "\(type) \(id) queued" + (relayedBy.map { ", relayed by \($0) with \(actor)'s proof" } ?? ""),
                                      queued: true)
                // A relay's own headers (FEP-8fcf's `Collection-Synchronization`) speak for the relay,
                // not for the actor whose proven activity it carries.
                outcome.signer = relayedBy == nil ? actor : nil
                return outcome
            case .duplicate: return .ignore("duplicate", "duplicate \(id)")
            case .replayed: return .refuse(401, "replay", "replayed signature")
            }
        } catch StoreError.busy {
            return .later("busy", "the database is busy")
        } catch let error where StorageFull.recognizes(error) {
            // Nothing was kept (the transaction failed whole): the sender keeps it and retries.
            return .later("disk-full", "\(error)")
        } catch {
            return .refuse(500, "store-error", "store: \(error)")
        }
    }

    /// Whether the body is vouched for by `actor`'s own object integrity proof (FEP-8b32).
    static func proof(of body: [UInt8], by actor: String, keys: RemoteKeyProvider, now: Date) async -> ProofCheck.Verdict {
        guard let document = (try? CanonicalJSON.parse(body))?.members else { return .unproven("the body is not I-JSON") }
        return await ProofCheck(keys: keys).check(document, author: actor, now: now)
    }

    /// The count's name for a signature refusal.
    static func code(_ error: SignatureError) -> String {
        switch error {
        case .missingSignature: return "unsigned"
        case .expired, .notYetValid: return "stale"
        case .wrongAudience: return "wrong-host"
        case .keyUnavailable: return "key-unavailable"
        case .digestMissing, .digestMismatch, .unsupportedDigest: return "digest"
        default: return "bad-signature"
        }
    }
}
