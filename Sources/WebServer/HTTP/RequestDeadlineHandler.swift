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
    /// When the connection is closed unless a request has arrived whole by then; nil while one
    /// is being answered.
    private var deadline: NIODeadline?
    /// One timer at a time, which on firing looks at `deadline` again: a timer scheduled and
    /// cancelled per request cost 6 % of a static page's server time.
    private var timer: Scheduled<Void>?
    /// Kept for `answeredElsewhere`; released when the handler leaves the pipeline.
    private var context: ChannelHandlerContext?
    /// Requests read to their end, and responses written to theirs (pipelining keeps them apart).
    private var requestsCompleted = 0
    private var responsesCompleted = 0

    init(timeout: TimeAmount) { self.timeout = timeout }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        if context.channel.isActive { arm(context) }
    }

    /// A request answered before it reached this handler (`RawStaticFastPath`): the next
    /// request's clock starts now, as after any response.
    func answeredElsewhere() {
        if let context { arm(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        arm(context)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        stop()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        stop()
        self.context = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .end = unwrapInboundIn(data) {
            requestsCompleted += 1
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
        let due = NIODeadline.now() + timeout
        deadline = due
        if timer == nil { schedule(context, at: due) }
    }

    private func schedule(_ context: ChannelHandlerContext, at due: NIODeadline) {
        // Runs on the channel's event loop, like every other method here.
        let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        timer = context.eventLoop.scheduleTask(deadline: due) {
            let (handler, context) = bound.value
            handler.timer = nil
            guard let deadline = handler.deadline else { return }  // a request is being answered
            if deadline <= NIODeadline.now() {
                context.close(promise: nil)
            } else {
                handler.schedule(context, at: deadline)
            }
        }
    }

    private func stop() {
        timer?.cancel()
        timer = nil
        deadline = nil
    }
}
