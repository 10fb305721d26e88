import Foundation

/// Everything under `content/`, parsed and checked: what a build renders.
public struct SiteContent: Sendable {
    /// Newest first; drafts only when the build asked for them.
    public var posts: [Post]
    public var pages: [Page]
    /// Ignored front matter keys in the files read this time, as `file:line: …`.
    public var warnings: [String] = []
    /// Posts dated in the future, held back until their date (oldest first); empty when the
    /// build asked for them (`--future`), which puts them in `posts`.
    public var scheduled: [Post] = []
    /// The section folders under `content/` (`notes` for `content/notes/`), each listed even
    /// while it holds no published post.
    public var sections: [String] = []
    /// The site paths of drafts the load left out (none when it asked for them): what a
    /// preview beside the live site (`serve --watch`) shows.
    public var drafts: [String] = []
    /// How many post sources the load read (new, changed, or with a new stamp): those the parse
    /// cache did not serve.
    public var sourcesRead = 0

    public init(posts: [Post], pages: [Page], warnings: [String] = [], scheduled: [Post] = [], sections: [String] = []) {
        (self.posts, self.pages, self.warnings, self.scheduled, self.sections) = (posts, pages, warnings, scheduled, sections)
    }

    /// When the next held-back post is due.
    public var nextScheduled: Date? { scheduled.first?.date }
}
