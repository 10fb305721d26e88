import BlogModel
import Foundation
import Parallel
import Site

/// The sources walked and stamped on a thread of its own, started before the blog is opened:
/// `lectern build` spends as long opening the database, the configuration and the ActivityPub
/// side (5–8 ms) as stamping 1,000 sources, and needs the stamp only after.
///
/// A stamp unlike the last build's means a build follows whatever the store says: the walk then
/// starts reading the last build's parse cache at once, which a build otherwise starts only once
/// the blog is open (decoding 1,000 posts, 6–11 ms, was on the one-post rebuild's critical path).
/// A no-op build reads nothing.
///
/// ```swift
/// let sources = SourceWalk(root: root)            // starts now
/// let blog = try Blog.open(root: root)
/// try blog.build(sources: sources)                // waits for the walk if it is not done
/// ```
public final class SourceWalk: Sendable {
    /// The site folder walked (standardized).
    public let root: URL
    let walked: Background<Walked>

    struct Walked: Sendable {
        /// `public/`'s build stamp before the walk began: a build that ends after that may have
        /// built newer sources than this walk saw, and is not to be undone by it.
        let outputStamp: String
        let walk: Result<Walk, any Error>
    }

    struct Walk: Sendable {
        let content: ContentTree
        let stamp: ContentHash
        /// The parse cache being read, when the stamp differs from the last build's.
        let cacheRead: SiteBuilder.CacheRead?
    }

    /// Returns at once: everything, the first look at `public/` included, happens on the walk's
    /// thread (the caller may be parsing its arguments meanwhile).
    public init(root: URL) {
        let root = root.standardizedFileURL
        self.root = root
        walked = Background("lectern-walk") {
            let builder = SiteBuilder(root: root)
            return Walked(outputStamp: builder.buildStamp(), walk: Result {
                let (content, stamp) = try Self.walk(root)
                // No record means no build yet: one follows. A record of an older version (no
                // sources' stamp) says nothing, and a no-op build does not rewrite it.
                let last = BuildInputs.load(from: builder.publicFolder)
                let changed = last.map { $0.sources.map { $0 != stamp.hex } ?? false } ?? true
                return Walk(content: content, stamp: stamp, cacheRead: changed ? builder.readingCache(timeZone: nil) : nil)
            })
        }
    }

    /// The walk, if it is of `blog`'s folder and no build changed `public/` since it began (the
    /// walk ran before the build lock was taken); asked under that lock.
    func walk(for blog: Blog) throws -> Walk? {
        guard root == blog.root else { return nil }
        let walked = walked.value
        guard walked.outputStamp == blog.builder.buildStamp() else { return nil }
        return try walked.walk.get()
    }

    /// `content/` as a build loads it, and the stamp of every source.
    static func walk(_ root: URL) throws -> (content: ContentTree, stamp: ContentHash) {
        let content = try ContentTree.walk(root: root)
        return (content, SourceStamp.of(root, content: content))
    }
}
