import Delivery
import Foundation
import Storage
import Webmention

extension Blog {
    /// The endpoint's judge, as the configuration says now.
    public func webmentionReceiver() -> WebmentionReceiver {
        WebmentionReceiver(blocks: store.blocks, posts: store.posts, webmentions: store.webmentions, config: activityPub.config)
    }

    /// Reads queued webmentions' sources, through the inbox's comment paths.
    public func webmentionVerifier() -> WebmentionVerifier {
        WebmentionVerifier(processor: inboxProcessor())
    }
}

extension Blog {
    /// Sends queued webmentions with the delivery worker's settings (addresses, user agent, retries).
    public func webmentionSender() -> WebmentionSender {
        var logger = logger
        logger[metadataKey: "component"] = "webmention"
        return WebmentionSender(queue: store.deliveries, settings: delivery.settings, logger: logger)
    }
}
