import ActivityPub
import Foundation
import Storage
import Synchronization

/// FEP-8fcf's sending side: the `Collection-Synchronization` header of each delivery of an
/// activity addressed to the blog's followers. Delivery asks for it per job
/// (`DeliveryWorker.Settings.extraHeaders`); it knows nothing of followers.
public final class FollowersSynchronizationHeaders: Sendable {
    let followers: Followers
    /// The blog's followers collection.
    let collection: String
    let memo = SynchronizationMemo()

    public init(followers: Followers, collection: String) { (self.followers, self.collection) = (followers, collection) }

    /// The headers for `job`: the followers' digest on the inbox's server, or none.
    public func headers(for job: DeliveryJob) throws -> [(String, String)] {
        guard let value = try synchronization(for: job)?.headerValue else { return [] }
        return [(CollectionSynchronization.headerName, value)]
    }

    /// When the activity is addressed to the blog's followers, the digest of the followers on
    /// the inbox's server and where to list them; nil otherwise (or when none of the followers
    /// is on that server: it then has nothing to compare).
    func synchronization(for job: DeliveryJob) throws -> CollectionSynchronization? {
        guard memo.addressed(job.activityID, { Self.isAddressed(job.json, to: collection) }),
              let inbox = URLComponents(string: job.inbox), let scheme = inbox.scheme, let host = inbox.host else { return nil }
        let authority = inbox.port.map { "\(host):\($0)" } ?? host
        return try memo.digest(origin: "\(scheme)://\(authority)") {
            let ids = try followers.followerIDs(onOrigin: "\(scheme)://\(authority)")
            guard !ids.isEmpty else { return nil }
            var allowed = CharacterSet.alphanumerics
            allowed.insert(charactersIn: "-._~:[]")
            let domain = authority.addingPercentEncoding(withAllowedCharacters: allowed) ?? authority
            return CollectionSynchronization(collectionId: collection, url: collection + "?domain=" + domain,
                                             digest: CollectionSynchronization.digest(of: ids))
        }
    }

    /// Whether the activity's own `to` or `cc` names `collection` (a cheap test first: most
    /// activities to followers are the few kinds the publisher sends).
    static func isAddressed(_ json: String, to collection: String) -> Bool {
        guard json.contains(collection),
              let activity = try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any] else { return false }
        return ["to", "cc"].contains { key in
            switch activity[key] {
            case let one as String: return one == collection
            case let many as [Any]: return many.contains { ($0 as? String) == collection }
            default: return false
            }
        }
    }
}

/// Each activity's addressing and each origin's digest, remembered a while: a fan-out sends one
/// activity to thousands of inboxes, many of them on one origin (followers without a shared
/// inbox). Made again for each delivery, they were 12.6 % of the CPU of a publish to 100,000
/// followers behind 8,000 inboxes (bench/fanout). A follower who comes or goes within
/// `lifetime` makes the receiver read the partial collection again: FEP-8fcf's answer to any
/// mismatch. Computed outside the lock, so that signing threads do not wait on each other's
/// reads; at most `capacity` of each are kept (then all are forgotten).
package final class SynchronizationMemo: Sendable {
    static let capacity = 50_000
    /// An id's activity does not change: its addressing is kept until the memory is full.
    private let addressing = Memo<Bool>(lifetime: nil)
    private let digests: Memo<CollectionSynchronization?>

    init(lifetime: Duration = .seconds(60)) { digests = Memo(lifetime: lifetime) }

    /// Whether activity `id` is addressed to the followers.
    func addressed(_ id: String, _ read: () -> Bool) -> Bool { addressing.value(id, read) }

    /// The header for `origin`'s followers, made at most `lifetime` ago.
    func digest(origin: String, _ make: () throws -> CollectionSynchronization?) rethrows -> CollectionSynchronization? {
        try digests.value(origin, make)
    }

    /// Values by key, each kept for `lifetime` (nil: until the memory is full, then all go).
    private final class Memo<Value: Sendable>: Sendable {
        let lifetime: Duration?
        private let entries = Mutex<[String: (value: Value, madeAt: ContinuousClock.Instant)]>([:])

        init(lifetime: Duration?) { self.lifetime = lifetime }

        func value(_ key: String, _ make: () throws -> Value) rethrows -> Value {
            let now = ContinuousClock.now
            if let known = entries.withLock({ $0[key] }), lifetime.map({ now - known.madeAt < $0 }) ?? true { return known.value }
            let value = try make()
            entries.withLock {
                if $0.count >= SynchronizationMemo.capacity { $0.removeAll() }
                $0[key] = (value, now)
            }
            return value
        }
    }
}
