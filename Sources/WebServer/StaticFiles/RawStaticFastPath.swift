import HTTPTypes
import NIOCore

/// The first handler of a connection: plain GETs for files of the built site are answered from
/// the raw bytes, before NIO's HTTP parser, HTTPTypes and Hummingbird see them.
///
/// Measured with `wrk -t2 -c64` on the 1,000-post site (bench/serve): the full stack cost 47.8 µs
/// of server CPU per request, answering right after NIO's HTTP parser 39 µs, from the raw bytes
/// 17.3 µs; nginx spends 14.8 µs. After NIO's parser, most of the cost is its own machinery
/// (llhttp callbacks, HTTPTypes conversions, header encoding), so the plain cases skip it.
///
/// A connection starts here; the first request that is not plain (`PlainRequestHead`), or not a
/// file answered from memory, is handed on with every byte after it, and the connection stays
/// with the full stack from then on. Nothing is handed on before that, so answers keep their
/// order. The answer is the same `StaticAnswers` one, serialized as NIO would (tested byte for
/// byte), and the request deadline is re-armed as for any answer.
final class RawStaticFastPath: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let answers: StaticAnswers
    /// Bytes of a head not yet whole, and how many of them were searched for its end already.
    private var buffered: ByteBuffer?
    private var searched = 0
    /// Set once a request went to the full stack: from then on every byte does.
    private var handingOn = false
    private var date = DateHeader()
    private weak var deadline: RequestDeadlineHandler?

    init(answers: StaticAnswers) { self.answers = answers }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !handingOn else { return context.fireChannelRead(data) }
        var bytes = unwrapInboundIn(data)
        if var earlier = buffered {
            buffered = nil
            earlier.writeBuffer(&bytes)
            bytes = earlier
        }
        var answered = false
        while bytes.readableBytes > 0 {
            let searchFrom = searched
            let reading = bytes.withUnsafeReadableBytes { PlainRequestHead.read($0, searchFrom: searchFrom) }
            searched = 0
            switch reading {
            case .incomplete:
                buffered = bytes
                searched = bytes.readableBytes
                if answered { context.flush() }
                return
            case .unusual:
                handOn(bytes, context: context, flushing: answered)
                return
            case .plain(let head, let length):
                // A client that does not read its answers: the full stack's backpressure (it stops
                // reading while the connection cannot take more) applies from here on.
                guard context.channel.isWritable,
                      let prepared = answers.prepare(head) else {
                    handOn(bytes, context: context, flushing: answered)
                    return
                }
                bytes.moveReaderIndex(forwardBy: length)
                write(prepared, context: context)
                answered = true
            }
        }
        if answered { context.flush() }
    }

    private func handOn(_ bytes: ByteBuffer, context: ChannelHandlerContext, flushing: Bool) {
        if flushing { context.flush() }
        handingOn = true
        context.fireChannelRead(wrapInboundOut(bytes))
    }

    /// Status line and fields as NIO's HTTP/1 encoder writes them (raw names, `name: value`).
    private func write(_ prepared: StaticAnswers.Prepared, context: ChannelHandlerContext) {
        let answer = prepared.answer
        var head = context.channel.allocator.buffer(capacity: 512)
        head.writeString("HTTP/1.1 \(answer.status.code) \(answer.status.reasonPhrase)\r\n")
        if let page = prepared.page {
            page.forEachField(merging: answer.headers, into: &head, Self.writeField)
        } else {
            for field in answer.headers { Self.writeField(&head, field.name, field.value) }
        }
        head.writeStaticString("Date: ")
        head.writeString(date.text())
        head.writeStaticString("\r\nServer: ")
        head.writeString(LecternServer.serverName)
        head.writeStaticString("\r\n\r\n")
        context.write(wrapOutboundOut(head), promise: nil)
        if let body = answer.body { context.write(wrapOutboundOut(body), promise: nil) }
        deadlineHandler(context)?.answeredElsewhere()
        answers.record(prepared)
    }

    private static func writeField(_ head: inout ByteBuffer, _ name: HTTPField.Name, _ value: String) {
        head.writeString(name.rawName)
        head.writeStaticString(": ")
        head.writeString(value)
        head.writeStaticString("\r\n")
    }

    /// Looked up on first use: it is added to the pipeline after this handler. Every connection
    /// has one; the optional is for a pipeline assembled without it (tests).
    private func deadlineHandler(_ context: ChannelHandlerContext) -> RequestDeadlineHandler? {
        if deadline == nil { deadline = try? context.pipeline.syncOperations.handler(type: RequestDeadlineHandler.self) }
        return deadline
    }
}
