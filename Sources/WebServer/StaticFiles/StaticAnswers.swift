import ActivityPub
import Dates
import Foundation
import Hummingbird
import HummingbirdCore
import HTTPSignatures
import LecternRuntime

/// What the event-loop fast path (`RawStaticFastPath`) may answer itself:
/// a GET or HEAD for a file of the built site, or a browser's view of a post, from memory. The
/// answer is `StaticFileResponder.answer` plus `PostNegotiation.PageFields`, the same the
/// router path sends; anything else is nil and goes to the router.
struct StaticAnswers: Sendable {
    let files: StaticFileResponder
    let posts: PostNegotiation?
    let accessLog: AccessLog?
    let metrics: BlogMetrics?

    struct Prepared {
        let answer: StaticFileResponder.MemoryAnswer
        /// For a post's page: what it adds to the file's headers (written with them, not
        /// merged into a copy of them per request).
        let page: PostNegotiation.PageFields?
        let method: HTTPRequest.Method
        let path: String
        let start: ContinuousClock.Instant?
    }

    /// The answer to a plain GET or HEAD (`PlainRequestHead` has refused every other method,
    /// framing and `Connection` value already), or nil to hand the request on.
    func prepare(_ head: PlainRequestHead) -> Prepared? {
        let (method, headers) = (head.method, head.headers)
        let start = accessLog == nil ? nil : ContinuousClock.now
        let path = head.path
        var page: PostNegotiation.PageFields?
        if let posts, path.hasSuffix("/") {
            let site = posts.current()
            if let document = site.post(path: path) {
                // Only a browser's view of a live or unfederated post; Articles, tombstones and moves go on.
                guard !ContentNegotiation.wantsActivityJSON(accept: headers[.accept]) else { return nil }
                switch document {
                case .article, .offFediverse:
                    page = PostNegotiation.PageFields(document: document, site: site, path: path)
                case .gone, .moved:
                    return nil
                }
            }
        }
        guard let file = files.site.file(atPlainPath: path),
              let answer = StaticFileResponder.answer(file, method: method, headers: headers)
        else { return nil }
        return Prepared(answer: answer, page: page, method: method, path: path, start: start)
    }

    /// The access log line and the metrics, as `SiteResponder` records them.
    func record(_ prepared: Prepared) {
        let status = prepared.answer.status.code
        if let accessLog, let start = prepared.start {
            accessLog.record(method: prepared.method, path: prepared.path, status: status,
                             size: prepared.answer.headers[.contentLength] ?? "-", since: start)
        }
        metrics?.request(status: status)
    }
}

/// The end of a head, `Date: …`, `Server: …` and the blank line, made once a second (per
/// connection handler: no lock).
struct DateHeader {
    private var second = -1
    private var bytes = ByteBuffer()

    mutating func tail(_ allocator: ByteBufferAllocator) -> ByteBuffer {
        let now = time(nil)
        if now != second {
            second = now
            var tail = allocator.buffer(capacity: 64)
            tail.writeStaticString("Date: ")
            tail.writeString(HTTPDate.format(Date(timeIntervalSince1970: TimeInterval(now))))
            tail.writeStaticString("\r\nServer: ")
            tail.writeString(LecternServer.serverName)
            tail.writeStaticString("\r\n\r\n")
            bytes = tail
        }
        return bytes
    }
}
