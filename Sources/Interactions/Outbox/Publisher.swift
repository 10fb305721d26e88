import ActivityStreams
import Foundation
import Storage

/// Tells followers about posts: compares what they were last told (kept in the store) with the
/// posts as they are, and queues `Create`, `Update` or `Delete` for each difference, one
/// delivery per distinct inbox. Deciding and queueing are one transaction per post, so a post
/// is announced once, even across restarts.
///
/// Not pushed: posts already there the first time the blog publishes, posts dated more than a
/// day before that (back-dated imports), and anything published with `announce: false`.
public struct Publisher: Sendable {
    public let site: BlogActor
    public let outbox: Outbox
    static let firstPublishKey = "first_publish_at"
    static let backdateGrace: TimeInterval = 86_400

    public init(site: BlogActor, outbox: Outbox) {
        self.site = site
        self.outbox = outbox
    }

    public struct Report: Sendable, Equatable {
        public var created: [String] = []
        public var updated: [String] = []
        public var deleted: [String] = []
        /// Recorded as announced without sending (first publish, back-dated, `--no-announce`).
        public var skipped: [String] = []
        /// Deliveries queued in all.
        public var deliveries = 0
        /// Newsletter mails queued (one per confirmed subscriber and new post).
        public var mails = 0
        /// Why nothing was sent anywhere (no activity, no webmention): a blog others cannot reach
        /// (`LocalSite`). Its posts are recorded as for any blog.
        public var quiet: String?
        public var isEmpty: Bool { created.isEmpty && updated.isEmpty && deleted.isEmpty && skipped.isEmpty }
    }

    /// Queues what followers need to hear. Call after `BlogActor.reload`. With `heldFor`,
    /// the deliveries wait until a running server serves that site generation (see
    /// `Store.releaseHeldDeliveries`), so followers never fetch a page that is not there yet.
    @discardableResult
    /// New posts at the `quiet` paths are recorded as announced without being sent (imports).
    public func publish(announce: Bool = true, heldFor generation: Int? = nil, quiet: Set<String> = [],
                        now: Date = Date()) throws -> Report {
        let store = site.store
        let firstPublish: Date
        if let stored = try store.values.setting(Self.firstPublishKey).flatMap(Double.init) {
            firstPublish = Date(timeIntervalSince1970: stored)
        } else {
            firstPublish = now
            try store.values.setSetting(Self.firstPublishKey, String(now.timeIntervalSince1970))
        }
        var report = Report()
        report.quiet = LocalSite.quietReason(site.config)
        let inboxes = report.quiet == nil ? try store.followers.followerInboxes() : []
        let activities = Activities(urls: site.urls, config: site.config)
        for state in try store.posts.publicationStates() {
            let post = state.post
            let needed = state.needed
            guard needed != .nothing else { continue }
            let silent = (needed == .create && (!announce || quiet.contains(post.path))) || (needed == .create && state.announcedAt == nil
                                       && post.publishedAt < firstPublish.addingTimeInterval(-Self.backdateGrace))
                || (needed == .create && state.announcedAt == nil && firstPublish == now && !isRestoredDelete(state))
            var encoded: (id: String, type: String, json: String, inboxes: [String])?
            if !silent {
                let document = try site.federatedDocument(path: post.path)
                // A post the catalog does not have (a draft's leftover row) is not sent.
                if document == nil, needed != .delete { continue }
                switch (needed, document) {
                case (.create, let document?):
                    var create = activities.create(document)
                    // Back after its Delete was sent: a new id, or every inbox that had the first
                    // Create (and the queue's own row for it) would take this one for that one.
                    if isRestoredDelete(state) { create.id += "/" + String(Int(now.timeIntervalSince1970)) }
                    encoded = try encode(create, inboxes, now)
                case (.update, let document?): encoded = try encode(activities.update(document, now: now), inboxes, now)
                case (.delete, _): encoded = try encode(activities.delete(objectID: post.apID, now: now), inboxes, now)
                default: break
                }
            }
            try store.posts.recordPublication(path: post.path, needed, contentHash: post.contentHash,
                                        activity: inboxes.isEmpty ? nil : encoded, objectID: post.apID,
                                        heldFor: generation, now: now)
            if silent { report.skipped.append(post.path); continue }
            if report.quiet == nil { try queueWebmentions(path: post.path, needed, heldFor: generation, now: now) }
            // A new post goes to the newsletter's subscribers too (never an edit: once per address).
            if report.quiet == nil, needed == .create, site.config.newsletter.enabled {
                report.mails += try store.mails.queuePost(path: post.path, now: now)
            }
            report.deliveries += encoded == nil ? 0 : inboxes.count
            switch needed {
            case .create: report.created.append(post.path)
            case .update: report.updated.append(post.path)
            case .delete: report.deleted.append(post.path)
            case .nothing: break
            }
        }
        if report.deliveries > 0, generation == nil { outbox.wake() }
        return report
    }

    /// The activity as queued: signed with the blog's proof key (FEP-8b32).
    func encode<Object>(_ activity: Activity<Object>, _ inboxes: [String], _ now: Date) throws
        -> (id: String, type: String, json: String, inboxes: [String]) {
        (activity.id, activity.type.rawValue, try Outbox.json(activity, proofs: site.proofs, now: now), inboxes)
    }

    /// A post that was deleted (and its deletion sent) and now is back: announce it again.
    private func isRestoredDelete(_ state: PublicationState) -> Bool { state.deleteSentAt != nil }
}
