import Foundation
import Parallel
import Site

/// The sources walked and stamped on a thread of its own, started before the blog is opened:
/// `lectern build` spends as long opening the database, the configuration and the ActivityPub
/// side (5–8 ms) as stamping 1,000 sources, and needs the stamp only after.
///
/// ```swift
/// let sources = SourceWalk(root: root)            // starts now
/// let blog = try Blog.open(root: root)
/// try blog.build(sources: sources)                // waits for the walk if it is not done
/// ```
public final class SourceWalk: Sendable {
    let root: URL
    /// `public/`'s build stamp before the walk began: a build that ends after that may have
    /// built newer sources than this walk saw, and is not to be undone by it.
    let outputStamp: String
    let walked: Background<Result<(content: ContentTree, stamp: ContentHash), any Error>>

    public init(root: URL) {
        let root = root.standardizedFileURL
        self.root = root
        outputStamp = SiteBuilder(root: root).buildStamp()
        walked = Background("lectern-walk") { Result { try Self.walk(root) } }
    }

    /// The walk, if it is of `blog`'s folder and no build changed `public/` since it began (the
    /// walk ran before the build lock was taken); asked under that lock.
    func walk(for blog: Blog) throws -> (content: ContentTree, stamp: ContentHash)? {
        guard root == blog.root, outputStamp == blog.builder.buildStamp() else { return nil }
        return try walked.value.get()
    }

    /// `content/` as a build loads it, and the stamp of every source.
    static func walk(_ root: URL) throws -> (content: ContentTree, stamp: ContentHash) {
        let content = try ContentTree.walk(root: root)
        return (content, SourceStamp.of(root, content: content))
    }
}
