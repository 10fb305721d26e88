import ActivityPub
import ActivityStreams
import BlogModel
import Foundation

extension BlogActor {
    /// FEP-8fcf's partial followers collection, `/actor/followers?domain=HOST`: the followers
    /// whose ids are on that server, for a request signed by an actor of that server (nobody
    /// else learns who follows the blog from there). nil when `asker` is not on `domain`.
    public func partialFollowers(domain: String, asker: String) throws -> Data? {
        guard let origin = Origin(asker), !domain.contains("/"), !domain.contains("@"),
              Origin("\(origin.scheme)://\(domain)") == origin else { return nil }
        let onOrigin = "\(origin.scheme)://\(domain.lowercased())"
        let ids = try store.followers.followerIDs(onOrigin: onOrigin)
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~:[]")
        let id = urls.followers + "?domain=" + (domain.addingPercentEncoding(withAllowedCharacters: allowed) ?? domain)
        return try CollectionBuilder.inline(id: id, items: ids.map(JSONValue.string))
    }
}
