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
    let walked: Background<Result<(content: ContentTree, stamp: ContentHash), any Error>>

    public init(root: URL) {
        let root = root.standardizedFileURL
        self.root = root
        walked = Background("lectern-walk") { Result { try Self.walk(root) } }
    }

    /// `content/` as a build loads it, and the stamp of every source.
    static func walk(_ root: URL) throws -> (content: ContentTree, stamp: ContentHash) {
        let content = try ContentTree.walk(root: root)
        return (content, SourceStamp.of(root, content: content))
    }
}
