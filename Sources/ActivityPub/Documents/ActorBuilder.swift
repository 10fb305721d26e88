import ActivityStreams
import BlogModel
import Foundation
import LecternCrypto

/// The blog's actor document and the instance actor's.
package struct ActorBuilder {
    let config: SiteConfig
    let urls: FederationURLs

    package init(config: SiteConfig, urls: FederationURLs) { (self.config, self.urls) = (config, urls) }

    package func blogActor(publicKeyPEM: String, keyID: String, assertionKey: MultikeyDocument? = nil, published: Date,
                   movedTo: String? = nil) -> ActorDocument {
        let profile = config.profile
        let summary = config.description.isEmpty ? "" : "<p>\(HTMLText.escape(config.description))</p>"
        var actor = ActorDocument(
            id: urls.actor, type: config.federation.actorType, preferredUsername: config.username,
            name: config.title, summary: summary, url: urls.profilePage,
            icon: profile.avatar.map { ImageObject(url: urls.absolute($0), mediaType: MediaTypes.image($0)) },
            image: profile.header.map { ImageObject(url: urls.absolute($0), mediaType: MediaTypes.image($0)) },
            inbox: urls.inbox, outbox: urls.outbox, followers: urls.followers, following: urls.following,
            featured: urls.featured, sharedInbox: urls.sharedInbox,
            publicKey: PublicKeyDocument(id: keyID, owner: urls.actor, publicKeyPem: publicKeyPEM),
            manuallyApprovesFollowers: false, discoverable: true, indexable: true, published: ASDate.format(published),
            attributionDomains: [urls.host], alsoKnownAs: profile.alsoKnownAs.isEmpty ? nil : profile.alsoKnownAs,
            attachment: profile.links.isEmpty ? nil : profile.links.map { link in
                PropertyValue(name: link.name, value: Self.fieldValue(link.value))
            })
        actor.movedTo = movedTo
        actor.webfinger = urls.webfingerAddress
        actor.interactionPolicy = InteractionPolicy(canFeature: urls.approvalRule(config.federation.featurePolicy))
        actor.assertionMethod = assertionKey.map { [$0] }
        return actor
    }

    /// The `Application` that signs the blog's outgoing GETs (servers in authorized-fetch mode
    /// refuse unsigned fetches); it follows no one and publishes nothing.
    package func instanceActor(publicKeyPEM: String, published: Date) -> ActorDocument {
        var actor = ActorDocument(
            id: urls.instanceActor, type: "Application", preferredUsername: urls.host, name: config.title,
            summary: "", url: urls.profilePage, icon: nil, image: nil, inbox: urls.sharedInbox,
            outbox: urls.instanceActor + "/outbox", followers: urls.instanceActor + "/followers",
            following: urls.instanceActor + "/following", featured: urls.instanceActor + "/featured", sharedInbox: urls.sharedInbox,
            publicKey: PublicKeyDocument(id: urls.instanceKeyID, owner: urls.instanceActor, publicKeyPem: publicKeyPEM),
            manuallyApprovesFollowers: true, discoverable: false, indexable: false, published: ASDate.format(published),
            attributionDomains: nil, alsoKnownAs: nil, attachment: nil)
        actor.webfinger = "\(urls.host)@\(urls.host)"
        return actor
    }

    /// Profile fields are HTML; a URL becomes a `rel="me"` link (Mastodon's verified links).
    static func fieldValue(_ value: String) -> String {
        guard value.hasPrefix("https://") || value.hasPrefix("http://") else { return HTMLText.escape(value) }
        let shown = value.replacingOccurrences(of: "https://", with: "").replacingOccurrences(of: "http://", with: "")
        return "<a href=\"\(HTMLText.escape(value))\" rel=\"me nofollow noopener\" target=\"_blank\">\(HTMLText.escape(shown))</a>"
    }
}

package enum MediaTypes {
    package static func image(_ path: String) -> String? {
        switch (path as NSString).pathExtension.lowercased() {
        case "png": return "image/png"
        case "jpg", "jpeg": return "image/jpeg"
        case "gif": return "image/gif"
        case "webp": return "image/webp"
        case "avif": return "image/avif"
        case "svg": return "image/svg+xml"
        default: return nil
        }
    }
}
