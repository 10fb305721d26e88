import Foundation
import Hummingbird

/// Answers GET and HEAD for every file of the built site, from memory. Anything else is
/// `nil`, for the caller to hand to the router (ActivityPub endpoints).
struct StaticFileResponder: Sendable {
    let site: LiveSite
    let fileIO = FileIO()

    enum Answer {
        case response(Response)
        /// Not a static file: try the routes, then `notFound`.
        case notStatic
    }

    func answer(_ request: Request, context: some RequestContext) async throws -> Answer {
        guard request.method == .get || request.method == .head else { return .notStatic }
        let index = site.index
        switch RequestPath.resolve(request.uri.path, exists: { index[$0] != nil }) {
        case .file(let key):
            return .response(try await respond(with: index[key]!, to: request, context: context))
        case .redirect(let location):
            let query = request.uri.query.map { "?\($0)" } ?? ""
            return .response(Response(status: .movedPermanently, headers: [.location: location + query, .contentLength: "0"]))
        case .badRequest:
            return .response(Self.plain(.badRequest, "Bad request path\n"))
        case .notFound:
            return .notStatic
        }
    }

    /// The site's own 404 page (or a plain one before the first build).
    func notFound(_ request: Request) -> Response {
        errorPage("404.html", status: .notFound, request: request) ?? Self.plain(.notFound, "Not found\n")
    }

    /// One of the site's error pages with the given status, if the build wrote it.
    func errorPage(_ name: String, status: HTTPResponse.Status, request: Request) -> Response? {
        guard let page = site.index[name], let body = page.body else { return nil }
        return Response(status: status, headers: page.errorPageHeaders,
                        body: request.method == .head ? .init() : .init(byteBuffer: body))
    }

    private func respond(with file: StaticFile, to request: Request, context: some RequestContext) async throws -> Response {
        if ConditionalRequest.isNotModified(request.headers, etag: file.etag, lastModified: file.lastModified) {
            return Response(status: .notModified, headers: file.notModifiedHeaders)
        }
        let isHead = request.method == .head
        if let gzip = file.gzip, let headers = file.gzipHeaders, ConditionalRequest.acceptsGzip(request.headers) {
            return Response(status: .ok, headers: headers, body: isHead ? .init() : .init(byteBuffer: gzip))
        }
        if let body = file.body {
            return Response(status: .ok, headers: file.plainHeaders, body: isHead ? .init() : .init(byteBuffer: body))
        }
        let body = isHead ? ResponseBody() : try await fileIO.loadFile(path: file.diskPath, context: context)
        return Response(status: .ok, headers: file.plainHeaders, body: body)
    }

    static func plain(_ status: HTTPResponse.Status, _ text: String) -> Response {
        Response(status: status, headers: [.contentType: "text/plain; charset=utf-8", .contentLength: String(text.utf8.count)],
                 body: .init(byteBuffer: ByteBuffer(string: text)))
    }
}
