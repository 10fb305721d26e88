import ActivityStreams
import BlogModel
import DataIntegrity
import Foundation
import HTMLMarkup
import Storage

/// Remote actor documents → what the store keeps of them, in one place (GoToSocial's
/// `typeutils`). Everything shown later passes through here first: URLs are parsed and kept only
/// as http(s), names lose bidi controls and run at most 100 characters, usernames become plain
/// handles, keys are kept only when they belong to the actor and sit on its origin.
package enum ActorConversion {
    /// nil when the document is not a usable actor (no id or inbox, or not http(s)).
    package static func actor(from document: [String: Any]) -> RemoteActor? {
        let object = ASObject(document)
        guard let id = object.id, Origin(id) != nil, let inbox = object.string("inbox").flatMap(HTTPURL.parse) else {
            return nil
        }
        let endpoints = document["endpoints"] as? [String: Any]
        let origin = Origin(id)!
        // The handle's domain keeps a non-default port, as Mastodon's does.
        let defaultPort = origin.scheme == "https" ? 443 : 80
        let domain = HostName.display(origin.host) + (origin.port == defaultPort ? "" : ":\(origin.port)")
        let handle = object.string("preferredUsername").map { "@\(DisplayText.username($0))@\(domain)" }
        let name = object.string("name").map { DisplayText.name($0) }.flatMap { $0.isEmpty ? nil : $0 }
        // A shared inbox elsewhere is not the actor's server's to name: deliveries use the inbox.
        let sharedInbox = (endpoints?["sharedInbox"] as? String).flatMap(HTTPURL.parse).flatMap { Origin.same($0, id) ? $0 : nil }
        return RemoteActor(id: id, handle: handle, name: name, url: webURL(object, "url"), icon: imageURL(object, "icon"),
                           inbox: inbox, sharedInbox: sharedInbox)
    }

    static let maximumKeys = 8

    /// The keys an actor document lists (`publicKey`: one object or an array) that name this
    /// actor as their owner (or no owner) and sit on its origin.
    package static func keys(from document: [String: Any], owner: String) -> [(keyID: String, pem: String)] {
        let raw: [[String: Any]]
        if let one = document["publicKey"] as? [String: Any] { raw = [one] }
        else { raw = document["publicKey"] as? [[String: Any]] ?? [] }
        // A handful is what any server lists (a main key, a rotated one); a document listing
        // thousands would be thousands of rows per fetch.
        return raw.prefix(maximumKeys).compactMap { key in
            guard let id = key["id"] as? String, let pem = key["publicKeyPem"] as? String,
                  (key["owner"] as? String ?? owner) == owner, Origin.same(id, owner) else { return nil }
            return (id, pem)
        }
    }

    /// The Ed25519 keys an actor document lists in `assertionMethod` (FEP-521a `Multikey`s) that
    /// name this actor as their `controller` and sit on its origin: the keys its object integrity
    /// proofs (FEP-8b32) may be made with. A key that states an expiry is left out (FEP-521a: no
    /// signature by an expired key is accepted; one not yet expired is simply not used).
    package static func assertionKeys(from document: [String: Any], owner: String) -> [AssertionKey] {
        let raw: [Any] = document["assertionMethod"] as? [Any] ?? (document["assertionMethod"] as? [String: Any]).map { [$0] } ?? []
        return raw.prefix(maximumKeys).compactMap { entry in
            guard let key = entry as? [String: Any],
                  ((key["type"] as? String).map { [$0] } ?? (key["type"] as? [Any])?.compactMap { $0 as? String } ?? []).contains("Multikey"),
                  let id = key["id"] as? String, key["controller"] as? String == owner, Origin.same(id, owner),
                  key["expires"] == nil, let multibase = key["publicKeyMultibase"] as? String,
                  Multikey.ed25519PublicKey(multibase) != nil else { return nil }
            return AssertionKey(keyID: id, actorID: owner, multibase: multibase)
        }
    }

    /// The first http(s) URL a property gives (a string, a Link, or an array of them), preferring
    /// an HTML link when the server says which is which.
    static func webURL(_ object: ASObject, _ key: String) -> String? {
        let links = object.objects(key)
        if let html = links.first(where: { ($0.string("mediaType") ?? "").hasPrefix("text/html") }),
           let url = (html.string("href") ?? html.id).flatMap(HTTPURL.parse) {
            return url
        }
        return object.ids(key).lazy.compactMap(HTTPURL.parse).first
    }

    /// An image's URL: `icon` may be a string, an Image with `url` (itself a string or a Link),
    /// or an array of those.
    static func imageURL(_ object: ASObject, _ key: String) -> String? {
        if let string = object.string(key) { return HTTPURL.parse(string) }
        for image in object.objects(key) {
            if let url = webURL(image, "url") { return url }
        }
        return nil
    }
}
