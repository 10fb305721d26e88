import Foundation
import Hummingbird

/// Answers GET and HEAD for every file of the built site, from memory; other requests go on
/// to the router (ActivityPub endpoints). Unknown paths get the site's own 404 page.
struct StaticFileMiddleware<Context: RequestContext>: RouterMiddleware {
    let site: LiveSite
    let fileIO = FileIO()

    func handle(_ request: Request, context: Context,
                next: (Request, Context) async throws -> Response) async throws -> Response {
        guard request.method == .get || request.method == .head else { return try await next(request, context) }
        let index = site.index
        switch RequestPath.resolve(request.uri.path, exists: { index[$0] != nil }) {
        case .file(let key):
            return try await respond(with: index[key]!, to: request, context: context, status: .ok)
        case .redirect(let location):
            let query = request.uri.query.map { "?\($0)" } ?? ""
            return Response(status: .movedPermanently, headers: [.location: location + query, .contentLength: "0"])
        case .badRequest:
            return Response(status: .badRequest, headers: [.contentType: "text/plain; charset=utf-8"],
                            body: .init(byteBuffer: ByteBuffer(string: "Bad request path\n")))
        case .notFound:
            // Routes (WebFinger, the actor, the inbox…) come after static files.
            do {
                let response = try await next(request, context)
                if response.status != .notFound { return response }
            } catch let error as HTTPError where error.status == .notFound {}
            guard let page = index["404.html"] else {
                return Response(status: .notFound, headers: [.contentType: "text/plain; charset=utf-8"],
                                body: .init(byteBuffer: ByteBuffer(string: "Not found\n")))
            }
            return try await respond(with: page, to: request, context: context, status: .notFound)
        }
    }

    private func respond(with file: StaticFile, to request: Request, context: Context,
                         status: HTTPResponse.Status) async throws -> Response {
        var headers: HTTPFields = [
            .contentType: file.contentType, .cacheControl: file.cacheControl, .acceptRanges: "none",
        ]
        if status == .ok {
            headers[.eTag] = file.etag
            headers[.lastModified] = file.lastModifiedHeader
            if ConditionalRequest.isNotModified(request.headers, etag: file.etag, lastModified: file.lastModified) {
                headers[.contentType] = nil
                return Response(status: .notModified, headers: headers)
            }
        }
        var body = file.body
        if let gzip = file.gzip {
            headers[.vary] = "Accept-Encoding"
            if ConditionalRequest.acceptsGzip(request.headers) {
                body = gzip
                headers[.contentEncoding] = "gzip"
            }
        }
        if let body {
            headers[.contentLength] = String(body.readableBytes)
            if request.method == .head { return Response(status: status, headers: headers, body: .init()) }
            return Response(status: status, headers: headers, body: .init(byteBuffer: body))
        }
        headers[.contentLength] = String(file.size)
        if request.method == .head { return Response(status: status, headers: headers, body: .init()) }
        return Response(status: status, headers: headers, body: try await fileIO.loadFile(path: file.diskPath, context: context))
    }
}
