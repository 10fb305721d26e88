import Dates
import Foundation
import HTTPSignatures
import NIOCore
import NIOHTTP1

/// Refuses, between NIO's HTTP/1 parser and Hummingbird, two kinds of request RFC 9112 says a
/// server must not serve, and ends the connection after the refusal:
///
/// - a transfer coding other than a lone `chunked` (§6.1, §6.3): `gzip, chunked`, `xchunked`,
///   `identity`. We decode none of them, so the body's framing or content would be guessed;
///   501 for a coding we do not implement (as nginx answers), 400 for `chunked` twice or empty,
///   or any coding on HTTP/1.0 (which has none). Two readers that frame a body differently are
///   how requests are smuggled past a proxy.
/// - an HTTP/1.1 request without exactly one `Host` (§3.2): 400. HTTP/1.0 may omit it.
///
/// Hummingbird's request type has no version, and NIO's conversion to it drops the framing
/// headers, so the check reads NIO's own `HTTPRequestHead`. A request refused is not handed on;
/// the refusal waits for the answers to the requests before it (pipelining), and nothing after it
/// is read. The raw fast path (`PlainRequestHead`) hands every such request on, so both ways
/// into the server meet this one check.
final class RequestHeadCheck: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    /// Requests handed on whose answers have not ended yet.
    private var unanswered = 0
    /// Set once a request is refused: it goes out when `unanswered` reaches 0, once.
    private var refusal: HTTPResponseStatus?
    private var refusalSent = false

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard refusal == nil else { return }  // the connection ends with the refusal
        if case .head(let head) = unwrapInboundIn(data) {
            if let status = Self.refusal(for: head) {
                refusal = status
                if unanswered == 0 { refuse(context) }
                return
            }
            unanswered += 1
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        context.write(data, promise: promise)
        guard case .end = unwrapOutboundIn(data) else { return }
        // Hummingbird's own answer to a parse error has no request behind it.
        unanswered = max(0, unanswered - 1)
        if unanswered == 0, refusal != nil { refuse(context) }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // After a refusal the parser may fail on the bytes behind it (a body it cannot frame):
        // the connection is ending, and no second answer may follow the refusal.
        guard refusal == nil else { return }
        context.fireErrorCaught(error)
    }

    /// The status a request is refused with, or nil to serve it.
    static func refusal(for head: HTTPRequestHead) -> HTTPResponseStatus? {
        let isHTTP11 = head.version.major > 1 || (head.version.major == 1 && head.version.minor >= 1)
        if head.headers.contains(name: "transfer-encoding") {
            let codings = head.headers[canonicalForm: "transfer-encoding"].map { $0.lowercased() }
            if codings.contains(where: { $0 != "chunked" }) { return .notImplemented }
            guard codings == ["chunked"], isHTTP11 else { return .badRequest }
        }
        let hosts = head.headers["host"].count
        guard hosts <= 1, hosts == 1 || !isHTTP11 else { return .badRequest }
        return nil
    }

    private func refuse(_ context: ChannelHandlerContext) {
        guard let status = refusal, !refusalSent else { return }
        refusalSent = true
        let text = status == .notImplemented ? "transfer coding not implemented\n" : "bad request\n"
        let head = HTTPResponseHead(version: .http1_1, status: status, headers: [
            "Content-Type": "text/plain; charset=utf-8", "Content-Length": String(text.utf8.count), "Connection": "close",
            "Date": HTTPDate.format(Date()), "Server": LecternServer.serverName,
        ])
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(string: text)))), promise: nil)
        let written = context.eventLoop.makePromise(of: Void.self)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: written)
        let channel = context.channel
        written.futureResult.whenComplete { _ in channel.close(promise: nil) }
    }
}
