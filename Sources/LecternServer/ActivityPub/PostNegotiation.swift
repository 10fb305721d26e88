import Federation
import Foundation
import Hummingbird

/// Post URLs answer browsers with the page and ActivityPub clients with the `Article`; both
/// carry `Vary: Accept` so caches keep them apart, and the page links its alternate form.
/// A removed post answers 410: a `Tombstone` or the site's "gone" page.
struct PostNegotiation: Sendable {
    let site: ActivityPubSite

    /// nil when `request` is not for a post (or a removed post): the caller goes on as usual.
    func answer(_ request: Request, files: StaticFileResponder, context: some RequestContext) async throws -> Response? {
        guard request.method == .get || request.method == .head else { return nil }
        let path = request.uri.path
        guard path.hasSuffix("/"), let document = site.post(path: path) else { return nil }
        let wantsJSON = ContentNegotiation.wantsActivityJSON(accept: request.headers[.accept])
        if wantsJSON, let refusal = try await SignedFetch(site: site).check(request) { return refusal }
        switch (document, wantsJSON) {
        case (.article(let json), true):
            return Self.json(json, status: .ok, head: request.method == .head)
        case (.gone(let tombstone), true):
            return Self.json(tombstone, status: .gone, head: request.method == .head)
        case (.gone, false):
            var response = files.errorPage("410.html", status: .gone, request: request)
                ?? StaticFileResponder.plain(.gone, "This post was removed.\n")
            response.headers[.vary] = "Accept"
            return response
        case (.article, false):
            guard case .response(var response) = try await files.answer(request, context: context) else { return nil }
            response.headers[.vary] = response.headers[.vary].map { "\($0), Accept" } ?? "Accept"
            response.headers[.link] = "<\(site.config.absoluteURL(path))>; rel=\"alternate\"; type=\"application/activity+json\""
            return response
        }
    }

    private static func json(_ data: Data, status: HTTPResponse.Status, head: Bool) -> Response {
        var response = ActivityPubRoutes.json(data, status: status)
        response.headers[.vary] = "Accept"
        if head { response.body = .init() }
        return response
    }
}

extension HTTPFields.Element.Name {
    /// RFC 8288 `Link` (not among swift-http-types' predefined names).
    static let link = HTTPFields.Element.Name("Link")!
}
