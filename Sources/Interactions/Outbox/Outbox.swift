import ActivityPub
import ActivityStreams
import Foundation
import Storage

/// Where the blog's outgoing activities go: into the store's delivery queue (one row per
/// inbox), after which the delivery worker is woken. Nothing is sent from here.
public struct Outbox: Sendable {
    public let queue: DeliveryQueue
    /// Puts the object integrity proof (FEP-8b32) on each activity; nil sends none (tests that
    /// look at the queue alone).
    public let proofs: ActivityProofs?
    /// Wakes the delivery worker (a no-op when none runs in this process).
    public let wake: @Sendable () -> Void

    public init(queue: DeliveryQueue, proofs: ActivityProofs?, wake: @escaping @Sendable () -> Void = {}) {
        self.queue = queue
        self.proofs = proofs
        self.wake = wake
    }

    /// Queues `activity` for each inbox. With `keeping`, the object it carries is kept (same
    /// transaction) so that its id can be fetched: a direct note, a quote authorization.
    public func send<Object>(_ activity: Activity<Object>, to inboxes: [String], keeping object: SentObject? = nil,
                             now: Date = Date()) throws {
        let json = try Self.json(activity, proofs: proofs, now: now)
        try queue.enqueueActivity(id: activity.id, type: activity.type.rawValue, objectID: activity.objectID, json: json,
                                  inboxes: inboxes, keeping: object, now: now)
        wake()
    }

    /// The JSON queued for `activity`: with its proof when there is a signer.
    static func json(_ activity: some Encodable, proofs: ActivityProofs?, now: Date) throws -> String {
        guard let proofs else { return String(decoding: try ASEncoder.encode(activity), as: UTF8.self) }
        return try proofs.signedJSON(activity, now: now)
    }
}
