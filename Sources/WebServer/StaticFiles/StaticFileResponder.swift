import Foundation
import Hummingbird

/// Answers GET and HEAD for every file of the built site, from memory. Anything else is
/// `nil`, for the caller to hand to the router (ActivityPub endpoints).
struct StaticFileResponder: Sendable {
    let site: ServedFiles
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
            return .response(Response(status: .movedPermanently, headers: [.location: LocationValue.encode(location + query), .contentLength: "0"]))
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
        if let answer = Self.answer(file, method: request.method, headers: request.headers) { return answer.response }
        let gzip = file.gzipOnDisk.flatMap { twin in file.gzipHeaders.map { (twin.path, $0) } }
            .flatMap { ConditionalRequest.acceptsGzip(request.headers) ? $0 : nil }
        let path = gzip?.0 ?? file.diskPath
        var headers = gzip?.1 ?? file.plainHeaders
        guard request.method != .head else { return Response(status: .ok, headers: headers) }
        // The length of the file as read (a rebuild may have replaced it since the index was loaded).
        headers[.contentLength] = nil
        return Response(status: .ok, headers: headers, body: try await fileIO.loadFile(path: path, context: context))
    }

    /// A file's answer from memory (304, gzip or plain); nil when its body must be read from disk.
    /// Shared by the router path and `RawStaticFastPath`, so both send the same bytes.
    static func answer(_ file: StaticFile, method: HTTPRequest.Method, headers: HTTPFields) -> MemoryAnswer? {
        let heads = file.heads
        if ConditionalRequest.isNotModified(headers, etag: file.etag, lastModified: file.lastModified) {
            return MemoryAnswer(status: .notModified, headers: file.notModifiedHeaders, body: nil,
                                head: heads.notModified, pageHead: heads.pageNotModified)
        }
        let isHead = method == .head
        if let gzip = file.gzip, let gzipHeaders = file.gzipHeaders, ConditionalRequest.acceptsGzip(headers) {
            return MemoryAnswer(status: .ok, headers: gzipHeaders, body: isHead ? nil : gzip, head: heads.gzip, pageHead: heads.pageGzip)
        }
        guard let body = file.body else { return nil }
        return MemoryAnswer(status: .ok, headers: file.plainHeaders, body: isHead ? nil : body, head: heads.plain,
                            pageHead: heads.pagePlain)
    }

    /// A response whose body is already in memory.
    struct MemoryAnswer {
        var status: HTTPResponse.Status
        var headers: HTTPFields
        var body: ByteBuffer?
        /// Its status line and fields as bytes, as a file and as a post's page (no `Link`).
        var head: ByteBuffer?
        var pageHead: ByteBuffer?

        var response: Response {
            Response(status: status, headers: headers, body: body.map { .init(byteBuffer: $0) } ?? .init())
        }
    }

    static func plain(_ status: HTTPResponse.Status, _ text: String) -> Response {
        Response(status: status, headers: [.contentType: "text/plain; charset=utf-8", .contentLength: String(text.utf8.count)],
                 body: .init(byteBuffer: ByteBuffer(string: text)))
    }
}
