import ActivityPub
import ActivityStreams
import BlogModel
import DataIntegrity
import Foundation
import Storage

/// What an accepted activity means for the blog: applies it to the store (follows, comments,
/// reactions, deletions) and queues any answer. Runs after the inbox said 202, from the queued
/// row, so it may take its time (fetching an object given by reference, a missing parent).
///
/// Every effect is conditioned on who signed: the signer is the activity's actor (checked by
/// `InboxGate`, with the origin rules), and an object may only be edited or deleted by its author.
/// Every activity ends with an outcome — what it did, or why it did nothing — which the worker
/// logs and counts: nothing is accepted silently.
public struct InboxProcessor: Sendable {
    package let store: Store
    package let config: SiteConfig
    let urls: FederationURLs
    let outbox: Outbox
    let fetcher: RemoteFetcher?
    /// Checks the integrity proofs (FEP-8b32) of what an `Announce` embeds: a proven copy is
    /// used without fetching it again. nil checks none (everything is fetched).
    let proofs: ProofCheck?
    let activities: Activities
    /// How far up a thread missing parents are fetched.
    static let maximumAncestors = 8
    /// Replies one author may have waiting for their parents.
    static let maximumPendingPerAuthor = 100

    public init(store: Store, config: SiteConfig, outbox: Outbox, fetcher: RemoteFetcher?, proofs: ProofCheck? = nil) {
        self.store = store
        self.config = config
        self.urls = FederationURLs(config: config)
        self.outbox = outbox
        self.fetcher = fetcher
        self.proofs = proofs
        self.activities = Activities(urls: urls, config: config)
    }

    /// What processing did: the posts whose pages must be rendered again, and the outcome.
    public struct Effects: Sendable, Equatable {
        /// Posts whose comments or reactions changed.
        public var changedPosts: Set<String> = []
        public var outcome = InboxOutcome(.applied, "none")

        public init(changedPosts: Set<String> = [], outcome: InboxOutcome = InboxOutcome(.applied, "none")) {
            self.changedPosts = changedPosts
            self.outcome = outcome
        }

        package static func applied(_ what: String, posts: Set<String> = []) -> Effects { Effects(changedPosts: posts, outcome: .init(.applied, what)) }
        package static func ignored(_ why: String) -> Effects { Effects(outcome: .init(.ignored, why)) }
    }

    /// The activity types `apply` acts on: the inbox stores no other (they are accepted and dropped).
    public static let actedOnTypes = Set(["Follow", "Undo", "Create", "Update", "Delete", "Like", "Announce", "QuoteRequest"])
        .union(followAnswerTypes)

    /// What the inbox gate lets in (`InboxGate.ActedOn`).
    public static let actedOn = InboxGate.ActedOn(types: actedOnTypes, fromFollowedOnly: followAnswerTypes)

    /// Applies one activity signed by `actorID`.
    public func apply(_ activity: APObject, signedBy actorID: String, now: Date = Date()) async throws -> Effects {
        try await apply(activity, signedBy: actorID, raw: nil, now: now)
    }

    /// `raw`: the activity as received, read strictly (RFC 8785), for the proofs of what it embeds.
    func apply(_ activity: APObject, signedBy actorID: String, raw: [String: CanonicalJSON]?, now: Date) async throws -> Effects {
        switch activity.activityType {
        case .follow: return try follow(activity, actorID: actorID, now: now)
        case .undo: return try undo(activity, actorID: actorID)
        case .create: return try await create(activity, actorID: actorID, now: now)
        case .update: return try await update(activity, actorID: actorID, now: now)
        case .delete: return try delete(activity, actorID: actorID, now: now)
        case .like: return try react(.like, activity, actorID: actorID, now: now)
        case .announce: return try await announce(activity, actorID: actorID, raw: raw, now: now)
        case .quoteRequest: return try quoteRequest(activity, actorID: actorID, now: now)
        case .accept: return try answer(activity, actorID: actorID, accepted: true, now: now)
        case .reject: return try answer(activity, actorID: actorID, accepted: false, now: now)
        case .move: return try await move(activity, actorID: actorID, now: now)
        default: return .ignored(InboxOutcome.unsupportedType(activity.types.first))
        }
    }

    /// Decodes a stored activity and applies it.
    public func apply(json: String, signedBy actorID: String, now: Date = Date()) async throws -> Effects {
        let bytes = Array(json.utf8)
        let activity = try APObject(json: bytes)
        // Read a second time, strictly, only where a proof could save a fetch.
        let raw = activity.activityType == .announce && activity.object?.embedded != nil && proofs != nil
            ? (try? CanonicalJSON.parse(bytes))?.members : nil
        return try await apply(activity, signedBy: actorID, raw: raw, now: now)
    }

    // MARK: lookups

    /// Whether an id names the blog's actor (its id, or the `@name` profile URL).
    func isBlogActor(_ id: String?) -> Bool {
        id == urls.actor || id == urls.base + "/@" + urls.username
    }

    /// The site path of a post named by its Article id or its URL (an old URL of a moved post
    /// too); nil for anything else.
    func postPath(for id: String) throws -> String? {
        if let post = try store.posts.post(apID: id), post.deletedAt == nil { return post.path }
        guard id.hasPrefix(config.baseURL + "/") else { return nil }
        var path = String(id.dropFirst(config.baseURL.count))
        if let cut = path.firstIndex(where: { $0 == "#" || $0 == "?" }) { path = String(path[..<cut]) }
        if !path.hasSuffix("/") { path += "/" }
        if let post = try store.posts.post(path: path), post.deletedAt == nil { return post.path }
        return try store.posts.postAliases()[path]
    }

    /// An actor the blog knows, or fetches from its own origin (an author met through a relay or
    /// up a thread); nil when it cannot be had.
    func knownActor(_ id: String) async throws -> RemoteActor? {
        if let actor = try store.actors.remoteActor(id: id) { return actor }
        guard let fetcher, Origin(id) != nil, try !store.blocks.isBlocked(actorID: id) else { return nil }
        guard let document = try? await fetcher.fetchAuthentic(id).object,
              let actor = ActorConversion.actor(from: document), actor.id == id else { return nil }
        try await store.actors.saveRemoteActor(actor, keys: ActorConversion.keys(from: document, owner: id),
                                        assertionKeys: ActorConversion.assertionKeys(from: document, owner: id))
        return actor
    }
}
