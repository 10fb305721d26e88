import ActivityPub
import Foundation
import Hummingbird
import HummingbirdCore
import Interactions
import LecternRuntime
import Logging
import NIOCore
import ServiceLifecycle
import Site
import Webmention

/// The HTTP server: the pre-rendered site plus the ActivityPub surface. `BlogServer` puts it
/// together with a blog's background work; this is the assembly, for tests of parts of it.
///
/// ```swift
/// let site = try ServedFiles(publicFolder: root.appendingPathComponent("public"))
/// let app = LecternServer.makeApplication(site: site, host: "127.0.0.1", port: 8080, logger: logger)
/// try await app.runService()   // stops gracefully on SIGTERM / SIGINT
/// ```
public enum LecternServer {
    /// The write side: the inboxes.
    public struct Interactions: Sendable {
        /// The inbox gate as the settings and keys are now (made again after they are read again).
        public let gate: @Sendable () -> InboxGate
        /// Called when the inbox queued an activity.
        public let queued: @Sendable () -> Void

        /// The webmention endpoint's judge (nil: no endpoint), and what to call when it queued one.
        public var webmention: (@Sendable () -> WebmentionReceiver)?
        public var webmentionQueued: @Sendable () -> Void = {}

        public init(gate: @escaping @Sendable () -> InboxGate, queued: @escaping @Sendable () -> Void) {
            self.gate = gate
            self.queued = queued
        }
    }

    /// A client has this long to send a whole request (head and body), counted from when its
    /// connection opened or its previous response ended; then the connection is closed.
    public static let requestTimeout: TimeAmount = .seconds(10)

    /// The `Server` header of every response.
    static let serverName = "Lectern"

    /// `preview` is the drafts' preview `serve --watch` keeps beside the live site (nil: none);
    /// `activityPub` gives the ActivityPub face as the settings say now (nil: a static server);
    /// `search` renders `/search` results (nil: no search); `newsletter` answers the subscribe,
    /// confirm and unsubscribe pages (nil: none); `unavailable` says why only the
    /// built files are served (everything else answers 503).
    public static func makeApplication(
        site: ServedFiles, preview: ServedFiles? = nil, activityPub: (@Sendable () -> BlogActor)? = nil, interactions: Interactions? = nil,
        search: (@Sendable (_ query: String, _ page: Int) throws -> String)? = nil, newsletter: Blog? = nil, unavailable: String? = nil,
        host: String, port: Int, requestTimeout: TimeAmount = requestTimeout, services: [any Service] = [],
        metrics: BlogMetrics? = nil, logger: Logger, onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }
    ) -> some ApplicationProtocol {
        let router = Router(context: BlogRequestContext.self)
        if let activityPub {
            ActivityPubRoutes.add(to: router, current: activityPub)
            InteractRoute(current: activityPub).add(to: router)
        }
        if let search { SearchRoute(search: search).add(to: router) }
        if let newsletter { NewsletterRoutes(blog: newsletter).add(to: router) }
        site.liveReload?.add(to: router)
        if let preview { PreviewRoute(files: StaticFileResponder(site: preview)).add(to: router) }
        if let activityPub, let interactions {
            InboxRoutes(gate: interactions.gate, baseURL: activityPub().config.baseURL, queued: interactions.queued,
                        logger: logger).add(to: router)
            CommentsRoute(current: activityPub).add(to: router)
            if let webmention = interactions.webmention {
                WebmentionRoute(receiver: webmention, queued: interactions.webmentionQueued, logger: logger).add(to: router)
            }
        }
        var responder = SiteResponder(files: StaticFileResponder(site: site), posts: activityPub.map(PostNegotiation.init),
                                      routes: router.buildResponder(), accessLog: AccessLog(logger: logger))
        responder.metrics = metrics
        responder.unavailable = unavailable
        // Plain GETs for files are answered on the event loop from the raw bytes; everything
        // else goes through the responder.
        let answers = StaticAnswers(files: responder.files, posts: responder.posts, accessLog: responder.accessLog,
                                    metrics: metrics)
        let server = HTTPServerBuilder { respond in
            LecternHTTP1Channel(inner: HTTP1Channel(responder: respond, configuration: .init(additionalChannelHandlers: [
                RequestDeadlineHandler(timeout: requestTimeout),
            ])), answers: answers)
        }
        return Application(
            responder: responder,
            server: server,
            configuration: .init(address: .hostname(host, port: port), serverName: serverName, backlog: 1024),
            services: services,
            onServerRunning: { channel in await onServerRunning(channel.localAddress?.port ?? port) },
            logger: logger)
    }
}
