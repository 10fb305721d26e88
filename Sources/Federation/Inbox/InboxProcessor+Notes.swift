import ActivityStreams
import Foundation
import Site
import Store

/// Replies and mentions: `Create` and `Update` of notes.
extension InboxProcessor {
    static let noteTypes: Set<String> = ["Note", "Article", "Page", "Question"]

    func create(_ activity: ASObject, actorID: String, now: Date) async throws -> Effects {
        var effects = Effects()
        guard let note = try await embeddedOrFetched(activity, actorID: actorID), let noteID = note.id,
              Self.noteTypes.contains(note.type ?? ""), (note.id("attributedTo") ?? actorID) == actorID,
              let author = try store.remoteActor(id: actorID) else { return effects }
        let target = try replyTarget(note.id("inReplyTo"))
        let visibility = Self.visibility(note: note, activity: activity)
        guard let target else {
            // Not a reply to anything here: keep it for the owner's digest if it mentions the blog.
            if mentionsBlog(note) {
                try store.insertMention(id: noteID, authorID: actorID, url: note.id("url") ?? noteID,
                                        contentHTML: HTMLSanitizer.sanitize(note.string("content") ?? ""), now: now)
            }
            return effects
        }
        guard let visibility else {
            // Followers-only or direct: nothing is stored; the author learns why.
            try outbox.send(activities.onlyPublicRepliesNote(to: author, inReplyTo: noteID, now: now), to: [author.inbox], now: now)
            return effects
        }
        let state = try moderationState(authorID: actorID)
        let comment = CommentRecord(
            id: noteID, postPath: target.postPath, parentID: target.parentID, authorID: actorID,
            url: Self.webURL(note) ?? noteID, contentHTML: HTMLSanitizer.sanitize(note.string("content") ?? ""),
            summary: note.string("summary").map(HTMLSanitizer.text).flatMap { $0.isEmpty ? nil : $0 },
            sensitive: note.bool("sensitive"), language: Self.language(note), visibility: visibility, state: state,
            publishedAt: note.string("published").flatMap(Self.parseDate) ?? now, receivedAt: now)
        if try store.insertComment(comment), state == .approved { effects.changedPosts.insert(target.postPath) }
        return effects
    }

    func update(_ activity: ASObject, actorID: String, now: Date) async throws -> Effects {
        var effects = Effects()
        guard let object = activity.object("object"), let objectID = object.id else { return effects }
        if objectID == actorID {
            // A profile change. The embedded copy is not trusted: the actor's document is fetched
            // from its own origin, and keys it lists never move from another actor (see
            // `Store.saveRemoteActor`), so an Update cannot take over someone else's key.
            guard let fetcher else { return effects }
            let document = try await fetcher.fetchAuthentic(actorID).object
            if let actor = ActorConversion.actor(from: document), actor.id == actorID {
                try await store.saveRemoteActor(actor, keys: ActorConversion.keys(from: document, owner: actorID), now: now)
                effects.changedPosts = Set(try store.comments(state: .approved, authorID: actorID, limit: Int.max)
                    .map(\.comment.postPath))
            }
            return effects
        }
        guard Self.noteTypes.contains(object.type ?? "") else { return effects }
        let summary = object.string("summary").map(HTMLSanitizer.text).flatMap { $0.isEmpty ? nil : $0 }
        if let path = try store.editComment(id: objectID, authorID: actorID,
                                            contentHTML: HTMLSanitizer.sanitize(object.string("content") ?? ""),
                                            summary: summary, sensitive: object.bool("sensitive"),
                                            updatedAt: object.string("updated").flatMap(Self.parseDate) ?? now) {
            effects.changedPosts.insert(path)
        }
        return effects
    }

    /// The Note of a Create: embedded (Mastodon; the inbox checked its id is on the actor's
    /// origin), or fetched from its own id when given by reference (it must be on the actor's
    /// origin and say so itself).
    func embeddedOrFetched(_ activity: ASObject, actorID: String) async throws -> ASObject? {
        if let object = activity.object("object") { return object }
        guard let id = activity.id("object"), Origin.same(id, actorID), let fetcher else { return nil }
        return ASObject(try await fetcher.fetchAuthentic(id).object)
    }

    /// A post (by its Article id or URL) or a known comment (threads of any depth).
    func replyTarget(_ inReplyTo: String?) throws -> (postPath: String, parentID: String?)? {
        guard let inReplyTo else { return nil }
        if let path = try postPath(for: inReplyTo) { return (path, nil) }
        if let parent = try store.comment(id: inReplyTo) { return (parent.postPath, parent.id) }
        return nil
    }

    /// Public (to: Public), unlisted (cc: Public), or nil for followers-only and direct.
    /// The object's addressing decides; the activity's when the object has none.
    static func visibility(note: ASObject, activity: ASObject) -> CommentRecord.Visibility? {
        let addressed = !(note.ids("to") + note.ids("cc")).isEmpty
        let source = addressed ? note : activity
        if source.ids("to").contains(where: ASObject.isPublic) { return .public }
        if source.ids("cc").contains(where: ASObject.isPublic) { return .unlisted }
        return nil
    }

    func moderationState(authorID: String) throws -> CommentRecord.State {
        switch config.comments.moderation {
        case .open: return .approved
        case .closed: return .pending
        case .firstTime: return try store.hasApprovedComment(authorID: authorID) ? .approved : .pending
        }
    }

    func mentionsBlog(_ note: ASObject) -> Bool {
        note.objects("tag").contains { $0.type == "Mention" && isBlogActor($0.id("href")) }
            || (note.ids("to") + note.ids("cc")).contains(where: isBlogActor)
    }

    /// The note's page on its server (`url` may be a string, a Link, or an array of them).
    static func webURL(_ note: ASObject) -> String? { ActorConversion.webURL(note, "url") }

    static func language(_ note: ASObject) -> String? {
        (note.raw["contentMap"] as? [String: Any])?.keys.sorted().first
    }

    static func parseDate(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        if let date = formatter.date(from: text) { return date }
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.date(from: text)
    }
}
