import ActivityStreams
import BlogModel
import Foundation
import HTMLMarkup
import OutboundHTTP
import Interactions
import Parallel
import Storage

/// Verifies a queued webmention (W3C Webmention §3.2.2) and applies it through the same paths as
/// a fediverse reply or like: the source is fetched with the SSRF-guarded client (1 MiB, 5 s in
/// all, at most 3 redirects, each hop judged again and none to another host), must link to the
/// target, its h-entry's `u-url` (if it has one) must be the source, and the entry becomes a
/// comment (`InboxProcessor.comment`: sanitizer, keyword filters, blocks, silences, moderation,
/// digest) or a reaction. A source that answers 404 or 410, or no longer links, removes what its
/// earlier webmention became; a re-sent one replaces it; a comment the owner deleted stays deleted.
public struct WebmentionVerifier: Sendable {
    let processor: InboxProcessor
    let client: FetchClient
    static let maximumRedirects = 3
    /// The whole fetch of a source, redirects included (whole seconds: libcurl's timeout is set in them).
    static let fetchTimeout = 5

    public init(processor: InboxProcessor) {
        self.processor = processor
        var client = BlogActor.client(processor.config)
        client.totalTimeout = .seconds(Self.fetchTimeout)
        client.maximumBodySize = 1 << 20
        self.client = client
    }

    /// What fetching a source came to.
    enum Fetched {
        case page(IncomingResponse, url: String)
        case tooManyRedirects
        /// A redirect to another host (or from https to http): refused, so a domain block and
        /// the author's identity (kept on the source's host) hold for what is read.
        case otherHost
    }

    /// What became of one: its outcome, and the post whose page changes (if any). Throws only
    /// when it should be tried again (the source could not be reached, the store failed).
    public func verify(_ mention: QueuedWebmention, now: Date = Date()) async throws -> InboxProcessor.Effects {
        let store = processor.store
        if try store.blocks.isBlocked(actorID: mention.source) { return try await removed(mention, "blocked") }
        let response: IncomingResponse
        do {
            switch try await fetch(mention.source) {
            case .page(let page, _): response = page
            case .tooManyRedirects: return .ignored("too-many-redirects")
            case .otherHost: return try await removed(mention, "redirect-to-another-host")
            }
        } catch let error as HTTPClientError {
            switch error {
            case .timedOut, .busy, .unavailable, .transport: throw error  // may work later
            default: return .ignored("source-refused")  // private address, too large, not https
            }
        }
        switch response.status {
        case 200..<300: break
        case 404, 410: return try await removed(mention, "source-gone")
        case 500..., 408, 429: throw HTTPClientError.transport("source answered \(response.status)")
        default: return .ignored("source-status-\(response.status / 100)xx")
        }
        let type = response.header("content-type")?.lowercased() ?? "text/html"
        guard type.hasPrefix("text/html") || type.hasPrefix("application/xhtml") else { return try await removed(mention, "not-html") }
        // Up to 1 MiB of HTML is parsed on a thread of its own, not on the pool that serves requests.
        let body = response.body, source = mention.source, target = mention.target
        let read = await withCheckedContinuation { continuation in
            NamedThread.start("lectern-mf2") {
                continuation.resume(returning: WebmentionSource.read(html: String(decoding: body, as: UTF8.self), source: source, target: target))
            }
        }
        guard let read else {
            return try await removed(mention, "no-link")
        }
        // The entry says where it lives: another URL of it (`S?x=1`, `/./S`, the `http:` URL that
        // redirects to it) is not another comment.
        guard read.entryURLs.isEmpty || read.entryURLs.contains(WebmentionLinks.normalized(mention.source)) else {
            return try await removed(mention, "not-the-entry-url")
        }
        return try await apply(read, mention, now: now)
    }

    /// The source, following at most `maximumRedirects` redirects on its host (each a new
    /// request, so each hop's address is judged again), all within `fetchTimeout`.
    func fetch(_ url: String) async throws -> Fetched {
        var current = url
        let deadline = ContinuousClock.now + .seconds(Self.fetchTimeout)
        for _ in 0...Self.maximumRedirects {
            var client = self.client
            let left = Int((deadline - ContinuousClock.now).components.seconds)
            guard left >= 1 else { throw HTTPClientError.timedOut }
            client.totalTimeout = .seconds(left)
            let response = try await client.perform(OutgoingRequest(url: current, headers: [("Accept", "text/html, application/xhtml+xml")]))
            guard [301, 302, 303, 307, 308].contains(response.status), let location = response.header("location") else {
                return .page(response, url: current)
            }
            guard let next = URL(string: location, relativeTo: URL(string: current))?.absoluteString, let parsed = HTTPURL.parse(next) else {
                return .page(response, url: current)
            }
            guard Self.sameHost(current, parsed) else { return .otherHost }
            current = parsed
        }
        return .tooManyRedirects
    }

    /// Whether a redirect from `from` to `to` stays on its host: the same host and port, or
    /// http to https on the default ports.
    static func sameHost(_ from: String, _ to: String) -> Bool {
        guard let a = URLComponents(string: from), let b = URLComponents(string: to), let host = a.host?.lowercased(),
              host == b.host?.lowercased(), let schemeA = a.scheme?.lowercased(), let schemeB = b.scheme?.lowercased() else { return false }
        if schemeA == schemeB { return WebmentionLinks.authority(from) == WebmentionLinks.authority(to) }
        return schemeA == "http" && schemeB == "https" && a.port == nil && b.port == nil
    }

    /// Undoes what an earlier webmention from this source became, if anything.
    func removed(_ mention: QueuedWebmention, _ why: String) async throws -> InboxProcessor.Effects {
        guard let path = try await processor.store.webmentions.removeWebmention(source: mention.source, target: mention.target) else {
            return .ignored(why)
        }
        return .applied("webmention-removed", posts: [path])
    }

    func apply(_ read: WebmentionSource, _ mention: QueuedWebmention, now: Date) async throws -> InboxProcessor.Effects {
        let store = processor.store
        let author = Self.authorRecord(read.author, source: mention.source)
        if try store.blocks.isBlocked(actorID: author.id) { return try await removed(mention, "blocked") }
        let existing = try store.webmentions.webmention(source: mention.source, target: mention.target)
        // Kept as a comment and the comment is gone: the owner deleted it (`lectern comments
        // delete`); the webmention's row stays as the record that it is not wanted back.
        if let existing, existing.kind == .comment, try store.comments.comment(id: mention.source) == nil {
            return .ignored("deleted-by-owner")
        }
        // Its kind or author changed: what it was goes first.
        var changed = Set<String>()
        if let existing, existing.authorID != author.id || existing.kind != Self.keptKind(read.kind) {
            if let path = try await store.webmentions.removeWebmention(source: mention.source, target: mention.target) { changed.insert(path) }
        }
        try await store.webmentions.saveWebmentionAuthor(author, now: now)
        let path = mention.postPath
        var effects: InboxProcessor.Effects
        switch read.kind {
        case .like, .repost:
            let reactionID = Webmentions.webmentionReactionID(mention.source, path)
            let added = try store.reactions.addReaction(activityID: reactionID, kind: read.kind == .like ? .like : .announce, postPath: path,
                                              actorID: author.id, now: now)
            effects = added ? .applied("webmention-reaction", posts: [path]) : .ignored("duplicate")
        case .reply, .mention:
            let note = try Self.note(read, source: mention.source, target: mention.target, authorID: author.id)
            if let comment = try store.comments.comment(id: mention.source), comment.authorID == author.id, comment.postPath == path {
                var edited = CommentConversion.record(note, id: mention.source, authorID: author.id, postPath: path, parentID: comment.parentID,
                                                      visibility: comment.visibility, state: comment.state,
                                                      language: processor.config.language, now: now)
                edited.updatedAt = now
                effects = try store.comments.editComment(edited) != nil ? .applied("webmention-edit", posts: [path]) : .ignored("not-author")
            } else {
                // A source once removed may link again: it is verified afresh, so it comes back.
                try store.comments.liftTombstone(id: mention.source)
                effects = try await processor.comment(note, id: mention.source, author: author, path: path, parentID: nil, activity: nil, now: now,
                                                      followsThread: false)
            }
        }
        if effects.outcome.kind == .applied || effects.outcome.reason == "duplicate" {
            try await store.webmentions.keepWebmention(KeptWebmention(source: mention.source, target: mention.target, postPath: path,
                                                          kind: Self.keptKind(read.kind), authorID: author.id), now: now)
        }
        effects.changedPosts.formUnion(changed)
        return effects
    }

    static func keptKind(_ kind: WebmentionSource.Kind) -> KeptWebmention.Kind {
        switch kind {
        case .like: .like
        case .repost: .repost
        case .reply, .mention: .comment
        }
    }

    /// The comment author a source speaks for. Its id is on the source's host whatever the page
    /// claims (an h-card naming someone else's profile stays on the source's host), so a domain
    /// block holds and no fediverse actor's row is taken over: the author's URL when it is on the
    /// source's host, else the source, with a fragment no actor id uses.
    static func authorRecord(_ author: WebmentionSource.Author, source: String) -> RemoteActor {
        let sourceHost = URLComponents(string: source)?.host?.lowercased()
        var base = source
        if let url = author.url, URLComponents(string: url)?.host?.lowercased() == sourceHost { base = url }
        if let cut = base.firstIndex(of: "#") { base = String(base[..<cut]) }
        // Shown where a fediverse author's @handle is: the source's host.
        let parts = URLComponents(string: source)
        let host = (parts?.host ?? "") + (parts?.port.map { ":\($0)" } ?? "")
        return RemoteActor(id: base + "#webmention-author", handle: host, name: DisplayText.name(author.name, limit: 100), url: author.url,
                           icon: author.photo, inbox: "")
    }

    /// The source's entry as the note a fediverse reply would be: public, replying to the target.
    static func note(_ read: WebmentionSource, source: String, target: String, authorID: String) throws -> APObject {
        var object: [String: Any] = ["id": source, "type": "Note", "attributedTo": authorID, "content": read.contentHTML,
                                     "inReplyTo": target, "to": ["https://www.w3.org/ns/activitystreams#Public"],
                                     "url": ["type": "Link", "href": source, "mediaType": "text/html"]]
        if let published = read.published { object["published"] = published }
        if let updated = read.updated { object["updated"] = updated }
        return try APObject(json: Array(try JSONSerialization.data(withJSONObject: object)))
    }
}
