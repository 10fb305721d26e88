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

    public func send(_ activity: JSONValue, to inboxes: [String], now: Date = Date()) throws {
        guard case .object(let fields) = activity, case .string(let id)? = fields["id"],
              case .string(let type)? = fields["type"] else { preconditionFailure("an activity has an id and a type") }
        let objectID: String? = switch fields["object"] {
        case .string(let id)?: id
        case .object(let object)?: { if case .string(let id)? = object["id"] { return id } else { return nil } }()
        default: nil
        }
        let json = String(decoding: try ASEncoder.encode(activity), as: UTF8.self)
        try store.enqueueActivity(id: id, type: type, objectID: objectID, json: json, inboxes: inboxes, now: now)
        wake()
    }
}
