import BlogModel
import Foundation
import Parallel
import Synchronization

/// Post bodies rendered for federation, by site path, kept while a post's source does not
/// change: a reload after a one-post edit renders one post.
final class Renderings: Sendable {
    let render: FederatedBody.Renderer
    private let entries = Mutex<[String: (source: ContentHash, rendered: FederatedBody)]>([:])

    init(render: @escaping FederatedBody.Renderer) { self.render = render }

    /// Renders what changed and forgets posts that are gone; returns every post's rendering.
    func update(_ posts: [Post]) -> [String: FederatedBody] {
        let previous = entries.withLock { $0 }
        var fresh: [String: (source: ContentHash, rendered: FederatedBody)] = [:]
        let stale = posts.filter { previous[$0.path]?.source != $0.sourceHash }
        let rendered = ParallelMap.map(stale) { render($0.markdown) }
        for post in posts { if let kept = previous[post.path], kept.source == post.sourceHash { fresh[post.path] = kept } }
        for (post, body) in zip(stale, rendered) { fresh[post.path] = (post.sourceHash, body) }
        entries.withLock { $0 = fresh }
        return fresh.mapValues(\.rendered)
    }

    var current: [String: FederatedBody] { entries.withLock { $0.mapValues(\.rendered) } }
}
