import ActivityPub
import ActivityStreams
import BlogModel
import Foundation
import Storage

/// Replies and mentions: `Create` and `Update` of notes (and of articles, events, videos… that
/// reply to a post), threads whose parents arrive late or must be fetched.
extension InboxProcessor {
    func create(_ activity: APObject, actorID: String, now: Date) async throws -> Effects {
        guard let note = try await embeddedOrFetched(activity, actorID: actorID) else { return .ignored("unknown-object") }
        guard note.attributedTo.isEmpty || note.attributedTo.contains(actorID) else { return .ignored("not-author") }
        if let effects = try bridgeMessage(note, authorID: actorID, now: now) { return effects }
        return try await reply(note, authorID: actorID, activity: activity, now: now)
    }

    /// What a note by `authorID` becomes: a comment on a post, a reply kept for its parent, a
    /// mention for the owner's digest, an automatic answer (not public), or nothing (and why).
    func reply(_ note: APObject, authorID: String, activity: APObject?, now: Date) async throws -> Effects {
        var note = note
        guard let noteID = note.id, Origin.same(noteID, authorID) else { return .ignored("not-author") }
        // However it came (delivered, announced, relayed, fetched up a thread): a block holds.
        if try store.blocks.isBlocked(actorID: authorID) { return .ignored("blocked") }
        guard let kind = note.kind, kind.canBeComment else { return .ignored(InboxOutcome.unsupportedType(note.types.first)) }
        guard let author = try store.actors.remoteActor(id: authorID) else { return .ignored("unknown-object") }
        if let deletedAt = try store.comments.tombstone(id: noteID) {
            // Back only as its origin serves it now; the copy that came is not trusted.
            guard let current = try await revived(noteID, of: authorID, after: deletedAt) else { return .ignored("deleted") }
            try store.comments.liftTombstone(id: noteID)
            note = current
        }
        if let target = note.inReplyTo?.id, target.hasPrefix(urls.actor + "/notes/") {
            return try await answerToOurNote(note, noteID: noteID, authorID: authorID, target: target, now: now)
        }
        switch try await replyTarget(note.inReplyTo, depth: 0) {
        case .none:
            // Not a reply to anything here: kept for the owner's digest if it mentions the blog.
            guard mentionsBlog(note) else { return .ignored("not-for-us") }
            let html = CommentConversion.content(of: note, language: config.language).html
            try store.digests.insertMention(id: noteID, authorID: authorID, url: CommentConversion.webURL(note) ?? noteID,
                                    contentHTML: html, now: now)
            return .applied("mention")
        case .waiting(let parentID):
            // Kept only when addressed to the blog or in one of its threads: a reply to anything
            // anywhere is not the blog's to store.
            let context = note.context.map(FederationURLs.postID(fromContext:))
            let inOurThread = try context.map { try postPath(for: $0) != nil } ?? false
            guard mentionsBlog(note) || inOurThread else { return .ignored("not-for-us") }
            guard try store.pendingReplies.pendingReplyCount(authorID: authorID) < Self.maximumPendingPerAuthor else { return .ignored("too-many-waiting") }
            let json = String(decoding: try JSONSerialization.data(withJSONObject: try encodedForLater(note)), as: UTF8.self)
            try store.pendingReplies.keepPendingReply(PendingReply(noteID: noteID, parentID: parentID, authorID: authorID, json: json,
                                                    context: note.context, receivedAt: now))
            return .ignored(Self.waitingForParent)
        case .post(let path, let parentID):
            return try await comment(note, id: noteID, author: author, path: path, parentID: parentID, activity: activity, now: now)
        }
    }

    /// Stores `note` as a comment on `path` (if public or unlisted and not empty), then attaches
    /// the replies that were waiting for it.
    /// `followsThread`: the comment's `replies` collection is read in turn (an ActivityPub
    /// comment; a webmention's source is a web page, not a thread).
    package func comment(_ note: APObject, id: String, author: RemoteActor, path: String, parentID: String?, activity: APObject?,
                 now: Date, followsThread: Bool = true) async throws -> Effects {
        if try store.blocks.isBlocked(actorID: author.id) { return .ignored("blocked") }
        // Thread parents and settled replies come here without `reply`: deleted stays deleted.
        if try store.comments.tombstone(id: id) != nil { return .ignored("deleted") }
        guard let visibility = CommentConversion.visibility(note: note, activity: activity) else {
            // Followers-only or direct: nothing is stored; the author learns why, once a day per
            // post, and only at an inbox on their own server (never a third party's).
            guard Origin.same(author.inbox, author.id) else { return .ignored("auto-reply-elsewhere") }
            guard try store.automaticReplies.claimAutomaticReply(to: author.id, about: path, now: now) else { return .ignored("auto-reply-limited") }
            let answer = try activities.onlyPublicRepliesNote(to: author, inReplyTo: id, now: now)
            try outbox.send(answer.activity, to: [author.inbox], keeping: answer.kept, now: now)
            return .applied("auto-reply")
        }
        let content = CommentConversion.content(of: note, language: config.language)
        // Keyword filters read what a reader would: the text, the warning and the title.
        let visible = [HTMLText.plain(content.html), content.summary ?? "", content.title ?? ""].joined(separator: "\n")
        if config.comments.drop.match(in: visible) != nil { return .ignored("filtered") }
        var state = try moderationState(authorID: author.id)
        if try config.comments.hold.match(in: visible) != nil || store.blocks.isSilenced(actorID: author.id) { state = .pending }
        let record = CommentConversion.record(note, id: id, authorID: author.id, postPath: path, parentID: parentID,
                                              visibility: visibility, state: state, language: config.language, now: now)
        guard !content.isEmpty else { return .ignored("empty") }
        // A copy of a comment already kept still attaches what waits for it: when attaching
        // failed halfway, the activity's retry (or a second copy) is what finishes it.
        let inserted = try await store.comments.insertComment(record)
        var effects = inserted ? Effects.applied("comment", posts: record.state == .approved ? [path] : []) : .ignored("duplicate")
        if inserted && followsThread {
            try await followThread(of: id, path: path, parentID: parentID, delivered: activity != nil && record.state == .approved, now: now)
        }
        effects.changedPosts.formUnion(try await attachWaitingReplies(to: id, now: now))
        return effects
    }

    /// A new comment's own replies are read from its server's `replies` collection
    /// (`RepliesBackfill`), down to the page's thread depth, once it is approved; an approved
    /// delivered reply also asks its parent's collection to be read once more (others may have
    /// replied beside it), at most hourly.
    private func followThread(of id: String, path: String, parentID: String?, delivered: Bool, now: Date) async throws {
        var depth = 0, ancestor = parentID
        while let current = ancestor, depth < Self.maximumThreadDepth {
            depth += 1
            ancestor = try store.comments.comment(id: current)?.parentID
        }
        if depth < Self.maximumThreadDepth, let host = RepliesBackfill.host(of: id) {
            try await store.threadBackfill.schedule(commentID: id, postPath: path, depth: depth, host: host, now: now)
        }
        if delivered, let parentID { try await store.threadBackfill.rearm(commentID: parentID, now: now) }
    }

    /// How deep the page nests a thread (`DiscussionView`): replies further down are shown at
    /// this depth, and their own collections are not read.
    static let maximumThreadDepth = 5

    static let waitingForParent = "waiting-for-parent"

    /// A deleted object back again: as its origin serves it now, edited after the deletion, by
    /// the same author. A replayed or relayed copy of the original is not enough, whatever it says.
    private func revived(_ id: String, of authorID: String, after deletedAt: Date) async throws -> APObject? {
        let current: APObject?
        do { current = try await fetchObject(id, of: authorID) } catch {
            return nil  // gone (404/410) or unreachable: what cannot be confirmed stays deleted
        }
        guard let current, current.id == id, current.kind?.canBeComment == true,
              current.attributedTo.isEmpty || current.attributedTo.contains(authorID),
              let edited = CommentConversion.date(current.updated) ?? CommentConversion.date(current.published),
              edited > deletedAt else { return nil }
        return current
    }

    /// The replies that waited for `parentID`, each attached and only then taken off the
    /// waiting list: an error stops the loop with the rest still waiting.
    private func attachWaitingReplies(to parentID: String, now: Date) async throws -> Set<String> {
        var posts = Set<String>()
        for waiting in try store.pendingReplies.pendingReplies(parentID: parentID) {
            if let child = try? JSONDecoder().decode(APObject.self, from: Data(waiting.json.utf8)) {
                let attached = try await reply(child, authorID: waiting.authorID, activity: nil, now: now)
                posts.formUnion(attached.changedPosts)
                // The parent went again (a Delete in between): kept again, INSERT OR IGNORE left
                // the row as it was, and it must stay.
                if attached.outcome.reason == Self.waitingForParent { continue }
            }
            try await store.pendingReplies.dropPendingReply(noteID: waiting.noteID)
        }
        return posts
    }

    func update(_ activity: APObject, actorID: String, now: Date) async throws -> Effects {
        guard let object = activity.object, let objectID = object.id else { return .ignored("unknown-object") }
        if objectID == actorID { return try await profileUpdate(actorID: actorID, now: now) }
        var fetched: APObject?
        if object.embedded == nil { fetched = try await fetchObject(objectID, of: actorID) }
        guard let note = object.embedded ?? fetched else { return .ignored("unknown-object") }
        guard let existing = try store.comments.comment(id: objectID) else {
            // An edit of a reply we never kept (its parent arrived since?): take it as a reply.
            return try await reply(note, authorID: actorID, activity: activity, now: now)
        }
        guard existing.authorID == actorID, note.attributedTo.isEmpty || note.attributedTo.contains(actorID) else {
            return .ignored("not-author")
        }
        // An edit older than the one shown (a replay, or an Update relayed late) changes nothing.
        if let shown = existing.updatedAt, let incoming = CommentConversion.date(note.updated), incoming <= shown {
            return .ignored("stale")
        }
        var edited = CommentConversion.record(note, id: objectID, authorID: actorID, postPath: existing.postPath,
                                              parentID: existing.parentID, visibility: existing.visibility, state: existing.state,
                                              language: config.language, now: now)
        edited.updatedAt = CommentConversion.date(note.updated) ?? now
        guard let path = try store.comments.editComment(edited) else { return .ignored("not-author") }
        return .applied("edit", posts: [path])
    }

    /// A profile change. The embedded copy is not trusted: the actor's document is fetched from
    /// its own origin, and keys it lists never move from another actor (see
    /// `Actors.saveRemoteActor`), so an Update cannot take over someone else's key.
    func profileUpdate(actorID: String, now: Date) async throws -> Effects {
        guard let fetcher else { return .ignored("unknown-object") }
        let document = try await fetcher.fetchAuthentic(actorID).object
        guard let actor = ActorConversion.actor(from: document), actor.id == actorID else { return .ignored("unknown-object") }
        try await store.actors.saveRemoteActor(actor, keys: ActorConversion.keys(from: document, owner: actorID),
                                        assertionKeys: ActorConversion.assertionKeys(from: document, owner: actorID), now: now)
        let posts = Set(try store.comments.comments(state: .approved, authorID: actorID, limit: Int.max).map(\.comment.postPath))
        return .applied("profile-update", posts: posts)
    }

    /// The object of a Create: embedded (Mastodon; the inbox checked its id is on the actor's
    /// origin), or fetched from its own id when given by reference (it must be on the actor's
    /// origin and say so itself).
    func embeddedOrFetched(_ activity: APObject, actorID: String) async throws -> APObject? {
        if let object = activity.object?.embedded { return object }
        guard let id = activity.object?.id else { return nil }
        return try await fetchObject(id, of: actorID)
    }

    /// An object fetched from its own id, which must be on `actorID`'s origin.
    func fetchObject(_ id: String, of actorID: String) async throws -> APObject? {
        guard Origin.same(id, actorID), let fetcher else { return nil }
        return try await fetcher.fetchAuthentic(id).object
    }

    // MARK: threads

    /// Where a reply belongs.
    enum Target: Equatable {
        case none
        /// Its parent is not known and cannot be had now.
        case waiting(parentID: String)
        case post(path: String, parentID: String?)
    }

    /// A post (by its Article id or URL) or a known comment (threads of any depth); a parent we
    /// never saw is fetched from its own server, up to `maximumAncestors` levels, and kept as a
    /// comment when it is public, so the thread holds together.
    func replyTarget(_ inReplyTo: Reference<APObject>?, depth: Int) async throws -> Target {
        guard let parentID = inReplyTo?.id else { return .none }
        if let path = try postPath(for: parentID) { return .post(path: path, parentID: nil) }
        if let parent = try store.comments.comment(id: parentID) { return .post(path: parent.postPath, parentID: parent.id) }
        guard depth < Self.maximumAncestors, let fetcher, Origin(parentID) != nil,
              !parentID.hasPrefix(config.baseURL + "/") else { return .none }
        // A blocked server's post is neither fetched nor kept as a thread's parent.
        if try store.blocks.isBlocked(actorID: parentID) { return .none }
        let parent: APObject
        do {
            parent = try await fetcher.fetchAuthentic(parentID).object
        } catch {
            return .waiting(parentID: parentID)  // followers-only, deleted, or its server is down
        }
        switch try await replyTarget(parent.inReplyTo, depth: depth + 1) {
        case .none: return .none
        case .waiting(let ancestor): return .waiting(parentID: ancestor)
        case .post(let path, let grandparentID):
            guard let authorID = parent.attributedTo.first, Origin.same(parentID, authorID),
                  let author = try await knownActor(authorID), CommentConversion.visibility(note: parent, activity: nil) != nil
            else { return .waiting(parentID: parentID) }
            _ = try await comment(parent, id: parentID, author: author, path: path, parentID: grandparentID, activity: nil, now: Date())
            return try store.comments.comment(id: parentID) != nil ? .post(path: path, parentID: parentID) : .waiting(parentID: parentID)
        }
    }

    /// A reply's JSON as kept while it waits: the object alone.
    func encodedForLater(_ note: APObject) throws -> [String: Any] {
        var object: [String: Any] = ["id": note.id ?? "", "type": note.types.first ?? "Note", "attributedTo": note.attributedTo,
                                     "to": note.to, "cc": note.cc, "sensitive": note.sensitive]
        if let parent = note.inReplyTo?.id { object["inReplyTo"] = parent }
        if let content = note.content { object["content"] = content }
        if !note.contentMap.isEmpty { object["contentMap"] = note.contentMap }
        for (key, value) in [("summary", note.summary), ("name", note.name), ("published", note.published),
                             ("updated", note.updated), ("quoteUrl", note.quote), ("context", note.context)] {
            if let value { object[key] = value }
        }
        object["url"] = note.url.map { ["type": "Link", "href": $0.href, "mediaType": $0.mediaType ?? "text/html"] }
        if !note.pollOptions.isEmpty {
            object[note.multipleChoice ? "anyOf" : "oneOf"] = note.pollOptions.map {
                ["type": "Note", "name": $0.name, "replies": ["type": "Collection", "totalItems": $0.votes]] as [String: Any]
            }
        }
        object["attachment"] = note.attachment.map { attachment -> [String: Any] in
            var entry: [String: Any] = ["type": attachment.type ?? "Document", "url": attachment.url.first?.href ?? ""]
            if let mediaType = attachment.mediaType { entry["mediaType"] = mediaType }
            if let name = attachment.name { entry["name"] = name }
            return entry
        }
        return object
    }

    /// Replies that waited a day for a parent that never came: shown at the top of their post's
    /// thread when their `context` names one of our posts, else given up. Returns what changed
    /// and one outcome per reply, for the counts.
    ///
    /// Each leaves the list only once settled. One that fails (`settle-failed`) stays for the
    /// next pass without holding up the others, and is given up once it has failed for a week.
    public func settlePendingReplies(now: Date = Date()) async throws -> (posts: Set<String>, outcomes: [InboxOutcome]) {
        var posts = Set<String>()
        var outcomes: [InboxOutcome] = []
        for waiting in try store.pendingReplies.pendingReplies(receivedBefore: now.addingTimeInterval(-86_400)) {
            do {
                let effects = try await settle(waiting, now: now)
                posts.formUnion(effects.changedPosts)
                outcomes.append(effects.outcome)
            } catch let stopped as CancellationError {
                throw stopped
            } catch {
                outcomes.append(InboxOutcome(.ignored, "settle-failed"))
                guard waiting.receivedAt < now.addingTimeInterval(-8 * 86_400) else { continue }
            }
            try await store.pendingReplies.dropPendingReply(noteID: waiting.noteID)
        }
        return (posts, outcomes)
    }

    private func settle(_ waiting: PendingReply, now: Date) async throws -> Effects {
        guard let note = try? JSONDecoder().decode(APObject.self, from: Data(waiting.json.utf8)),
              let context = waiting.context, let path = try postPath(for: FederationURLs.postID(fromContext: context)),
              let author = try store.actors.remoteActor(id: waiting.authorID) else {
            return Effects(outcome: InboxOutcome(.ignored, "parent-unavailable"))
        }
        return try await comment(note, id: waiting.noteID, author: author, path: path, parentID: nil, activity: nil, now: now)
    }

    func moderationState(authorID: String) throws -> CommentRecord.State {
        switch config.comments.moderation {
        case .open: return .approved
        case .closed: return .pending
        case .firstTime: return try store.comments.hasApprovedComment(authorID: authorID) ? .approved : .pending
        }
    }

    func mentionsBlog(_ note: APObject) -> Bool {
        note.tag.contains { $0.type == "Mention" && isBlogActor($0.href) } || note.audience.contains(where: isBlogActor)
    }
}
