import ActivityPub
import ActivityStreams
import BlogModel
import Foundation
import Storage

/// The activities the blog sends, typed. Activity ids hang off the object they are about with a
/// fragment (unique, on our host, never a post's URL); the notes the blog writes get real URLs
/// under `/notes/`, kept in the store so that they can be fetched.
struct Activities {
    let urls: FederationURLs
    let config: SiteConfig

    /// `Accept` of a follow, embedding the Follow as Mastodon expects.
    /// Each answer has an id of its own (the moment it was made): a Follow sent again with the id
    /// of an earlier one (Takahē's after an unfollow) gets a fresh Accept, as Mastodon gives it,
    /// not one the queue would take for the earlier Accept and drop.
    func accept(followID: String, follower: String, now: Date) -> Activity<ActivityReference> {
        Activity(id: urls.actor + "#accepts/follows/" + Self.token(followID) + "/" + String(Int64(now.timeIntervalSince1970 * 1000)),
                 type: .accept, actor: urls.actor,
                 object: ActivityReference(id: followID, type: "Follow", actor: follower, object: urls.actor))
    }

    /// A note addressed to one person, and the copy kept so its id answers them (and only them).
    struct DirectNote {
        let activity: Activity<NoteDocument>
        let kept: SentObject
    }

    /// A direct message: a `Create` of a `Note` addressed only to `recipient`, mentioning them.
    func directNote(to recipient: RemoteActor, html: String, inReplyTo: String?, now: Date) throws -> DirectNote {
        let published = ASDate.format(now)
        var note = NoteDocument(id: urls.note(UUID().uuidString.lowercased()), attributedTo: urls.actor, published: published,
                                to: [recipient.id], cc: [], content: Self.mention(recipient) + " " + html)
        note.tag = [NoteDocument.Tag(type: "Mention", href: recipient.id, name: Self.mentionName(recipient))]
        note.inReplyTo = inReplyTo
        let activity = Activity(id: note.id + "/activity", type: .create, actor: urls.actor, published: published,
                                to: note.to, cc: note.cc, object: note)
        note.context = AS.objectContext
        let kept = SentObject(id: note.id, type: note.type, json: String(decoding: try ASEncoder.encode(note), as: UTF8.self),
                              recipients: note.to, createdAt: now)
        return DirectNote(activity: activity, kept: kept)
    }

    /// The automatic answer to a followers-only or direct reply.
    func onlyPublicRepliesNote(to author: RemoteActor, inReplyTo: String, now: Date) throws -> DirectNote {
        let html = "<p>Thanks for your reply! Only public and unlisted replies appear as comments on \(HTMLText.escape(config.title)), "
            + "so this one was not kept. Reply publicly (or unlisted) to have it shown under the post.</p>"
        return try directNote(to: author, html: html, inReplyTo: inReplyTo, now: now)
    }

    /// `Create` of a post, with `@context`.
    func create(_ post: FederatedPost) -> Activity<FederatedPost> {
        var create = PostConversion(config: config, urls: urls).create(post)
        create.context = AS.objectContext
        return create
    }

    /// `Update` of a post: the document as it is now. The id carries the time, so every edit is new.
    func update(_ post: FederatedPost, now: Date) -> Activity<FederatedPost> {
        Activity(id: post.id + "#updates/" + String(Int(now.timeIntervalSince1970)), type: .update, actor: urls.actor,
                 published: ASDate.format(now), to: [AS.publicAddress], cc: [urls.followers], object: post.embedded)
    }

    /// `Delete` of a removed post: its URL answers 410 with a Tombstone.
    func delete(objectID: String, now: Date) -> Activity<TombstoneReference> {
        Activity(id: objectID + "#delete/" + String(Int(now.timeIntervalSince1970)), type: .delete, actor: urls.actor,
                 to: [AS.publicAddress], cc: [urls.followers], object: TombstoneReference(id: objectID))
    }

    /// `Update` of the blog's actor (a new key, say): the whole document, as Mastodon sends it.
    func updateActor(_ actor: ActorDocument, now: Date) -> Activity<ActorDocument> {
        Activity(id: urls.actor + "#updates/" + String(Int(now.timeIntervalSince1970)), type: .update, actor: urls.actor,
                 published: ASDate.format(now), to: [AS.publicAddress], cc: [urls.followers], object: actor)
    }

    /// `Move` of the blog to `target`, as Mastodon's account migration sends it: the object is the
    /// blog itself, and followers' servers follow `target` once its `alsoKnownAs` names us.
    func move(to target: String, now: Date) -> Activity<String> {
        Activity(id: urls.actor + "#moves/" + String(Int(now.timeIntervalSince1970)), type: .move, actor: urls.actor,
                 published: ASDate.format(now), to: [urls.followers], object: urls.actor, target: target)
    }

    /// The answer to a quote request (FEP-044f): `Accept` with the authorization's id as `result`
    /// (and the authorization kept, so the id answers), or `Reject`.
    func answerQuote(requestID: String, requester: String, quoted: String, quoting: String, allowed: Bool,
                     now: Date) throws -> (activity: Activity<ActivityReference>, kept: SentObject?) {
        let request = ActivityReference(id: requestID, type: "QuoteRequest", actor: requester, object: quoted, instrument: quoting)
        guard allowed else {
            return (Activity(id: urls.actor + "#rejects/quotes/" + Self.token(requestID), type: .reject, actor: urls.actor,
                             to: [requester], object: request), nil)
        }
        let authorization = QuoteAuthorization(id: urls.quoteAuthorization(Self.token(requestID)), attributedTo: urls.actor,
                                               interactingObject: quoting, interactionTarget: quoted)
        let kept = SentObject(id: authorization.id, type: authorization.type,
                              json: String(decoding: try ASEncoder.encode(authorization), as: UTF8.self), recipients: nil, createdAt: now)
        return (Activity(id: urls.actor + "#accepts/quotes/" + Self.token(requestID), type: .accept, actor: urls.actor,
                         to: [requester], object: request, result: authorization.id), kept)
    }

    /// `<span class="h-card"><a href="…" class="u-url mention">@<span>name</span></a></span>`, Mastodon's markup.
    static func mention(_ actor: RemoteActor) -> String {
        let name = (actor.handle ?? actor.id).split(separator: "@").first.map(String.init) ?? "someone"
        return "<span class=\"h-card\"><a href=\"\(HTMLText.escape(actor.url ?? actor.id))\" class=\"u-url mention\">@<span>"
            + HTMLText.escape(name) + "</span></a></span>"
    }

    /// `@user@host` as a Mention tag names it.
    static func mentionName(_ actor: RemoteActor) -> String {
        guard let handle = actor.handle else { return actor.id }
        return handle.hasPrefix("@") ? handle : "@" + handle
    }

    /// A short stable token for an id (to build our activity ids from theirs).
    static func token(_ id: String) -> String { ContentHash(id).hex }
}
