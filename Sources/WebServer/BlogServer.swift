import BlogModel
import Foundation
import Hummingbird
import Interactions
import LecternRuntime
import Logging
import NIOCore
import Prometheus
import ServiceLifecycle
import Site
import Storage

/// A blog served: the HTTP server (routing only) with the blog's background work
/// (`BlogServices`, wired in LecternRuntime) as services of one `ServiceGroup`, shut down
/// together and gracefully. `lectern serve` is this plus options; the end-to-end tests start
/// the same thing.
///
/// ```swift
/// let server = try BlogServer(blog: try Blog.open(root: siteURL), watch: true)
/// try await server.makeApplication(host: "127.0.0.1", port: 8080).runService()
/// ```
public final class BlogServer: Sendable {
    public let blog: Blog
    public let site: ServedFiles
    /// `serve --watch` beside a live site: the drafts' preview (`preview/`), answered under
    /// `Blog.previewPrefix` to this machine only (`PreviewRoute`).
    public let preview: ServedFiles?
    /// The background work and the inbox gate (LecternRuntime wires them).
    public let runtime: BlogServices
    public var rebuildService: RebuildService { runtime.rebuildService }

    /// Builds (with every comment), reads the posts and publishes what changed while no server
    /// ran, before anything listens: it never serves a half-built site. If that fails and a
    /// site built before is in `public/`, that one is served meanwhile (`RebuildService.start`).
    public init(blog: Blog, watch: Bool = false) throws {
        self.blog = blog
        let liveReload = watch ? LiveReload() : nil
        // Every page advertises the webmention endpoint while the blog takes webmentions.
        let site = try ServedFiles(publicFolder: blog.builder.publicFolder, liveReload: liveReload) {
            let config = blog.activityPub.config
            return config.webmention.receive ? "<\(config.baseURL)\(WebmentionSettings.endpointPath)>; rel=\"webmention\"" : nil
        }
        self.site = site
        var preview: ServedFiles?
        if watch && !blog.options.isPreview {
            try SiteBuilder.makePreviewFolder(root: blog.root)
            preview = try ServedFiles(publicFolder: SiteBuilder.previewFolder(root: blog.root), liveReload: liveReload)
        }
        self.preview = preview
        runtime = try BlogServices(blog: blog, watch: watch, previousSite: site.fileCount > 0,
                                   onFailure: { liveReload?.buildFailed($0) },
                                   onPreviewChanged: preview.map(Self.reloader)) { try site.reload() }
    }

    public var services: [any Service] { runtime.services }

    private static func reloader(_ files: ServedFiles) -> @Sendable (Bool) throws -> Void {
        { tellPages in try files.reload(tellPages: tellPages) }
    }

    /// The operator's listener: its loopback port and the registry the blog's metrics go to.
    public struct Admin: Sendable {
        public var port: Int
        public var registry: PrometheusCollectorRegistry
        public var onRunning: @Sendable (Int) async -> Void

        public init(port: Int, registry: PrometheusCollectorRegistry, onRunning: @escaping @Sendable (Int) async -> Void = { _ in }) {
            (self.port, self.registry, self.onRunning) = (port, registry, onRunning)
        }
    }

    public func makeApplication(host: String? = nil, port: Int? = nil, requestTimeout: TimeAmount = LecternServer.requestTimeout,
                                background: Bool = true, admin: Admin? = nil,
                                onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }) -> some ApplicationProtocol {
        let blog = blog, runtime = runtime
        var interactions = LecternServer.Interactions(gate: { runtime.gate }) { runtime.inboxQueued() }
        interactions.webmention = { blog.webmentionReceiver() }
        interactions.webmentionQueued = { runtime.webmentionQueued() }
        var logger = blog.logger
        logger[metadataKey: "component"] = "http"
        return LecternServer.makeApplication(site: site, preview: preview, activityPub: { blog.activityPub }, interactions: interactions,
                                             search: { try blog.searchPage(query: $0, page: $1) }, newsletter: blog,
                                             host: host ?? blog.config.server.host, port: port ?? blog.config.server.port,
                                             requestTimeout: requestTimeout, services: (background ? services : []) + adminServices(admin),
                                             metrics: admin == nil ? nil : blog.metrics, logger: logger, onServerRunning: onServerRunning)
    }

    func adminServices(_ admin: Admin?) -> [any Service] {
        guard let admin else { return [] }
        return [AdminServer(blog: blog, site: site, registry: admin.registry) { [rebuildService = runtime.rebuildService] in rebuildService.degraded }
            .application(port: admin.port, logger: blog.logger, onServerRunning: admin.onRunning)]
    }
}
