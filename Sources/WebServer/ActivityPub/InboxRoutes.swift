import ActivityPub
import BlogModel
import Foundation
import HTTPSignatures
import Hummingbird
import Interactions
import Logging
import NIOCore
import Site
import Storage

/// `POST /inbox` (shared) and `POST /actor/inbox`: the body is read with a limit, judged by
/// `InboxGate`, and answered at once; what it means is applied later by the inbox worker.
/// One log line per request says what happened and why (the client only gets the status).
struct InboxRoutes: Sendable {
    let gate: @Sendable () -> InboxGate
    let baseURL: String
    /// Called when an activity was queued (wakes the inbox worker).
    let queued: @Sendable () -> Void
    let logger: Logger

    func add(to router: Router<BlogRequestContext>) {
        for path in ["/inbox", "/actor/inbox"] {
            router.post(RouterPath(stringLiteral: path)) { request, _ in try await receive(request) }
            router.get(RouterPath(stringLiteral: path)) { _, _ in
                ActivityPubRoutes.plain(.methodNotAllowed, "the inbox only takes POST\n")
            }
        }
    }

    func receive(_ request: Request) async throws -> Response {
        let gate = gate()
        var request = request
        let limit = InboxGate.maximumBodySize
        if let length = request.headers[.contentLength].flatMap(Int.init), length > limit {
            gate.counter?.record(InboxOutcome(.refused, "too-large"))
            return answer(request, .init(status: 413, reason: "Content-Length \(length) over \(limit)", queued: false, code: "too-large"))
        }
        let body: ByteBuffer
        do {
            body = try await request.collectBody(upTo: limit)
        } catch is NIOTooManyBytesError {
            gate.counter?.record(InboxOutcome(.refused, "too-large"))
            return answer(request, .init(status: 413, reason: "body over \(limit) bytes", queued: false, code: "too-large"))
        }
        var parts = SignedFetch.parts(of: request, baseURL: baseURL)
        parts.body = Array(buffer: body)
        let outcome = await gate.receive(parts)
        if outcome.queued { queued() }
        return answer(request, outcome)
    }

    private func answer(_ request: Request, _ outcome: InboxGate.Outcome) -> Response {
        let level: Logger.Level = outcome.status < 300 ? .info : (outcome.status >= 500 && outcome.status != 503 ? .error : .notice)
        logger.log(level: level, "\(request.uri.path) \(outcome.status): \(outcome.reason)")
        let status = HTTPResponse.Status(code: outcome.status)
        let message = switch outcome.status {
        case 202: "accepted"
        case 401: "request not signed, or signature invalid"
        case 403: "forbidden"
        case 413: "request body too large"
        case 415: "expected application/activity+json"
        case 400: "malformed activity"
        case 503: "busy, try again later"
        default: "error"
        }
        let data = Data("{\"status\":\"\(message)\"}".utf8)
        var extra: HTTPFields = [.cacheControl: "no-store"]
        if let seconds = outcome.retryAfter { extra[.retryAfter] = String(seconds) }
        return ActivityPubRoutes.json(data, type: "application/json; charset=utf-8", status: status, extra: extra)
    }
}

/// `GET /comments/<post>.json` for a post without comments. A post with comments has its JSON
/// written by the build with its page, and served from memory as a static file before any route
/// is asked; so this answers only "nothing yet", without touching the database.
struct CommentsRoute: Sendable {
    let current: @Sendable () -> BlogActor

    func add(to router: Router<BlogRequestContext>) {
        router.get("/comments/**") { request, _ -> Response in
            let site = current()
            guard let path = DiscussionView.postPath(forJSONPath: request.uri.path),
                  case .article? = site.post(path: path) else { throw HTTPError(.notFound) }
            let view = DiscussionView(discussion: Discussion(), postPath: path,
                                      account: "@\(site.urls.username)@\(site.urls.host)", timeZone: site.config.timeZone)
            return ActivityPubRoutes.json(try view.json(), type: "application/json; charset=utf-8",
                                          extra: [.cacheControl: "public, no-cache", .accessControlAllowOrigin: "*"])
        }
    }
}
