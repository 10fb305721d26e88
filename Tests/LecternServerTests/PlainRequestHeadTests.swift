import Foundation
import NIOCore
import NIOEmbedded
import Site
import Testing
@testable import WebServer

/// What the raw fast path takes itself, and what it leaves to NIO's HTTP parser.
@Suite struct PlainRequestHeadTests {
    private func read(_ text: String) -> PlainRequestHead.Reading {
        Array(text.utf8).withUnsafeBytes { PlainRequestHead.read($0) }
    }

    private func isUnusual(_ text: String) -> Bool {
        if case .unusual = read(text) { return true }
        return false
    }

    @Test func plainGetsAreRead() throws {
        guard case .plain(let head, let length) = read("GET /a%20b?q=1 HTTP/1.1\r\nHost: x\r\nAccept:  text/html \r\nX-Other: 1\r\n\r\nGET") else {
            Issue.record("not plain"); return
        }
        #expect(head.method == .get && head.target == "/a%20b?q=1" && head.path == "/a%20b" && length == 69)
        #expect(head.headers[.accept] == "text/html" && head.headers.count == 1)
        guard case .plain(let headOnly, _) = read("HEAD / HTTP/1.1\r\nhOsT: x\r\nConnection: Keep-Alive\r\n\r\n") else {
            Issue.record("HEAD, kept alive as browsers ask"); return
        }
        #expect(headOnly.method == .head)
    }

    @Test func partialHeadsWait() {
        for text in ["", "GET / HTTP/1.1\r\nHost: x\r\n", "GET / HTTP/1.1\r\nHost: x\r\n\r"] {
            guard case .incomplete = read(text) else { Issue.record("\(text.debugDescription) is not incomplete"); continue }
        }
        #expect(isUnusual("GET /" + String(repeating: "a", count: 9000)), "an endless head goes to the full parser")
        for start in ["G", "GE", "GET", "H", "HEA", "HEAD"] {
            guard case .incomplete = read(start) else { Issue.record("\(start) is not incomplete"); continue }
        }
        for start in ["\u{16}\u{03}\u{01}", "POST", "get ", "HEAD/", "X"] {
            #expect(isUnusual(start), "\(start.debugDescription): no blank line needed to know it is not a plain GET")
        }
    }

    @Test(arguments: [
        "POST / HTTP/1.1\r\nHost: x\r\n\r\n",
        "GET / HTTP/1.0\r\nHost: x\r\n\r\n",
        "GET http://x/ HTTP/1.1\r\nHost: x\r\n\r\n",
        "GET / HTTP/1.1\r\n\r\n",  // no Host
        "GET / HTTP/1.1\r\nHost: x\r\nHost: y\r\n\r\n",
        "GET / HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello",
        "GET / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
        "GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
        "GET / HTTP/1.1\r\nHost: x\r\nConnection: keep-alive, Upgrade\r\nUpgrade: h2c\r\n\r\n",
        "GET / HTTP/1.1\r\nHost: x\nAccept: */*\r\n\r\n",  // bare LF
        "GET / HTTP/1.1\r\nHost: x\r\nAccept: a\r\n b\r\n\r\n",  // obs-fold
        "GET / HTTP/1.1\r\nHost: x\r\nX-Name: caf\u{E9}\r\n\r\n",  // non-ASCII
        "GET / HTTP/1.1\r\nHost: x\r\nAccept: a\r\nAccept: b\r\n\r\n",
        "GET / HTTP/1.1\r\nHost : x\r\n\r\n",
        "GET  / HTTP/1.1\r\nHost: x\r\n\r\n",
        "GET / HTTP/1.1\r\nHost: x\r\nX: a\rb\r\n\r\n",
        "GET / HTTP/1.1\r\nHost: x\r\n" + String(repeating: "a:\r\n", count: 150) + "\r\n",  // more fields than NIO takes
    ])
    func unusualRequestsGoToTheFullParser(_ text: String) {
        #expect(isUnusual(text))
    }

    /// The raw handler alone on a channel, serving a freshly built demo site (at `root`).
    private func rawChannel() throws -> (EmbeddedChannel, URL) {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("lectern-raw-\(UUID().uuidString)")
        try SiteScaffold.create(at: root)
        try SiteBuilder(root: root).build()
        let site = try ServedFiles(publicFolder: root.appendingPathComponent("public"))
        let answers = StaticAnswers(files: StaticFileResponder(site: site), posts: nil, accessLog: nil, metrics: nil)
        return (EmbeddedChannel(handler: RawStaticFastPath(answers: answers)), root)
    }

    /// The handler itself: a plain GET is answered and nothing reaches the next handler; the
    /// first unusual request goes on with every byte after it, and so does all that follows.
    @Test func theHandlerAnswersPlainGetsAndHandsOnTheRest() throws {
        let (channel, root) = try rawChannel()
        defer { try? FileManager.default.removeItem(at: root) }
        try channel.writeInbound(ByteBuffer(string: "GET / HTTP/1.1\r\nHost: x\r\n\r\nGET /feed.xml HTTP/1.1\r\nHo"))
        // One write for the file's head (serialized when the site loaded) with Date and Server,
        // one for the body.
        var head = try #require(try channel.readOutbound(as: ByteBuffer.self))
        let text = head.readString(length: head.readableBytes) ?? ""
        #expect(text.hasPrefix("HTTP/1.1 200 OK\r\nContent-Type: text/html"))
        #expect(text.contains("\r\nDate: ") && text.hasSuffix("\r\nServer: Lectern\r\n\r\n"))
        #expect(try channel.readOutbound(as: ByteBuffer.self)?.readableBytes ?? 0 > 100, "the page's body")
        #expect(try channel.readOutbound(as: ByteBuffer.self) == nil, "the second request is not whole yet")
        try channel.writeInbound(ByteBuffer(string: "st: x\r\n\r\nPOST /inbox HTTP/1.1\r\nHost: x\r\n\r\nGET / HTTP/1.1\r\nHost: x\r\n\r\n"))
        head = try #require(try channel.readOutbound(as: ByteBuffer.self))
        #expect(head.readString(length: 30)?.hasPrefix("HTTP/1.1 200 OK") == true, "the feed, once its head was whole")
        _ = try channel.readOutbound(as: ByteBuffer.self)
        var handedOn = try #require(try channel.readInbound(as: ByteBuffer.self))
        #expect(handedOn.readString(length: handedOn.readableBytes) == "POST /inbox HTTP/1.1\r\nHost: x\r\n\r\nGET / HTTP/1.1\r\nHost: x\r\n\r\n")
        try channel.writeInbound(ByteBuffer(string: "GET / HTTP/1.1\r\nHost: x\r\n\r\n"))
        #expect(try channel.readInbound(as: ByteBuffer.self) != nil, "after that, everything goes on")
        #expect(try channel.readOutbound(as: ByteBuffer.self) == nil)
        _ = try channel.finish()
    }

    /// A head trickled in a byte at a time is searched once, not from its start on every read,
    /// and still answered when whole.
    @Test func aTrickledHeadIsAnsweredWhenWhole() throws {
        let (channel, root) = try rawChannel()
        defer { try? FileManager.default.removeItem(at: root) }
        for byte in "GET / HTTP/1.1\r\nHost: x\r\n\r\n".utf8 {
            #expect(try channel.readOutbound(as: ByteBuffer.self) == nil)
            try channel.writeInbound(ByteBuffer(bytes: [byte]))
        }
        var head = try #require(try channel.readOutbound(as: ByteBuffer.self))
        #expect(head.readString(length: 15) == "HTTP/1.1 200 OK")
        #expect(try channel.readInbound(as: ByteBuffer.self) == nil)
        _ = try channel.finish()
    }

    /// A connection that cannot take more output hands its next request to the full stack.
    @Test func aConnectionThatCannotTakeMoreIsHandedOn() throws {
        let (channel, root) = try rawChannel()
        defer { try? FileManager.default.removeItem(at: root) }
        channel.isWritable = false
        try channel.writeInbound(ByteBuffer(string: "GET / HTTP/1.1\r\nHost: x\r\n\r\n"))
        #expect(try channel.readOutbound(as: ByteBuffer.self) == nil)
        #expect(try channel.readInbound(as: ByteBuffer.self) != nil)
        _ = try channel.finish()
    }
}
