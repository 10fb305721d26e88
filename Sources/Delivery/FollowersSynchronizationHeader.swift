import Foundation
import HTTPSignatures
import Store

extension DeliveryWorker {
    /// FEP-8fcf for one delivery: when the activity is addressed to the blog's followers, the
    /// digest of the followers on the inbox's server and where to list them; nil otherwise (or
    /// when none of the followers is on that server: it then has nothing to compare).
    func followersSynchronization(for job: DeliveryJob) throws -> CollectionSynchronization? {
        guard let collection = settings.followersCollection, Self.isAddressed(job.json, to: collection),
              let inbox = URLComponents(string: job.inbox), let scheme = inbox.scheme, let host = inbox.host else { return nil }
        let authority = inbox.port.map { "\(host):\($0)" } ?? host
        let ids = try store.followerIDs(onOrigin: "\(scheme)://\(authority)")
        guard !ids.isEmpty else { return nil }
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~:[]")
        let domain = authority.addingPercentEncoding(withAllowedCharacters: allowed) ?? authority
        return CollectionSynchronization(collectionId: collection, url: collection + "?domain=" + domain,
                                         digest: CollectionSynchronization.digest(of: ids))
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
