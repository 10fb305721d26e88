import Foundation
import Hummingbird
import LecternRuntime
import Logging
import Prometheus

/// The operator's listener, off unless `lectern serve --admin-port N` turns it on; it listens
/// on loopback only (scrape it from the same machine, or through an SSH tunnel):
/// `GET /healthz` — 200 `ok` when the database answers and the site is loaded, 503 with the
/// reason otherwise; `GET /metrics` — the blog's counters in Prometheus's text format;
/// `GET /metrics/heap` — the heap malloc has handed out (a walk of it: not for every scrape);
/// `GET /stats` — the outreach report (`lectern stats --html`), made when asked.
public struct AdminServer: Sendable {
    public let blog: Blog
    public let site: ServedFiles
    public let registry: PrometheusCollectorRegistry
    /// Why the server is up but not whole (`RebuildService.degraded`); nil when it is.
    public let degraded: @Sendable () -> String?

    /// A blog's metrics and the registry they are exported from, made together.
    public static func metrics() -> (BlogMetrics, PrometheusCollectorRegistry) {
        let registry = PrometheusCollectorRegistry()
        return (BlogMetrics(factory: PrometheusMetricsFactory(registry: registry)), registry)
    }

    public init(blog: Blog, site: ServedFiles, registry: PrometheusCollectorRegistry, degraded: @escaping @Sendable () -> String? = { nil }) {
        (self.blog, self.site, self.registry, self.degraded) = (blog, site, registry, degraded)
    }

    public func application(port: Int, logger: Logger, onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in })
        -> some ApplicationProtocol {
        let router = Router()
        let blog = blog, site = site, registry = registry, degraded = degraded
        router.get("/healthz") { _, _ -> Response in
            do {
                _ = try blog.store.inbox.inboundBacklog()
                guard site.fileCount > 0 else { return Self.text(.serviceUnavailable, "the site is not loaded\n") }
                if let why = degraded() {
                    return Self.text(.serviceUnavailable, "degraded: serving the previous site, the first build failed: \(why)\n")
                }
                return Self.text(.ok, "ok\n")
            } catch {
                return Self.text(.serviceUnavailable, "the database does not answer: \(error)\n")
            }
        }
        router.get("/metrics") { _, _ -> Response in
            // The counters are still worth serving when the store cannot be read; the gauges keep their last value.
            // Database reads: off the cooperative pool.
            do {
                try await OffPool.run { try blog.metrics.sample(blog.store, siteBytes: site.heldBytes) }
            } catch {
                blog.logger.error("metrics: reading the queue depths failed: \(error)")
            }
            var headers = HTTPFields()
            headers[.contentType] = "text/plain; version=0.0.4; charset=utf-8"
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: registry.emitToBuffer())))
        }
        router.get("/metrics/heap") { _, _ -> Response in
            // Leak hunting (`make soak`): a walk of the heap, on a thread of its own, when asked.
            let bytes = try await OffPool.run { ProcessHeap.inUseBytes }
            return Self.text(.ok, "# TYPE lectern_memory_bytes gauge\nlectern_memory_bytes{held_by=\"heap_in_use\"} \(bytes)\n")
        }
        router.get("/stats") { _, _ -> Response in
            let page = try await OffPool.run { OutreachPage.html(try blog.outreachReport()) }
            return Response(status: .ok, headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store"],
                            body: .init(byteBuffer: ByteBuffer(string: page)))
        }
        var logger = logger
        logger[metadataKey: "component"] = "admin"
        return Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: port), serverName: "Lectern admin"),
                           onServerRunning: { channel in await onServerRunning(channel.localAddress?.port ?? port) }, logger: logger)
    }

    static func text(_ status: HTTPResponse.Status, _ text: String) -> Response {
        Response(status: status, headers: [.contentType: "text/plain; charset=utf-8"], body: .init(byteBuffer: ByteBuffer(string: text)))
    }
}
