import Foundation
import ServiceLifecycle
import Storage
import Webmention

/// Verifies received webmentions on a lane of its own (`WebmentionWorker`); tells `RebuildService`
/// which posts' discussions changed, as the inbox does.
public struct WebmentionService: Service {
    public let worker: WebmentionWorker

    public init(blog: Blog, signal: QueueSignal, site: RebuildService) {
        var logger = blog.logger
        logger[metadataKey: "component"] = "webmention"
        worker = WebmentionWorker(queue: blog.store.webmentions, verifier: { blog.webmentionVerifier() }, signal: signal, logger: logger) { changed in
            site.changedPosts.add(changed)
            site.wake.signal()
        }
    }

    public func run() async throws {
        await cancelWhenGracefulShutdown { await worker.run() }
    }
}
