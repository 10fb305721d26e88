import ActivityPub
import ActivityStreams
import BlogModel
import Foundation
import HTTPSignatures
import Logging
import Storage

/// FEP-8fcf (followers collection synchronization), the receiving side: a server the blog
/// follows says, in each signed delivery's `Collection-Synchronization` header, a digest of the
/// followers it has on our domain. When it differs from ours, its partial followers collection
/// (`url`, fetched signed) is read and the two sides are reconciled as Mastodon's
/// `FollowersSynchronizationService` does, adapted to a blog that is one actor:
///
/// - it lists the blog, but the blog does not follow it: `Undo(Follow)` is sent (a pending
///   follow it lists was accepted: the Accept got lost, it is recorded as accepted);
/// - the blog follows it, but it does not list the blog: the follow is pending again and the
///   `Follow` is sent anew.
///
/// Bounded: the digest is compared for free on every delivery; a reconciliation runs at most
/// once an hour per followed signer, and once an hour per remote host for all its other accounts, fetches at most `maximumPages` pages, and only for a header
/// whose collection is the signer's own followers collection (checked against the signer's
/// actor document, on the signer's origin) and whose `url` is that collection's partial
/// collection (`isPartialCollection`).
public struct FollowersSynchronization: Sendable {
    let actors: Actors, blocks: Blocks, following: Following
    let urls: FederationURLs
    let outbox: Outbox
    let fetcher: RemoteFetcher
    let logger: Logger
    static let maximumPages = 10
    static let maximumItems = 20_000

    public init(actors: Actors, blocks: Blocks, following: Following, urls: FederationURLs, outbox: Outbox, fetcher: RemoteFetcher,
                logger: Logger) {
        (self.actors, self.blocks, self.following) = (actors, blocks, following)
        (self.urls, self.outbox, self.fetcher, self.logger) = (urls, outbox, fetcher, logger)
    }

    /// What a delivery's header asks of us: nothing when it names someone else's collection or
    /// the digests agree; a reconciliation (claimed now, run by the caller) when they differ.
    public func check(header value: String, signer: String, now: Date = Date()) async throws -> CollectionSynchronization? {
        guard let header = CollectionSynchronization.parse(value), Origin.same(header.collectionId, signer),
              Self.isPartialCollection(header.url, of: header.collectionId), let origin = Origin(signer) else { return nil }
        // Only servers the blog follows someone on: anyone else's digest is nothing to us.
        guard try following.followedAccounts().contains(where: { Origin($0.actor.id) == origin }) else { return nil }
        guard header.digest != CollectionSynchronization.digest(of: try expected(signer)) else { return nil }
        // A followed signer's hour is its own; everyone else on that server (whose only possible
        // outcome is an Undo) shares one per server, so no account uses up another's.
        let key = try following.isFollowing(signer) ? signer : "\(origin.host):\(origin.port)"
        guard try await following.claimFollowersSync(key: key, now: now) else { return nil }
        return header
    }

    /// Whether `url` can be the partial collection of `collectionId`: on its origin, with its
    /// path (plus a query, as in FEP-8fcf's `…/followers?domain=HOST`) or the path Mastodon
    /// sends (`…/followers_synchronization`, next to `…/followers`); no fragment, no dot segment.
    static func isPartialCollection(_ url: String, of collectionId: String) -> Bool {
        guard Origin.same(url, collectionId), let parts = URLComponents(string: url), let collection = URLComponents(string: collectionId),
              parts.fragment == nil, collection.query == nil, collection.fragment == nil else { return false }
        let path = parts.percentEncodedPath, own = collection.percentEncodedPath
        guard !own.isEmpty, !path.split(separator: "/").contains(where: { $0 == ".." || $0 == "." }) else { return false }
        return path == own || path == own + "_synchronization"
    }

    /// The blog's own view of the signer's followers on our domain: the blog, when it follows
    /// the signer and was accepted.
    func expected(_ signer: String) throws -> [String] {
        try following.followedAccount(actorID: signer)?.state == .accepted ? [urls.actor] : []
    }

    public struct Outcome: Sendable, Equatable {
        public var undone = false
        public var refollowed = false
        public var acceptedLate = false
    }

    /// Fetches the partial collection and reconciles; nil when the collection is not the
    /// signer's followers collection or cannot be read.
    public func reconcile(_ header: CollectionSynchronization, signer: String, now: Date = Date()) async throws -> Outcome? {
        // The header must name the signer's own followers collection, as its document says.
        guard let actorDocument = await document(signer, authentic: true),
              (actorDocument["followers"] as? String) == header.collectionId else { return nil }
        guard let listed = try await members(header.url) else { return nil }
        let listsUs = listed.contains(urls.actor)
        var outcome = Outcome()
        let followed = try following.followedAccount(actorID: signer)
        switch (listsUs, followed?.state) {
        case (true, nil), (true, .rejected?):
            // Their side thinks the blog follows them: tell it otherwise.
            let follow = ActivityReference(id: urls.actor + "#follows/" + ContentHash(signer).hex + "/unknown",
                                           type: "Follow", actor: urls.actor, object: signer)
            // Only to the signer's own server: a header must not aim the blog at a third party.
            guard let inbox = try actors.remoteActor(id: signer)?.inbox, Origin.same(inbox, signer) else { return nil }
            try outbox.send(Activity(id: urls.actor + "#undos/sync/" + ContentHash(signer + String(now.timeIntervalSince1970)).hex,
                                     type: .undo, actor: urls.actor, to: [signer], object: follow), to: [inbox], now: now)
            outcome.undone = true
        case (true, .pending?):
            if let followed { outcome.acceptedLate = try following.answerFollow(actorID: signer, followActivityID: followed.followActivityID,
                                                                            accepted: true, now: now) }
        case (false, .accepted?):
            if let actor = try actors.remoteActor(id: signer) {
                try Follows(actors: actors, blocks: blocks, following: following, urls: urls, outbox: outbox).follow(actor, now: now)
                outcome.refollowed = true
            }
        default: break
        }
        logger.info("FEP-8fcf: reconciled \(signer)'s followers", metadata: [
            "undone": "\(outcome.undone)", "refollowed": "\(outcome.refollowed)", "acceptedLate": "\(outcome.acceptedLate)",
        ])
        return outcome
    }

    /// A document the reconciliation reads; a failure ends it, logged (the next differing header,
    /// an hour later at the earliest, tries again).
    func document(_ url: String, authentic: Bool = false) async -> [String: Any]? {
        do { return authentic ? try await fetcher.fetchAuthentic(url).json() : try await fetcher.fetch(url).json() } catch {
            logger.notice("FEP-8fcf: could not read \(url): \(error)")
            return nil
        }
    }

    /// The ids a collection lists, inline or over its pages (bounded), on the collection's origin.
    func members(_ url: String) async throws -> Set<String>? {
        guard let first = await document(url) else { return nil }
        var ids = Set<String>()
        var page: [String: Any]? = first
        var next: String? = nil
        if let firstPage = first["first"] {
            page = firstPage as? [String: Any]
            next = page == nil ? firstPage as? String : nil
        }
        for _ in 0..<Self.maximumPages {
            if page == nil, let link = next, Origin.same(link, url) { page = await document(link); next = nil }
            guard let current = page else { break }
            for item in (current["orderedItems"] ?? current["items"]).map(BlogMove.ids) ?? [] {
                ids.insert(item)
                if ids.count >= Self.maximumItems { return ids }
            }
            next = current["next"] as? String
            page = nil
            if next == nil { break }
        }
        return ids
    }
}

extension FollowersSynchronization {
    /// Runs on its own task once the inbox answered: the comparison, and a reconciliation when
    /// the digests differ (never holding up the sender).
    public func received(header: String, signer: String) {
        Task {
            do {
                guard let claimed = try await check(header: header, signer: signer) else { return }
                _ = try await reconcile(claimed, signer: signer)
            } catch {
                logger.warning("FEP-8fcf: could not reconcile \(signer)'s followers: \(error)")
            }
        }
    }
}
