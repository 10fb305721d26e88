import BlogModel
import Foundation
import Synchronization

/// The discussions a build shows, with as little of them held as rendering allows: a summary of
/// each post's (its comment count and each page's fingerprint: all a plan needs to decide which
/// pages to render again), and a post's whole discussion read only when a page of it is rendered.
/// So a server keeps a few hashes per post between builds, not a model of every comment, and its
/// memory does not grow with the blog's history.
public struct DiscussionSource: Sendable, ExpressibleByDictionaryLiteral {
    /// By post path; posts with no discussion are left out.
    public let summaries: [String: DiscussionSummary]
    private let load: @Sendable (_ postPath: String) throws -> Discussion
    private let recent = RecentDiscussions()

    /// `load` reads a post's whole discussion; `preloaded` are discussions already read (the
    /// posts that just changed), which are not read again.
    public init(summaries: [String: DiscussionSummary], preloaded: [String: Discussion] = [:],
                load: @escaping @Sendable (_ postPath: String) throws -> Discussion) {
        self.summaries = summaries
        self.load = load
        for (path, discussion) in preloaded { recent.keep(discussion, for: path) }
    }

    /// Discussions given whole (a build of a few, and tests).
    public init(_ discussions: [String: Discussion]) {
        let shown = discussions.filter { !$0.value.isEmpty }
        self.init(summaries: shown.mapValues(DiscussionSummary.init)) { shown[$0] ?? Discussion() }
    }

    public init(dictionaryLiteral elements: (String, Discussion)...) {
        self.init(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }

    /// No discussions at all.
    public static var none: DiscussionSource { DiscussionSource([:]) }

    /// The post's whole discussion (empty when it has none).
    func discussion(of postPath: String) throws -> Discussion {
        guard summaries[postPath] != nil else { return Discussion() }
        if let kept = recent[postPath] { return kept }
        let discussion = try load(postPath)
        recent.keep(discussion, for: postPath)
        return discussion
    }

    /// The few discussions read last: a post's page, its older pages and its JSON are rendered
    /// one after another, and read the discussion once between them.
    private final class RecentDiscussions: Sendable {
        static let capacity = 8
        private let entries = Mutex<[(path: String, discussion: Discussion)]>([])

        subscript(path: String) -> Discussion? { entries.withLock { $0.first { $0.path == path }?.discussion } }

        func keep(_ discussion: Discussion, for path: String) {
            entries.withLock { entries in
                entries.removeAll { $0.path == path }
                entries.append((path, discussion))
                if entries.count > Self.capacity { entries.removeFirst(entries.count - Self.capacity) }
            }
        }
    }
}

/// What a build needs of a post's discussion without holding its comments.
public struct DiscussionSummary: Sendable, Equatable {
    public let commentCount: Int
    /// Each page's fingerprint (`DiscussionView.fingerprint(ofPage:)`), oldest first; the last
    /// is the page on the post itself.
    public let pageFingerprints: [ContentHash]

    public var pageCount: Int { pageFingerprints.count }

    public init(_ discussion: Discussion) {
        // Fingerprints depend on the comments alone, not on the account or time zone shown.
        let view = DiscussionView(discussion: discussion, postPath: "/", account: "", timeZone: TimeZone(identifier: "UTC")!)
        pageFingerprints = (1...view.pageCount).map(view.fingerprint(ofPage:))
        commentCount = discussion.comments.count
    }
}
