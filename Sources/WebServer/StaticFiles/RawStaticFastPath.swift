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
/// Each file's status line and fields are serialized when the site loads (`StaticFile.Heads`), the
/// `Date`/`Server` tail once a second, a post's `Link` straight into its line; the index and the
/// redirect check share one lock. bench/serve (each run beside nginx), before → after: home
/// 98.1k → 111.0k req/s (+13 %), a post 86.8k → 91.6k (+6 %), then 99.2k with the `Link` and the
/// one lock (+14 %). The heads take 2.7 MB on that 1,000-post site (1,542 files; the server holds
/// 102 MB). `StaticFile` as a class and
/// `Redirects.key` without Foundation's string search (both seen in `perf` under wrk: 18 % of
/// the CPU in retain/release) brought a post to 95.8k against nginx's 116.7k in one run; three
/// alternating 6 s rounds gave 0.79, 0.70 and 0.85 of nginx. Then `perf` put 12.9 % of the
/// server's CPU in `StaticAnswers.prepare` (URI parsing, resolving, the redirect check, each
/// hashing the path again) and 10 % in `write` (four writes per answer): one lookup in a table
/// of plain paths made at load (`ServedFiles.file(atPlainPath:)`) and two writes per answer
/// brought them to 5.4 % and 9.9 %, and the same three rounds to 0.81, 0.89 and 0.93 (a post at
/// 105.6k–117.5k req/s).
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
    /// Strong: a weak reference gives the handler a side table, and every retain and release of
    /// it then takes the runtime's slow path (seen in perf). The cycle through the pipeline (it
    /// keeps its context) ends when the channel closes: NIO removes every handler, and it lets
    /// go of its context then.
    private var deadline: RequestDeadlineHandler?

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

    /// Status line and fields as NIO's HTTP/1 encoder writes them (raw names, `name: value`):
    /// the file's head serialized when the site loaded, a post's `Link`, then `Date` and `Server`
    /// (made once a second per connection), copied into one buffer; then the body. Two writes
    /// instead of four: each write is a trip through NIO's pending-write machinery.
    private func write(_ prepared: StaticAnswers.Prepared, context: ChannelHandlerContext) {
        let answer = prepared.answer
        let tail = date.tail(context.channel.allocator)
        var head: ByteBuffer
        if let page = prepared.page {
            if let pageHead = answer.pageHead {
                head = context.channel.allocator.buffer(capacity: pageHead.readableBytes + tail.readableBytes + page.linkFieldLength)
                head.writeImmutableBuffer(pageHead)
                page.writeLinkField(into: &head)
            } else {
                head = context.channel.allocator.buffer(capacity: 512)
                ResponseHeadBytes.statusLine(answer.status, into: &head)
                page.forEachField(merging: answer.headers, into: &head, ResponseHeadBytes.field)
            }
        } else if let fileHead = answer.head {
            head = context.channel.allocator.buffer(capacity: fileHead.readableBytes + tail.readableBytes)
            head.writeImmutableBuffer(fileHead)
        } else {
            head = context.channel.allocator.buffer(capacity: 512)
            ResponseHeadBytes.statusLine(answer.status, into: &head)
            for field in answer.headers { ResponseHeadBytes.field(&head, field.name, field.value) }
        }
        head.writeImmutableBuffer(tail)
        context.write(wrapOutboundOut(head), promise: nil)
        if let body = answer.body { context.write(wrapOutboundOut(body), promise: nil) }
        deadlineHandler(context)?.answeredElsewhere()
        answers.record(prepared)
    }

    /// Looked up on first use: it is added to the pipeline after this handler. Every connection
    /// has one; the optional is for a pipeline assembled without it (tests).
    private func deadlineHandler(_ context: ChannelHandlerContext) -> RequestDeadlineHandler? {
        if deadline == nil { deadline = try? context.pipeline.syncOperations.handler(type: RequestDeadlineHandler.self) }
        return deadline
    }
}
