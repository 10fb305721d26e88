import Hummingbird
import LecternRuntime
import Logging

/// The server's front door: static files first (the hot path, with no router or middleware
/// in the way), then the routes, then the site's 404 page. Logs one line per request.
struct SiteResponder: HTTPResponder {
    typealias Context = BlogRequestContext

    let files: StaticFileResponder
    /// Post URLs, negotiated between page and Article; nil when federation is off (tests).
    let posts: PostNegotiation?
    let routes: RouterResponder<BlogRequestContext>
    let accessLog: AccessLog?
    /// Requests counted by status (nil: not counted).
    var metrics: BlogMetrics? = nil
    /// Why only the built files are served (a disk too full to open the database): anything else
    /// is 503 with `Retry-After`, never a 404 that a fediverse server would take as final.
    var unavailable: String? = nil
    static let host = HTTPFields.Element.Name("Host")!

    func respond(to request: Request, context: Context) async throws -> Response {
        guard accessLog != nil || metrics != nil else { return try await answer(request, context: context) }
        let start = accessLog == nil ? nil : ContinuousClock.now
        func record(_ status: Int, size: String) {
            if let accessLog, let start { accessLog.record(request, status: status, size: size, since: start) }
            metrics?.request(status: status)
        }
        do {
            let response = try await answer(request, context: context)
            record(response.status.code, size: response.headers[.contentLength] ?? "-")
            return response
        } catch let error as any HTTPResponseError {
            record(error.status.code, size: "-")
            throw error
        } catch {
            record(500, size: "-")
            throw error
        }
    }

    private func answer(_ request: Request, context: Context) async throws -> Response {
        // HTTP/1 moves the first Host into the authority; any other is a second Host header,
        // which RFC 9112 §3.2 says to refuse (proxies and we could disagree on which counts).
        if request.headers[Self.host] != nil { return StaticFileResponder.plain(.badRequest, "more than one Host header\n") }
        if let posts, let response = try await posts.answer(request, files: files, context: context) { return response }
        if let target = files.site.redirect(request.uri.path) {
            let query = request.uri.query.map { "?\($0)" } ?? ""
            return Response(status: .movedPermanently, headers: [.location: LocationValue.encode(target + query), .contentLength: "0"])
        }
        if case .response(let response) = try await files.answer(request, context: context) { return response }
        if let unavailable {
            return Response(status: .serviceUnavailable, headers: [.contentType: "text/plain; charset=utf-8", .retryAfter: "60"],
                            body: .init(byteBuffer: ByteBuffer(string: "Only the published pages are served for now: \(unavailable)\n")))
        }
        // HEAD is GET without the body (RFC 9110 §9.3.2), for every route: uptime probes and
        // link checkers ask WebFinger, NodeInfo and the actor that way.
        if request.method == .head {
            var head = request.head
            head.method = .get
            let response = try await answer(Request(head: head, body: request.body), context: context)
            return Response(status: response.status, headers: response.headers, body: .head(length: response.body.contentLength))
        }
        do {
            let response = try await routes.respond(to: request, context: context)
            if response.status != .notFound { return response }
        } catch let error as HTTPError where error.status == .notFound {}
        return files.notFound(request)
    }
}
