import NIOCore
import NIOHTTPTypes

/// Closes a connection whose client takes longer than `timeout` to deliver a whole request —
/// head and body — counted from when the connection opened or the previous response ended.
///
/// An idle timeout alone is not enough: a client that trickles one byte a second is never idle,
/// yet holds a connection (and, for a POST, a body buffer) forever; a few hundred such clients
/// (slowloris) would hold them all. The same deadline also ends idle keep-alive connections.
/// Time spent producing a response does not count: a slow key fetch is the server's business.
final class RequestDeadlineHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    let timeout: TimeAmount
    private var deadline: Scheduled<Void>?
    /// Requests read to their end, and responses written to theirs (pipelining keeps them apart).
    private var requestsCompleted = 0
    private var responsesCompleted = 0

    init(timeout: TimeAmount) { self.timeout = timeout }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { arm(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        arm(context)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        deadline?.cancel()
        deadline = nil
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        deadline?.cancel()
        deadline = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .end = unwrapInboundIn(data) {
            requestsCompleted += 1
            deadline?.cancel()
            deadline = nil
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) {
            responsesCompleted += 1
            // The next request's clock starts now, unless it already arrived whole.
            if responsesCompleted >= requestsCompleted { arm(context) }
        }
        context.write(data, promise: promise)
    }

    private func arm(_ context: ChannelHandlerContext) {
        deadline?.cancel()
        let channel = context.channel
        deadline = context.eventLoop.scheduleTask(in: timeout) { channel.close(promise: nil) }
    }
}
