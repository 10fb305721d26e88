import Foundation
import Testing
import LecternRuntime
@testable import WebServer

/// `lectern serve --watch`: the open page reloads after a rebuild and shows a build error; a
/// server without --watch serves the files exactly as built (issue 37).
@Suite(.serialized) struct LiveReloadTests {
    /// Reads a Server-Sent Events stream until `found` holds for what arrived, or `seconds` pass.
    func events(_ connection: RawConnection, within seconds: Double, until found: (String) -> Bool) -> String {
        var text = ""
        let end = Date().addingTimeInterval(seconds)
        while Date() < end, !found(text) {
            guard let bytes = connection.receiveBytes(within: 0.2) else { break }
            text += String(decoding: bytes, as: UTF8.self)
        }
        return text
    }

    @Test func aRebuildReloadsTheOpenPageAndABuildErrorShows() async throws {
        let remote = try FakeInstance()
        try await remote.start()
        defer { remote.stop() }
        let blog = try await BlogFixture(remote: remote, watch: true)
        defer { blog.stop() }
        let page = try await blog.get("/")
        #expect(page.body.contains("<script src=\"/_lectern/live.js\" defer></script>\n</body>"))
        #expect(!(try String(contentsOf: blog.root.appendingPathComponent("public/index.html"), encoding: .utf8)).contains("live.js"),
                "nothing is injected into public/")
        let script = try await blog.get("/_lectern/live.js")
        #expect(script.status == 200 && script.body.contains("EventSource"))

        let connection = try RawConnection(port: blog.port)
        connection.send("GET /_lectern/live HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n")
        let hello = events(connection, within: 5) { $0.contains("event: hello") }
        #expect(hello.contains("text/event-stream") && hello.contains("event: hello"), "\(hello)")

        // The writer saves a post: the page reloads.
        let posts = blog.root.appendingPathComponent("content/posts")
        try "---\ntitle: Fresh words\ndate: 2025-05-01\n---\nNew.\n".write(to: posts.appendingPathComponent("fresh.md"), atomically: true, encoding: .utf8)
        let reload = events(connection, within: 10) { $0.contains("event: reload") }
        #expect(reload.contains("event: reload"), "\(reload)")
        #expect(try await blog.get("/").body.contains("Fresh words"))

        // A broken file: the page shows the error, naming the file and line.
        let again = try RawConnection(port: blog.port)
        again.send("GET /_lectern/live HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        _ = events(again, within: 5) { $0.contains("event: hello") }
        try "---\ntitle: Broken\ndate: someday\n---\nx\n".write(to: posts.appendingPathComponent("broken.md"), atomically: true, encoding: .utf8)
        let failure = events(again, within: 10) { $0.contains("event: failure") && $0.contains("broken.md") }
        #expect(failure.contains("event: failure") && failure.contains("data: content/posts/broken.md:3"), "\(failure)")
        #expect(try await blog.get("/").body.contains("Fresh words"), "the previous site is still served")
    }

    /// A writer fixes a broken file: the page reloads once, not again when the failed build's
    /// retry comes due (it is covered by the build that succeeded).
    @Test func aFixedFileReloadsThePageOnce() async throws {
        let remote = try FakeInstance()
        try await remote.start()
        defer { remote.stop() }
        let blog = try await BlogFixture(remote: remote, watch: true)
        defer { blog.stop() }
        let port = blog.port, suite = self
        let broken = blog.root.appendingPathComponent("content/posts/broken.md")
        let said = try await OffPool.run { () throws -> String in
            let connection = try RawConnection(port: port)
            connection.send("GET /_lectern/live HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            _ = suite.events(connection, within: 5) { $0.contains("event: hello") }
            try "---\ntitle: Broken\ndate: someday\n---\nx\n".write(to: broken, atomically: true, encoding: .utf8)
            _ = suite.events(connection, within: 10) { $0.contains("event: failure") }
            try "---\ntitle: Mended\ndate: 2025-05-02\n---\nx\n".write(to: broken, atomically: true, encoding: .utf8)
            // Past the failed build's first retries (2 s, then 4 s later).
            var text = ""
            let end = Date().addingTimeInterval(8)
            while Date() < end {
                if let bytes = connection.receiveBytes(within: 0.2) { text += String(decoding: bytes, as: UTF8.self) }
            }
            return text
        }
        #expect(said.components(separatedBy: "event: reload").count - 1 == 1, "\(said)")
        #expect(try await blog.get("/").body.contains("Mended"))
    }

    /// A stream's place frees as its client closes the connection (not after a timer), and one
    /// client address cannot take every place (a timer freed them: 503 still 7 and 12 s after 16 left).
    @Test func placesFreeOnCloseAndOneAddressCannotTakeThemAll() async throws {
        let remote = try FakeInstance()
        try await remote.start()
        defer { remote.stop() }
        let blog = try await BlogFixture(remote: remote, watch: true)
        defer { blog.stop() }
        let live = try #require(blog.server.site.liveReload)
        // On a thread of its own: the server answering runs on the pool a blocking read would hold.
        let port = blog.port, suite = self
        func open(from address: String) async throws -> (RawConnection, String) {
            try await OffPool.run {
                let connection = try RawConnection(port: port, from: address)
                connection.send("GET /_lectern/live HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                return (connection, suite.events(connection, within: 5) { $0.contains("event: hello") || $0.contains(" 503 ") })
            }
        }
        // One address: its share, then 503.
        var first: [RawConnection] = []
        for _ in 0..<LiveReload.maximumPerAddress {
            let (connection, answer) = try await open(from: "127.0.0.2")
            #expect(answer.contains("event: hello"), "\(answer)")
            first.append(connection)
        }
        #expect(try await open(from: "127.0.0.2").1.contains(" 503 "))
        // Others still get in, up to the overall bound.
        var others: [RawConnection] = []
        for index in 0..<(LiveReload.maximumListeners - LiveReload.maximumPerAddress) {
            let (connection, answer) = try await open(from: "127.0.0.\(3 + index % 2)")
            #expect(answer.contains("event: hello"), "\(answer)")
            others.append(connection)
        }
        #expect(try await open(from: "127.0.0.5").1.contains(" 503 "))
        #expect(live.openStreams() == LiveReload.maximumListeners)

        // Every client leaves: the places are free within seconds, long before any keep-alive (the
        // server notices each close on its own; a loaded machine may take longer than a second).
        let left = ContinuousClock.now
        first.removeAll()
        others.removeAll()
        while live.openStreams() > 0, ContinuousClock.now - left < .seconds(10) { try await Task.sleep(for: .milliseconds(20)) }
        let freedIn = ContinuousClock.now - left
        #expect(live.openStreams() == 0 && freedIn < .seconds(3), "\(live.openStreams()) open after \(freedIn)")
        #expect(try await open(from: "127.0.0.2").1.contains("event: hello"))
    }

    @Test func withoutWatchNothingIsInjected() async throws {
        let remote = try FakeInstance()
        try await remote.start()
        defer { remote.stop() }
        let blog = try await BlogFixture(remote: remote)
        defer { blog.stop() }
        #expect(!(try await blog.get("/").body.contains("live.js")))
        #expect(try await blog.get("/_lectern/live").status == 404)
        #expect(try await blog.get("/_lectern/live.js").status == 404)
    }

    @Test func anErrorCannotStartAFieldOfItsOwn() async throws {
        let live = LiveReload()
        live.buildFailed("content/x.md:1: alias 'a\revent: reload\rdata: injected' and\r\nmore")
        #expect(live.current.failure != nil)
        let remote = try FakeInstance()
        try await remote.start()
        defer { remote.stop() }
        let blog = try await BlogFixture(remote: remote, watch: true)
        defer { blog.stop() }
        blog.server.site.liveReload?.buildFailed("alias 'a\revent: reload\rdata: injected'")
        let connection = try RawConnection(port: blog.port)
        connection.send("GET /_lectern/live HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        let stream = events(connection, within: 5) { $0.contains("injected") }
        #expect(stream.contains("data: alias 'a\ndata: event: reload\ndata: data: injected'"), "\(stream.debugDescription)")
        #expect(!stream.contains("\revent"))
    }

    @Test func injectionGoesBeforeTheLastBodyEndTag() {
        #expect(LiveReload.inject(into: Array("<p>&lt;/body></p></body></html>".utf8))
                == Array("<p>&lt;/body></p><script src=\"/_lectern/live.js\" defer></script>\n</body></html>".utf8))
        #expect(LiveReload.inject(into: Array("no end".utf8)) == Array("no end<script src=\"/_lectern/live.js\" defer></script>\n".utf8))
    }
}
