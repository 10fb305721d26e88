import Foundation
import OutboundHTTP
import HTTPSignatures

/// Signed activities from the fake fediverse's actors to the blog's shared inbox: replies,
/// likes, boosts, follows and unfollows, as Mastodon shapes them.
struct InboxTraffic: Sendable {
    let blogURL: String
    let blogActor: String
    let runID: String

    enum Kind: String, Sendable, CaseIterable {
        case reply, like, boost, follow, unfollow
    }

    static let publicAddress = "https://www.w3.org/ns/activitystreams#Public"

    /// The id a reply's `Note` gets: what its comment is stored under.
    func noteID(_ actor: FakeActor, _ n: Int) -> String { "\(actor.id)/statuses/\(runID)-\(n)" }

    func followID(_ actor: FakeActor, _ n: Int) -> String { "\(actor.id)/follows/\(runID)-\(n)" }

    /// The activity of `kind` by `actor` about `post`; `n` makes its ids unique; `follow` is the
    /// id of the Follow an unfollow undoes.
    func activity(_ kind: Kind, by actor: FakeActor, post: String, n: Int, follow: String? = nil) -> [String: Any] {
        let context = "https://www.w3.org/ns/activitystreams"
        switch kind {
        case .reply:
            let note = noteID(actor, n)
            return ["@context": context, "id": note + "/activity", "type": "Create", "actor": actor.id,
                    "to": [Self.publicAddress], "cc": [actor.id + "/followers"],
                    "object": ["id": note, "type": "Note", "attributedTo": actor.id, "inReplyTo": post,
                               "content": "<p>Reply \(n) from the soak: a <strong>thought</strong> on <a href=\"\(post)\">this</a>.</p>",
                               "published": ISO8601DateFormatter().string(from: Date()), "url": note,
                               "to": [Self.publicAddress], "cc": [actor.id + "/followers"]]]
        case .like:
            return ["@context": context, "id": "\(actor.id)#likes/\(runID)-\(n)", "type": "Like", "actor": actor.id, "object": post]
        case .boost:
            return ["@context": context, "id": "\(actor.id)/statuses/\(runID)-\(n)/activity", "type": "Announce", "actor": actor.id,
                    "published": ISO8601DateFormatter().string(from: Date()), "to": [Self.publicAddress], "cc": [blogActor],
                    "object": post]
        case .follow:
            return ["@context": context, "id": followID(actor, n), "type": "Follow", "actor": actor.id, "object": blogActor]
        case .unfollow:
            return ["@context": context, "id": "\(actor.id)#follows/\(runID)-\(n)/undo", "type": "Undo", "actor": actor.id,
                    "object": ["id": follow ?? followID(actor, n), "type": "Follow", "actor": actor.id, "object": blogActor]]
        }
    }

    /// What takes `activity` (of `kind`, by `actor`) back: the reply's Delete, as Mastodon sends
    /// it (a Tombstone), or the Undo of a like or a boost; nil for follows.
    func removal(of activity: [String: Any], _ kind: Kind, by actor: FakeActor, n: Int) -> [String: Any]? {
        let context = "https://www.w3.org/ns/activitystreams"
        switch kind {
        case .reply:
            let note = noteID(actor, n)
            return ["@context": context, "id": note + "#delete", "type": "Delete", "actor": actor.id, "to": [Self.publicAddress],
                    "object": ["id": note, "type": "Tombstone"]]
        case .like, .boost:
            guard let id = activity["id"] as? String else { return nil }
            var undone = activity
            undone["@context"] = nil
            return ["@context": context, "id": id + "/undo", "type": "Undo", "actor": actor.id, "object": undone]
        case .follow, .unfollow:
            return nil
        }
    }

    /// `activity` as a POST to the shared inbox, signed by `actor` (RFC 9421 or draft-cavage).
    func request(_ activity: [String: Any], by actor: FakeActor, rfc9421: Bool) throws -> OutgoingRequest {
        let body = Array(try JSONSerialization.data(withJSONObject: activity))
        let parts = HTTPRequestParts(method: "POST", url: blogURL + "/inbox",
                                     headers: [("Content-Type", "application/activity+json")], body: body)
        return try Net.signed(parts, by: actor, rfc9421: rfc9421)
    }

    /// A signed GET of a post as an ActivityPub object (what a server does to show it).
    func signedFetch(_ url: String, by actor: FakeActor, rfc9421: Bool) throws -> OutgoingRequest {
        let parts = HTTPRequestParts(method: "GET", url: url, headers: [("Accept", "application/activity+json")])
        return try Net.signed(parts, by: actor, rfc9421: rfc9421)
    }
}
