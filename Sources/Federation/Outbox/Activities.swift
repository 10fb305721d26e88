import ActivityStreams
import Foundation
import Site
import Store

/// The activities the blog sends, as JSON. Ids hang off the actor's URL with a fragment, so
/// they are unique, on our host, and never collide with a post.
struct Activities {
    let urls: FederationURLs
    let config: SiteConfig

    static let context: JSONValue = .string(AS.namespace)

    /// `Accept` of a follow, embedding the Follow as Mastodon expects.
    func accept(followID: String, follower: String) -> JSONValue {
        [
            "@context": Self.context, "id": .string(urls.actor + "#accepts/follows/" + Self.token(followID)),
            "type": "Accept", "actor": .string(urls.actor),
            "object": ["id": .string(followID), "type": "Follow", "actor": .string(follower), "object": .string(urls.actor)],
        ]
    }

    /// A direct message (a `Create` of a `Note` addressed only to `recipient`, mentioning them).
    func directNote(to recipient: RemoteActor, html: String, inReplyTo: String?, now: Date) -> JSONValue {
        let noteID = urls.actor + "#notes/" + UUID().uuidString.lowercased()
        let published = JSONValue.string(ASDate.format(now))
        var note: [String: JSONValue] = [
            "id": .string(noteID), "type": "Note", "attributedTo": .string(urls.actor), "published": published,
            "to": [.string(recipient.id)], "cc": [], "content": .string(Self.mention(recipient) + " " + html),
            "tag": [["type": "Mention", "href": .string(recipient.id), "name": .string(recipient.handle ?? recipient.id)]],
        ]
        if let inReplyTo { note["inReplyTo"] = .string(inReplyTo) }
        return [
            "@context": Self.context, "id": .string(noteID + "/activity"), "type": "Create", "actor": .string(urls.actor),
            "published": published, "to": [.string(recipient.id)], "cc": [], "object": .object(note),
        ]
    }

    /// The automatic answer to a followers-only or direct reply.
    func onlyPublicRepliesNote(to author: RemoteActor, inReplyTo: String, now: Date) -> JSONValue {
        let html = "<p>Thanks for your reply! Only public and unlisted replies appear as comments on \(HTMLText.escape(config.title)), "
            + "so this one was not kept. Reply publicly (or unlisted) to have it shown under the post.</p>"
        return directNote(to: author, html: html, inReplyTo: inReplyTo, now: now)
    }

    /// `Update` of a post: the Article as it is now.
    func update(article: JSONValue, articleID: String, now: Date) -> JSONValue {
        [
            "@context": AS.objectContext, "id": .string(articleID + "#updates/" + String(Int(now.timeIntervalSince1970))),
            "type": "Update", "actor": .string(urls.actor), "published": .string(ASDate.format(now)),
            "to": [.string(AS.publicAddress)], "cc": [.string(urls.followers)], "object": article,
        ]
    }

    /// `Delete` of a removed post: its URL answers 410 with a Tombstone.
    func delete(articleID: String, now: Date) -> JSONValue {
        [
            "@context": Self.context, "id": .string(articleID + "#delete/" + String(Int(now.timeIntervalSince1970))),
            "type": "Delete", "actor": .string(urls.actor), "to": [.string(AS.publicAddress)], "cc": [.string(urls.followers)],
            "object": ["id": .string(articleID), "type": "Tombstone"],
        ]
    }

    /// `<span class="h-card"><a href="…" class="u-url mention">@<span>name</span></a></span>`, Mastodon's markup.
    static func mention(_ actor: RemoteActor) -> String {
        let name = (actor.handle ?? actor.id).split(separator: "@").first.map(String.init) ?? "someone"
        return "<span class=\"h-card\"><a href=\"\(HTMLText.escape(actor.url ?? actor.id))\" class=\"u-url mention\">@<span>"
            + HTMLText.escape(name) + "</span></a></span>"
    }

    /// A short stable token for an id (to build our activity ids from theirs).
    static func token(_ id: String) -> String { ContentHash(id).hex }
}
