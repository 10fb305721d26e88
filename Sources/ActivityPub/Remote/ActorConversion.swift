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
    package static func actor(from object: APObject) -> RemoteActor? {
        guard let id = object.id, Origin(id) != nil, let inbox = object.inbox.flatMap(HTTPURL.parse) else {
            return nil
        }
        let origin = Origin(id)!
        // The handle's domain keeps a non-default port, as Mastodon's does.
        let defaultPort = origin.scheme == "https" ? 443 : 80
        let domain = HostName.display(origin.host) + (origin.port == defaultPort ? "" : ":\(origin.port)")
        let handle = object.preferredUsername.map { "@\(DisplayText.username($0))@\(domain)" }
        let name = object.name.map { DisplayText.name($0) }.flatMap { $0.isEmpty ? nil : $0 }
        // A shared inbox elsewhere is not the actor's server's to name: deliveries use the inbox.
        let sharedInbox = object.sharedInbox.flatMap(HTTPURL.parse).flatMap { Origin.same($0, id) ? $0 : nil }
        return RemoteActor(id: id, handle: handle, name: name, url: webURL(object.url), icon: object.icon.lazy.compactMap { webURL($0.url) }.first,
                           inbox: inbox, sharedInbox: sharedInbox)
    }

    static let maximumKeys = 8

    /// The keys an actor document lists (`publicKey`: one object or an array) that name this
    /// actor as their owner (or no owner) and sit on its origin.
    package static func keys(from object: APObject, owner: String) -> [(keyID: String, pem: String)] {
        // A handful is what any server lists (a main key, a rotated one); a document listing
        // thousands would be thousands of rows per fetch.
        object.publicKey.prefix(maximumKeys).compactMap { key in
            guard let id = key.id, let pem = key.publicKeyPem, (key.owner ?? owner) == owner, Origin.same(id, owner) else { return nil }
            return (id, pem)
        }
    }

    /// The Ed25519 keys an actor document lists in `assertionMethod` (FEP-521a `Multikey`s) that
    /// name this actor as their `controller` and sit on its origin: the keys its object integrity
    /// proofs (FEP-8b32) may be made with. A key that states an expiry is left out (FEP-521a: no
    /// signature by an expired key is accepted; one not yet expired is simply not used).
    package static func assertionKeys(from object: APObject, owner: String) -> [AssertionKey] {
        object.assertionMethod.prefix(maximumKeys).compactMap { key in
            guard key.types.contains("Multikey"), let id = key.id, key.controller == owner, Origin.same(id, owner),
                  !key.expires, let multibase = key.publicKeyMultibase,
                  Multikey.ed25519PublicKey(multibase) != nil else { return nil }
            return AssertionKey(keyID: id, actorID: owner, multibase: multibase)
        }
    }

    /// The first http(s) URL of a property's links, preferring an HTML link when the server
    /// says which is which.
    static func webURL(_ links: [APLink]) -> String? {
        if let html = links.first(where: { ($0.mediaType ?? "").hasPrefix("text/html") }), let url = HTTPURL.parse(html.href) {
            return url
        }
        return links.lazy.compactMap { HTTPURL.parse($0.href) }.first
    }
}
