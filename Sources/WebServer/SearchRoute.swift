import Foundation
import Hummingbird
import LecternRuntime
import NIOCore
import Site
import Synchronization

/// `GET /search?q=…&page=N`: the blog's full-text search, answered from the store's index
/// through the theme. Searches run one at a time on a low-priority thread of their own
/// (`BackgroundLane`), never on the event loops or the cooperative pool, each bounded by
/// `SearchBounds`; at most `maximumInFlight` run or wait at once, and past that a search gets 503.
/// So a flood of costly searches takes at most one core, at a priority below page serving.
final class SearchRoute: Sendable {
    let search: @Sendable (_ query: String, _ page: Int) throws -> String
    private let inFlight = Atomic<Int>(0)
    private let lane = BackgroundLane(name: "lectern-search", niceness: 10)
    /// With each search stopped after `SearchBounds.cpuLimit`, the last waits about 0.8 s at most.
    static let maximumInFlight = 8
    /// Pages past this are not offered (see `SearchPage.maximumResults`).
    static let maximumPage = SearchPage.maximumResults / Blog.searchResultsPerPage

    init(search: @escaping @Sendable (_ query: String, _ page: Int) throws -> String) { self.search = search }

    /// A form's query string (`q=swift+actors&page=2`): `+` is a space there, then percent-decoding;
    /// the first of a repeated field counts.
    static func formFields(_ query: String) -> [String: String] {
        var fields: [String: String] = [:]
        for pair in query.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            func decode(_ text: Substring) -> String {
                let spaced = text.replacingOccurrences(of: "+", with: " ")
                return spaced.removingPercentEncoding ?? spaced
            }
            let name = decode(parts[0])
            if fields[name] == nil { fields[name] = parts.count > 1 ? decode(parts[1]) : "" }
        }
        return fields
    }

    func add(to router: Router<BlogRequestContext>) {
        router.get("/search") { [self] request, _ -> Response in
            let parameters = Self.formFields(request.uri.query ?? "")
            let query = parameters["q"] ?? ""
            guard let page = parameters["page"].map({ Int($0) }) ?? 1, (1...Self.maximumPage).contains(page) else {
                return StaticFileResponder.plain(.badRequest, "page must be a number from 1 to \(Self.maximumPage)\n")
            }
            guard inFlight.add(1, ordering: .relaxed).newValue <= Self.maximumInFlight else {
                inFlight.subtract(1, ordering: .relaxed)
                var busy = StaticFileResponder.plain(.serviceUnavailable, "too many searches at once; try again in a second\n")
                busy.headers[.retryAfter] = "1"
                return busy
            }
            defer { inFlight.subtract(1, ordering: .relaxed) }
            let search = search
            let html = try await lane.run { try search(query, page) }
            return Response(status: .ok, headers: [.contentType: "text/html; charset=utf-8", .contentLength: String(html.utf8.count),
                                                   .cacheControl: "no-cache"],
                            body: .init(byteBuffer: ByteBuffer(string: html)))
        }
    }
}
