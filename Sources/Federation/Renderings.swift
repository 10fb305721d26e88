import BlogModel
import Foundation
import Site
import Synchronization
import Parallel

/// Post bodies rendered for federation (`MarkdownRenderer.Purpose.federation`), by site path, kept while a post's source does not
/// change: a reload after a one-post edit renders one post.
final class Renderings: Sendable {
    private let entries = Mutex<[String: (source: ContentHash, rendered: RenderedMarkdown)]>([:])

    /// Renders what changed and forgets posts that are gone; returns every post's rendering.
    func update(_ posts: [Post]) -> [String: RenderedMarkdown] {
        let previous = entries.withLock { $0 }
        var fresh: [String: (source: ContentHash, rendered: RenderedMarkdown)] = [:]
        let stale = posts.filter { previous[$0.path]?.source != $0.sourceHash }
        let rendered = ParallelMap.map(stale) { MarkdownRenderer.render($0.markdown, for: .federation) }
        for post in posts { if let kept = previous[post.path], kept.source == post.sourceHash { fresh[post.path] = kept } }
        for (post, body) in zip(stale, rendered) { fresh[post.path] = (post.sourceHash, body) }
        entries.withLock { $0 = fresh }
        return fresh.mapValues(\.rendered)
    }

    var current: [String: RenderedMarkdown] { entries.withLock { $0.mapValues(\.rendered) } }
}
