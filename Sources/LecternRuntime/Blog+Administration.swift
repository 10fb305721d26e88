import Foundation
import Storage

/// What the admin commands read and change, through the blog rather than its store: each
/// change is followed by what makes it visible (the pages re-rendered by a running server, or
/// here when none runs).
///
/// ```swift
/// let blog = try Blog.open(root: site)
/// for follower in try blog.followers() { print(follower.actorID) }
/// _ = try blog.moderateComment(id: noteURL, .approved)   // the page shows it within a second
/// ```
extension Blog {
    // MARK: Followers

    public func followers() throws -> [Follower] { try store.followers.followers() }

    /// Followers in all, new in the last seven days, and the distinct inboxes they are reached at.
    public func followerCounts(now: Date = Date()) throws -> (total: Int, thisWeek: Int, inboxes: Int) {
        let summary = try store.summary(now: now)
        return (summary.followers, summary.followersThisWeek, Set(try store.followers.followerInboxes()).count)
    }

    /// Removes a follower; a running server stops delivering to it at once.
    public func removeFollower(actorID: String) throws -> Bool {
        let removed = try store.followers.removeFollower(actorID: actorID)
        try changed([.followers])
        return removed
    }

    // MARK: Comments

    public func comment(id: String) throws -> ShownComment? { try store.comments.shownComment(id: id) }

    public func comments(state: CommentRecord.State?, limit: Int) throws -> [ShownComment] {
        try store.comments.comments(state: state, limit: limit)
    }

    public enum Moderation: Sendable { case approve, reject, delete }

    /// Applies `action` to a comment; returns the post it is under (nil: no such comment), whose
    /// page is re-rendered.
    public func moderateComment(id: String, _ action: Moderation) throws -> String? {
        let path: String?
        switch action {
        case .approve: path = try store.comments.setCommentState(id: id, .approved)
        case .reject: path = try store.comments.setCommentState(id: id, .rejected)
        case .delete: path = try store.comments.removeComment(id: id)
        }
        if path != nil { try discussionsChanged() }
        return path
    }

    // MARK: Deliveries and the inbox

    public func deliveryStats() throws -> DeliveryStats { try store.deliveries.deliveryStats() }

    /// Failed and waiting deliveries (to `host`, or all) due now; a running worker wakes.
    public func retryDeliveries(host: String?) throws -> Int {
        let count = try store.deliveries.retryDeliveries(host: host)
        try changed([.deliveries])
        return count
    }

    public func purgeFailedDeliveries() throws -> Int { try store.deliveries.purgeFailedDeliveries() }

    public func summary(now: Date = Date()) throws -> StoreSummary { try store.summary(now: now) }

    public func inboxCounts(since date: Date) throws -> [InboxOutcome: Int] { try store.inboxCounts.inboxCounts(since: date) }

    public func lastDigestSentAt() throws -> Date? { try store.digests.lastDigestSentAt() }

    public func appliedMigrations() throws -> [String] { try store.appliedMigrations() }

    // MARK: Blocks

    public func blocks() throws -> [Block] { try store.blocks.blocks() }

    /// Blocks domains and actors (followers on them removed); returns the posts whose discussions
    /// changed, re-rendered.
    public func block(_ entries: [(kind: Block.Kind, value: String, reason: String?)]) throws -> Set<String> {
        var changedPosts = Set<String>()
        for entry in entries { changedPosts.formUnion(try store.blocks.block(entry.kind, entry.value, reason: entry.reason)) }
        let unfollowed = try unfollowBlocked()
        try discussionsChanged(unfollowed ? [.blocks, .followers, .deliveries] : [.blocks, .followers])
        return changedPosts
    }

    /// Lifts the block on an actor URL or a domain (suspended or silenced); false when none was.
    public func unblock(_ target: String) throws -> Bool {
        let removed = try target.contains("://") ? store.blocks.unblock(.actor, target)
            : store.blocks.unblock(.domain, target) || store.blocks.unblock(.silence, target)
        try changed([.blocks])
        return removed
    }
}
