import HummingbirdCore
import Logging
import NIOCore

/// Hummingbird's HTTP/1 channel with `RawStaticFastPath` in front of its HTTP parser (its own
/// `additionalChannelHandlers` only go after the parser).
struct LecternHTTP1Channel: ServerChildChannel {
    let inner: HTTP1Channel
    let answers: StaticAnswers

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<HTTP1Channel.Value> {
        do {
            try channel.pipeline.syncOperations.addHandler(RawStaticFastPath(answers: answers))
        } catch {
            return channel.eventLoop.makeFailedFuture(error)
        }
        return inner.setup(channel: channel, logger: logger)
    }

    func handle(value: HTTP1Channel.Value, logger: Logger) async {
        await inner.handle(value: value, logger: logger)
    }
}
