import ActivityStreams
import Foundation
import Site
import Store

/// What an accepted activity means for the blog: applies it to the store (follows, comments,
/// reactions, deletions) and queues any answer. Runs after the inbox said 202, from the queued
/// row, so it may take its time (fetching an object given by reference, say).
///
/// Every effect is conditioned on who signed: the signer is the activity's actor (checked by
/// `InboxGate`), and a Note may only be edited or deleted by its author.
public struct InboxProcessor: Sendable {
    let store: Store
    let config: SiteConfig
    let urls: FederationURLs
    let outbox: Outbox
    let fetcher: RemoteFetcher?
    let activities: Activities

    public init(store: Store, config: SiteConfig, outbox: Outbox, fetcher: RemoteFetcher?) {
        self.store = store
        self.config = config
        self.urls = FederationURLs(config: config)
        self.outbox = outbox
        self.fetcher = fetcher
        self.activities = Activities(urls: urls, config: config)
    }

    /// What processing changed, for the server to re-render.
    public struct Effects: Sendable, Equatable {
        /// Posts whose comments or reactions changed.
        public var changedPosts: Set<String> = []
        public init() {}
    }

    /// Applies one activity signed by `actorID`.
    public func apply(_ activity: ASObject, signedBy actorID: String, now: Date = Date()) async throws -> Effects {
        switch activity.type {
        case "Follow": try follow(activity, actorID: actorID, now: now); return Effects()
        case "Undo": return try undo(activity, actorID: actorID)
        case "Create": return try await create(activity, actorID: actorID, now: now)
        case "Update": return try await update(activity, actorID: actorID, now: now)
        case "Delete": return try delete(activity, actorID: actorID)
        case "Like": return try react(.like, activity, actorID: actorID, now: now)
        case "Announce": return try react(.announce, activity, actorID: actorID, now: now)
        default: return Effects()  // Accept, Reject, Add, Move…: nothing the blog acts on
        }
    }

    // MARK: follows

    func follow(_ activity: ASObject, actorID: String, now: Date) throws {
        guard let followID = activity.id, isBlogActor(activity.id("object")) else { return }
        guard let follower = try store.remoteActor(id: actorID) else { return }
        try store.addFollower(actorID: actorID, followActivityID: followID, now: now)
        try outbox.send(activities.accept(followID: followID, follower: actorID), to: [follower.inbox], now: now)
    }

    func undo(_ activity: ASObject, actorID: String) throws -> Effects {
        var effects = Effects()
        let object = activity.object("object")
        guard let objectID = object?.id ?? activity.id("object") else { return effects }
        // The undone activity must be the undoer's own.
        if let object, let objectActor = object.id("actor"), objectActor != actorID { return effects }
        switch object?.type {
        case "Follow"?:
            try store.removeFollower(actorID: actorID)
        case "Like"?, "Announce"?:
            let kind: Store.ReactionKind = object?.type == "Like" ? .like : .announce
            let path = try object.flatMap { $0.id("object") }.flatMap { try postPath(for: $0) }
            if let changed = try store.removeReaction(activityID: objectID, actorID: actorID, kind: kind, postPath: path) {
                effects.changedPosts.insert(changed)
            }
        default:
            // Only an id: a reaction we recorded, or the follow.
            if let changed = try store.removeReaction(activityID: objectID, actorID: actorID) {
                effects.changedPosts.insert(changed)
            } else {
                try store.removeFollower(actorID: actorID, followActivityID: objectID)
            }
        }
        return effects
    }

    // MARK: reactions

    func react(_ kind: Store.ReactionKind, _ activity: ASObject, actorID: String, now: Date) throws -> Effects {
        var effects = Effects()
        guard let activityID = activity.id, let target = activity.id("object"), let path = try postPath(for: target) else {
            return effects
        }
        if try store.addReaction(activityID: activityID, kind: kind, postPath: path, actorID: actorID, now: now) {
            effects.changedPosts.insert(path)
        }
        return effects
    }

    // MARK: deletions

    func delete(_ activity: ASObject, actorID: String) throws -> Effects {
        var effects = Effects()
        guard let objectID = activity.id("object") else { return effects }
        if objectID == actorID {
            effects.changedPosts = try store.deleteActorContent(actorID: actorID)
        } else if let path = try store.deleteComment(id: objectID, authorID: actorID) {
            effects.changedPosts.insert(path)
        }
        return effects
    }

    // MARK: lookups

    /// Whether an id names the blog's actor (its id, or the `@name` profile URL).
    func isBlogActor(_ id: String?) -> Bool {
        id == urls.actor || id == urls.base + "/@" + urls.username
    }

    /// The site path of a post named by its Article id or its URL; nil for anything else.
    func postPath(for id: String) throws -> String? {
        if let post = try store.post(apID: id), post.deletedAt == nil { return post.path }
        guard id.hasPrefix(config.baseURL + "/") else { return nil }
        var path = String(id.dropFirst(config.baseURL.count))
        if let cut = path.firstIndex(where: { $0 == "#" || $0 == "?" }) { path = String(path[..<cut]) }
        if !path.hasSuffix("/") { path += "/" }
        guard let post = try store.post(path: path), post.deletedAt == nil else { return nil }
        return post.path
    }
}
