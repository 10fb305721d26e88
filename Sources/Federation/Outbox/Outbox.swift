import ActivityStreams
import Foundation
import Store

/// Where the blog's outgoing activities go: into the store's delivery queue (one row per
/// inbox), after which the delivery worker is woken. Nothing is sent from here.
public struct Outbox: Sendable {
    public let store: Store
    /// Wakes the delivery worker (a no-op when none runs in this process).
    public let wake: @Sendable () -> Void

    public init(store: Store, wake: @escaping @Sendable () -> Void = {}) {
        self.store = store
        self.wake = wake
    }

    /// Queues `activity` for each inbox. With `keeping`, the object it carries is kept (same
    /// transaction) so that its id can be fetched: a direct note, a quote authorization.
    public func send<Object>(_ activity: Activity<Object>, to inboxes: [String], keeping object: SentObject? = nil,
                             now: Date = Date()) throws {
        let json = String(decoding: try ASEncoder.encode(activity), as: UTF8.self)
        try store.enqueueActivity(id: activity.id, type: activity.type.rawValue, objectID: activity.objectID, json: json,
                                  inboxes: inboxes, keeping: object, now: now)
        wake()
    }
}
