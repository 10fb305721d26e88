import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1

/// Hummingbird's HTTP/1 channel with `RawStaticFastPath` in front of its HTTP parser (its own
/// `additionalChannelHandlers` only go after the parser and its conversion to HTTPTypes) and
/// `RequestHeadCheck` right after the parser, where the HTTP version and framing headers are
/// still there to read.
struct LecternHTTP1Channel: ServerChildChannel {
    let inner: HTTP1Channel
    let answers: StaticAnswers

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<HTTP1Channel.Value> {
        do {
            try channel.pipeline.syncOperations.addHandler(RawStaticFastPath(answers: answers))
        } catch {
            return channel.eventLoop.makeFailedFuture(error)
        }
        return inner.setup(channel: channel, logger: logger).flatMapThrowing { value in
            let pipeline = channel.pipeline.syncOperations
            let parser = try pipeline.handler(type: ByteToMessageHandler<HTTPRequestDecoder>.self)
            try pipeline.addHandler(RequestHeadCheck(), position: .after(parser))
            return value
        }
    }

    func handle(value: HTTP1Channel.Value, logger: Logger) async {
        await inner.handle(value: value, logger: logger)
    }
}
