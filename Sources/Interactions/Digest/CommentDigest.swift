import ActivityPub
import ActivityStreams
import BlogModel
import Foundation
import Storage

/// The owner's digest: one direct message listing comments and mentions not reported yet, at
/// most once per `digest.interval`, and only when there is something new. Marking items as
/// reported and queueing the message are one transaction (see `Store.recordDigest`).
public struct CommentDigest: Sendable {
    public let site: BlogActor
    public let outbox: Outbox
    public let owner: BlogOwnerResolver?

    public init(site: BlogActor, outbox: Outbox, owner: BlogOwnerResolver?) {
        self.site = site
        self.outbox = outbox
        self.owner = owner
    }

    public enum Outcome: Sendable, Equatable {
        case sent(items: Int, to: String)
        case nothingNew
        case tooSoon(next: Date)
        case noOwner
        /// A blog others cannot reach sends nothing (`LocalSite`), its digest included.
        case quiet(String)
    }

    /// Sends the digest if it is due (or at once with `force`).
    public func sendIfDue(force: Bool = false, now: Date = Date()) async throws -> Outcome {
        if let reason = LocalSite.quietReason(site.config) { return .quiet(reason) }
        guard let ownerHandle = site.config.owner, let owner else { return .noOwner }
        let store = site.store
        if !force, let last = try store.digests.lastDigestSentAt(), now < last.addingTimeInterval(site.config.digest.interval) {
            // Nothing new is also "not due": report that first, it is the more useful answer.
            return try store.digests.undigestedItems().isEmpty ? .nothingNew : .tooSoon(next: last.addingTimeInterval(site.config.digest.interval))
        }
        let items = try store.digests.undigestedItems()
        guard !items.isEmpty else { return .nothingNew }
        let recipient = try await owner.resolve(ownerHandle)
        let digest = try Activities(urls: site.urls, config: site.config)
            .directNote(to: recipient, html: html(items, subscribers: try subscriberCount(), lastPost: try lastPostLine()), inReplyTo: nil, now: now)
        try store.digests.recordDigest(items: items, activity: (digest.activity.id, try Outbox.json(digest.activity, proofs: site.proofs, now: now),
                                                        recipient.inbox), note: digest.kept, numbers: Self.numbers(items), now: now)
        outbox.wake()
        return .sent(items: items.count, to: recipient.handle ?? recipient.id)
    }

    /// What the next digest would say, as text (`lectern digest --preview`).
    public func preview() throws -> String {
        let items = try site.store.digests.undigestedItems()
        guard !items.isEmpty else { return "Nothing new since the last digest.\n" }
        return HTMLText.plain(html(items, subscribers: try subscriberCount(), lastPost: try lastPostLine())
            .replacingOccurrences(of: "</p>", with: "</p>\n")) + "\n"
    }

    /// One line on the newest post's reach (`lectern stats` has the rest).
    func lastPostLine() throws -> String? {
        guard let post = try site.store.posts.publishedPosts().max(by: { $0.publishedAt < $1.publishedAt }) else { return nil }
        let numbers = try site.store.outreach.post(path: post.path, apID: post.apID)
        let replies = numbers.fediverseReplies + numbers.blueskyReplies + numbers.webmentionReplies
        return "Last post, “\(post.title)”: reached \(numbers.servers.filter { $0.delivered > 0 }.count) servers; "
            + "\(numbers.likes + numbers.webLikes) likes, \(numbers.boosts + numbers.webReposts) boosts, \(replies) replies."
    }

    /// The newsletter's confirmed subscribers, while it is on.
    func subscriberCount() throws -> Int? {
        site.config.newsletter.enabled ? try site.store.subscribers.counts().confirmed : nil
    }

    /// Comments are numbered in a digest, 1, 2, 3…, so the owner can answer `hide 2`.
    static func numbers(_ items: [DigestItem]) -> [Int: String] {
        Dictionary(uniqueKeysWithValues: items.filter { $0.kind == .comment }.enumerated().map { ($0.offset + 1, $0.element.id) })
    }

    /// Paragraphs (Mastodon keeps `p`, `a` and `br` of remote HTML).
    func html(_ items: [DigestItem], subscribers: Int? = nil, lastPost: String? = nil) -> String {
        let comments = items.filter { $0.kind == .comment }.count
        let mentions = items.count - comments
        var counts: [String] = []
        if comments > 0 { counts.append(comments == 1 ? "1 new comment" : "\(comments) new comments") }
        if mentions > 0 { counts.append(mentions == 1 ? "1 mention" : "\(mentions) mentions") }
        var html = "<p>\(counts.joined(separator: " and ")) on \(HTMLText.escape(site.config.title)):</p>"
        var number = 0
        for item in items {
            if item.kind == .comment { number += 1 }
            let who = HTMLText.escape(item.author.name.flatMap { $0.isEmpty ? nil : $0 } ?? item.author.handle ?? item.author.id)
                + (item.author.handle.map { " (\(HTMLText.escape($0)))" } ?? "")
            let words = HTMLText.escape(HTMLText.truncate(HTMLText.plain(item.contentHTML), limit: 140))
            let link = item.postPath.map { site.config.absoluteURL($0) + "#comments" } ?? item.url ?? item.id
            var line = item.kind == .comment
                ? "\(number). \(who) on “\(HTMLText.escape(item.postTitle ?? ""))”: “\(words)”"
                : "\(who) mentioned the blog: “\(words)”"
            if item.state == "pending" { line += " (awaiting approval)" }
            html += "<p>\(line)<br><a href=\"\(HTMLText.escape(link))\">\(HTMLText.escape(link))</a></p>"
        }
        if let lastPost { html += "<p>\(HTMLText.escape(lastPost))</p>" }
        if let subscribers { html += "<p>Newsletter: \(subscribers == 1 ? "1 subscriber" : "\(subscribers) subscribers") by email.</p>" }
        if comments > 0 {
            html += "<p>Answer this message to moderate: “hide 1”, “approve 1”, “block 1” (its author) or “block domain 1”; "
                + "several commands, one per line.</p>"
        }
        return html
    }
}
