import Foundation
import Hummingbird
import Logging
import NIOCore
import Webmention

/// `POST /webmention` (W3C Webmention): the form is read with a limit and judged by
/// `WebmentionReceiver` at once: 202 when queued (the source is read later), else 400, 403, 413,
/// 429 or 503 with a plain-text reason. One log line per request.
struct WebmentionRoute: Sendable {
    let receiver: @Sendable () -> WebmentionReceiver
    let queued: @Sendable () -> Void
    let logger: Logger

    func add(to router: Router<BlogRequestContext>) {
        router.post("/webmention") { request, _ in try await receive(request) }
        router.get("/webmention") { _, _ in
            ActivityPubRoutes.plain(.methodNotAllowed, "send a webmention with POST: source=<your page>&target=<a post here>\n")
        }
    }

    func receive(_ request: Request) async throws -> Response {
        var request = request
        let limit = WebmentionReceiver.maximumBodySize
        let outcome: WebmentionReceiver.Outcome
        if let length = request.headers[.contentLength].flatMap(Int.init), length > limit {
            outcome = .init(status: 413, message: "request body over \(limit) bytes")
        } else {
            do {
                let body = try await request.collectBody(upTo: limit)
                outcome = await receiver().receive(contentType: request.headers[.contentType], body: Array(buffer: body))
            } catch is NIOTooManyBytesError {
                outcome = .init(status: 413, message: "request body over \(limit) bytes")
            }
        }
        if outcome.queued { queued() }
        logger.log(level: outcome.status < 300 ? .info : .notice, "/webmention \(outcome.status): \(outcome.message)")
        var response = ActivityPubRoutes.plain(HTTPResponse.Status(code: outcome.status), outcome.message + "\n")
        response.headers[.cacheControl] = "no-store"
        if let seconds = outcome.retryAfter { response.headers[.retryAfter] = String(seconds) }
        return response
    }
}
