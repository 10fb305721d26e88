import BlogModel
import Interactions
import Site

/// The store's discussions as the builder reads them (`SiteBuilder.Options.discussions`).
extension Discussions {
    /// Every post's discussion as a build needs it: each post's summary now, its comments read
    /// when a page of it is rendered (one post's comments in memory at a time). On a single
    /// connection every discussion is read now instead: the build renders while the search
    /// index's write transaction waits for the pages, and a read then would wait for that write.
    public func source() throws -> DiscussionSource {
        if comments.readsWaitForWrites {
            var whole: [String: Discussion] = [:]
            for path in try comments.postsWithDiscussion() { whole[path] = try discussion(postPath: path) }
            return DiscussionSource(whole)  // leaves out the empty ones
        }
        var summaries: [String: DiscussionSummary] = [:]
        for path in try comments.postsWithDiscussion() {
            let discussion = try discussion(postPath: path)
            if !discussion.isEmpty { summaries[path] = DiscussionSummary(discussion) }
        }
        return DiscussionSource(summaries: summaries) { [self] in try discussion(postPath: $0) }
    }
}
