import ActivityPub
import Foundation
import Interactions
import ServiceLifecycle
import Storage
import Synchronization

/// A served blog's background work, wired in one place: the site lane that rebuilds and
/// reloads (`RebuildService`), the inbox worker and the signal that wakes it, deliveries, digests,
/// maintenance, and the gate incoming activities pass. The HTTP server only routes to these.
///
/// ```swift
/// let services = try BlogServices(blog: blog, watch: false, onSiteChanged: { try site.reload() })
/// // the HTTP server's inbox routes take `services.gate` and call `services.inboxQueued()`
/// ```
public final class BlogServices: Sendable {
    public let blog: Blog
    public let rebuildService: RebuildService
    /// Wakes the inbox worker when the inbox route queued an activity.
    public let inboxSignal = QueueSignal()
    /// Wakes the webmention verifier when the endpoint queued one.
    public let webmentionSignal = QueueSignal()
    /// Wakes the check of held inbox requests when the gate holds one.
    public let heldSignal = QueueSignal()

    /// Builds (with every comment), reads the posts and publishes what changed while no server
    /// ran (`RebuildService.start`), before anything listens.
    /// `previousSite`: a whole site from an earlier build is there to serve if the first build
    /// fails (`RebuildService.start`).
    public init(blog: Blog, watch: Bool, previousSite: Bool = false, onFailure: @escaping @Sendable (String) -> Void = { _ in },
                onPreviewChanged: (@Sendable (_ tellPages: Bool) throws -> Void)? = nil,
                onSiteChanged: @escaping @Sendable () throws -> Void) throws {
        self.blog = blog
        rebuildService = RebuildService(blog: blog, watch: watch, onFailure: onFailure, onPreviewChanged: onPreviewChanged,
                                        onSiteChanged: onSiteChanged)
        try rebuildService.start(previousSite: previousSite)
    }

    /// The gate of the inbox routes, as the settings and keys are now: made once per reading of
    /// them (`Blog.reloadSettings` makes a new `BlogActor`; SIGHUP, a changed `lectern.yml`), not
    /// per request. The actor is held with it, so a new one is never taken for the old.
    public var gate: InboxGate {
        let actor = blog.activityPub
        return currentGate.withLock { current in
            if let current, current.actor === actor { return current.gate }
            let gate = makeGate(actor)
            current = (actor, gate)
            return gate
        }
    }
    private let currentGate = Mutex<(actor: BlogActor, gate: InboxGate)?>(nil)

    private func makeGate(_ actor: BlogActor) -> InboxGate {
        let store = blog.store
        var gate = InboxGate(inbox: store.inbox, actors: store.actors, blocks: store.blocks, following: store.following,
                             deliveries: store.deliveries, keys: actor.remoteKeys, audience: actor.audience,
                             actedOn: InboxProcessor.actedOn, counter: blog.inboxCounter)
        let synchronization = blog.followersSynchronization()
        gate.onCollectionSynchronization = { synchronization.received(header: $0, signer: $1) }
        gate.held = HeldInbox(queue: store.heldInbound, signal: heldSignal)
        return gate
    }

    /// Called by the inbox route for each activity it queued.
    public func inboxQueued() { inboxSignal.signal() }

    /// Called by the webmention endpoint for each webmention it queued.
    public func webmentionQueued() { webmentionSignal.signal() }

    public var services: [any Service] {
        let threads: [any Service] = blog.options.readsThreads ? [ThreadBackfillService(blog: blog, site: rebuildService)] : []
        return threads + [rebuildService, InboxService(blog: blog, signal: inboxSignal, site: rebuildService), DeliveryService(blog: blog),
         WebmentionService(blog: blog, signal: webmentionSignal, site: rebuildService),
         HeldInboxService(blog: blog, signal: heldSignal, gate: { [self] in self.gate }, queued: { [inboxSignal] in inboxSignal.signal() }),
         DigestService(blog: blog), NewsletterService(blog: blog), MaintenanceService(blog: blog) { [rebuildService] posts in
            rebuildService.changedPosts.add(posts)
            rebuildService.wake.signal()
         }]
    }
}
