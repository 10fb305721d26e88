import Federation
import Foundation
import Hummingbird
import Logging
import Site

/// The HTTP server: the pre-rendered site plus the ActivityPub surface.
///
/// ```swift
/// let site = try LiveSite(publicFolder: root.appendingPathComponent("public"))
/// let app = LecternServer.makeApplication(site: site, host: "127.0.0.1", port: 8080, logger: logger)
/// try await app.runService()   // stops gracefully on SIGTERM / SIGINT
/// ```
public enum LecternServer {
    public static func makeApplication(
        site: LiveSite, activityPub: ActivityPubSite? = nil, host: String, port: Int, logger: Logger,
        onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }
    ) -> some ApplicationProtocol {
        let router = Router()
        if let activityPub { ActivityPubRoutes.add(to: router, site: activityPub) }
        let responder = SiteResponder(files: StaticFileResponder(site: site), posts: activityPub.map(PostNegotiation.init),
                                      routes: router.buildResponder(), accessLog: AccessLog(logger: logger))
        return Application(
            responder: responder,
            configuration: .init(address: .hostname(host, port: port), serverName: "Lectern", backlog: 1024),
            onServerRunning: { channel in await onServerRunning(channel.localAddress?.port ?? port) },
            logger: logger)
    }
}
