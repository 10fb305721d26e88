import ActivityPub
import Foundation
import Hummingbird
import HTTPTypes
import Interactions

/// Post URLs answer browsers with the page and ActivityPub clients with the `Article`; both
/// carry `Vary: Accept` so caches keep them apart, and the page links its alternate form.
/// A removed post answers 410: a `Tombstone` or the site's "gone" page. A post kept off the
/// fediverse (`federate: false`) is a page to browsers and a Tombstone to servers. A post's old
/// URL (its slug or date changed) sends browsers to the new one (301) and gives servers the
/// Article, whose id is that first URL.
struct PostNegotiation: Sendable {
    let current: @Sendable () -> BlogActor

    /// nil when `request` is not for a post (or a removed post): the caller goes on as usual.
    func answer(_ request: Request, files: StaticFileResponder, context: some RequestContext) async throws -> Response? {
        guard request.method == .get || request.method == .head else { return nil }
        let path = request.uri.path
        let site = current()
        guard path.hasSuffix("/"), let document = site.post(path: path) else { return nil }
        let wantsJSON = ContentNegotiation.wantsActivityJSON(accept: request.headers[.accept])
        if wantsJSON, let refusal = try await SignedFetch(current: current).check(request) { return refusal }
        let head = request.method == .head
        switch (document, wantsJSON) {
        case (.article(let json), true), (.moved(_, let json?), true):
            return Self.json(try json.data(), status: .ok, head: head)
        case (.gone(let tombstone), true), (.offFediverse(let tombstone), true):
            return Self.json(tombstone, status: .gone, head: head)
        case (.moved(_, nil), true):  // moved, then taken off the fediverse
            return Self.json(Data(#"{"type":"Tombstone"}"#.utf8), status: .gone, head: head)
        case (.gone, false):
            var response = files.errorPage("410.html", status: .gone, request: request)
                ?? StaticFileResponder.plain(.gone, "This post was removed.\n")
            response.headers[.vary] = "Accept"
            return response
        case (.moved(let target, _), false):
            let query = request.uri.query.map { "?\($0)" } ?? ""
            return Response(status: .movedPermanently,
                            headers: [.location: LocationValue.encode(target + query), .vary: "Accept", .contentLength: "0"])
        case (.article, false), (.offFediverse, false):
            guard case .response(var response) = try await files.answer(request, context: context) else { return nil }
            PageFields(document: document, site: site, path: path).add(to: &response.headers)
            return response
        }
    }

    /// What a post's page adds to the file's headers for a browser: `Vary: Accept` (appended to
    /// the file's own `Vary`) and, for a federated post, the link to its Article.
    struct PageFields: Sendable {
        /// The Article's address (`baseURL` + path) the `Link` names; nil for a post kept off
        /// the fediverse. Its parts are kept apart: the raw fast path writes them straight into
        /// the head, with no string made per request.
        let baseURL: String?
        let path: String

        static let linkSuffix = ">; rel=\"alternate\"; type=\"application/activity+json\""

        init(link baseURL: String?, path: String = "") {
            self.baseURL = baseURL
            self.path = path
        }

        init(document: BlogActor.PostDocument, site: BlogActor, path: String) {
            // `baseURL` read alone: a method call on `site.config` copies the whole configuration.
            if case .article = document { baseURL = site.config.baseURL } else { baseURL = nil }
            self.path = path
        }

        /// The `Link` value.
        var link: String? { baseURL.map { "<" + $0 + path + Self.linkSuffix } }

        /// The bytes `writeLinkField` writes.
        var linkFieldLength: Int {
            guard let baseURL else { return 0 }
            return HTTPField.Name.link.rawName.utf8.count + 3 + baseURL.utf8.count + path.utf8.count + Self.linkSuffix.utf8.count + 2
        }

        /// `Link: <…>; rel="alternate"; type="application/activity+json"` and its line end.
        func writeLinkField(into head: inout ByteBuffer) {
            guard let baseURL else { return }
            head.writeString(HTTPField.Name.link.rawName)
            head.writeStaticString(": <")
            head.writeString(baseURL)
            head.writeString(path)
            head.writeString(Self.linkSuffix)
            head.writeStaticString("\r\n")
        }

        /// The file's fields with the page's, in order: `Vary` extended in place (or appended
        /// when the file has none), then `Link`, each passed to `body` with `sink`. The raw fast
        /// path writes them straight into a response head; `add(to:)` builds the same fields for
        /// the router. (`sink` rather than a closure capturing the head buffer: that version, with
        /// a `Content-Length` lookup per answer, cost the fast path 2.6 µs a request, 15 %.)
        func forEachField<Sink>(merging headers: HTTPFields, into sink: inout Sink,
                                _ body: (inout Sink, HTTPField.Name, String) -> Void) {
            var vary = false
            for field in headers {
                if field.name == .vary {
                    vary = true
                    body(&sink, .vary, field.value + ", Accept")
                } else {
                    body(&sink, field.name, field.value)
                }
            }
            if !vary { body(&sink, .vary, "Accept") }
            if let link { body(&sink, .link, link) }
        }

        func add(to headers: inout HTTPFields) {
            var merged = HTTPFields()
            forEachField(merging: headers, into: &merged) { $0.append(HTTPField(name: $1, value: $2)) }
            headers = merged
        }
    }

    private static func json(_ data: Data, status: HTTPResponse.Status, head: Bool) -> Response {
        var response = ActivityPubRoutes.json(data, status: status)
        response.headers[.vary] = "Accept"
        if head { response.body = .head(length: data.count) }
        return response
    }
}

extension HTTPFields.Element.Name {
    /// RFC 8288 `Link` (not among swift-http-types' predefined names).
    static let link = HTTPFields.Element.Name("Link")!
}
