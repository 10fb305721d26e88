import Federation
import Foundation
import Hummingbird
import HummingbirdCore
import HTTPSignatures
import LecternRuntime
import NIOCore
import NIOHTTPTypes

/// Answers requests for files of the built site on the event loop, before they cross into
/// Swift concurrency. A profile of `wrk` against the server put our own responder under 1 % of
/// the samples and Hummingbird's hand-off (NIOAsyncChannel, a task per request) at most of the
/// rest; a page from memory needs none of it. Everything else — ActivityPub, the inbox, search,
/// redirects, errors, files streamed from disk — goes on to the router, unchanged.
///
/// The answers are `StaticFileResponder.answer`'s and `PostNegotiation.addPageHeaders`'s, the
/// same as the router path sends, with the same `Date` and `Server` headers, access log line and
/// metrics. Order on a connection is kept: while a request handed on is still unanswered, every
/// later request is handed on too (a pipelining client gets its answers in order).
final class StaticFastPath: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let answers: StaticAnswers
    /// Requests handed on whose response has not ended yet.
    private var handedOn = 0
    /// The answer to the request being read, sent when its end arrives.
    private var pending: StaticAnswers.Prepared?
    private var date = DateHeader()

    init(answers: StaticAnswers) { self.answers = answers }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            // Not while the client is not reading its answers: the router's backpressure takes over.
            if handedOn == 0, context.channel.isWritable,
               head.headerFields[SiteResponder.host] == nil,  // a second Host: the router refuses it
               let answer = answers.prepare(method: head.method, target: head.path ?? "", headers: head.headerFields) {
                pending = answer
                return
            }
            handedOn += 1
        case .body:
            if pending != nil { return }  // a GET with a body: read and dropped, as the router path does
        case .end:
            if let pending {
                self.pending = nil
                send(pending, context: context)
                return
            }
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) { handedOn = max(0, handedOn - 1) }  // a parse error's 400 was never handed on
        context.write(data, promise: promise)
    }

    private func send(_ prepared: StaticAnswers.Prepared, context: ChannelHandlerContext) {
        var headers = prepared.answer.headers
        headers[.date] = date.text()
        headers[.server] = LecternServer.serverName
        context.write(wrapOutboundOut(.head(HTTPResponse(status: prepared.answer.status, headerFields: headers))), promise: nil)
        if let body = prepared.answer.body { context.write(wrapOutboundOut(.body(body)), promise: nil) }
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        answers.record(prepared, size: headers[.contentLength])
    }
}
