import Foundation
import HTTPTypes
import Hummingbird
import Synchronization

/// `lectern serve --watch`: the open page reloads itself after a rebuild, and a build error
/// shows in the browser as well as in the terminal. Only a watching server has it: its pages
/// get one `<script src="/_lectern/live.js">` before `</body>` as they are loaded into memory
/// (never in the files of `public/`, so nothing of it reaches a production build), and the
/// script listens to `/_lectern/live` (Server-Sent Events).
///
/// Each event carries the site's generation as its id; a browser reconnecting sends it back
/// (`Last-Event-ID`) and hears at once of a rebuild it missed. A stream ends after `streamLength`
/// (the browser reconnects). A page that goes away frees its place as its connection closes
/// (Hummingbird hears the close and cancels the stream), and one that vanishes without closing
/// within `keepAlive` (a comment line fails to write). At most `maximumListeners` are open, and
/// `maximumPerAddress` from one client address: a writer's few tabs, never an unbounded number
/// of held connections, nor one client holding every place.
public final class LiveReload: Sendable {
    static let scriptPath = "/_lectern/live.js"
    static let eventsPath = "/_lectern/live"
    static let maximumListeners = 16
    /// A browser opens at most six connections to one host over HTTP/1.1: a writer's tabs fit.
    static let maximumPerAddress = 8
    static let streamLength: Duration = .seconds(60)
    static let pollInterval: Duration = .milliseconds(200)
    static let keepAlive: Duration = .seconds(5)
    /// What goes before `</body>` of every page served.
    static let snippet = Array("<script src=\"\(scriptPath)\" defer></script>\n".utf8)

    private let state = Mutex<(generation: Int, failure: String?)>((1, nil))
    /// Open streams by client address.
    private let listeners = Mutex<[String: Int]>([:])

    public init() {}

    /// The served site was replaced by a new build (clears a failure shown before).
    public func siteChanged() { state.withLock { $0 = ($0.generation + 1, nil) } }

    /// A rebuild failed: the previous site is still served; the pages say why.
    public func buildFailed(_ message: String) { state.withLock { $0.failure = message } }

    var current: (generation: Int, failure: String?) { state.withLock { $0 } }

    /// `page` with the script before its last `</body>` (appended when it has none).
    static func inject(into page: [UInt8]) -> [UInt8] {
        let close = Array("</body>".utf8)
        var index = page.count - close.count
        while index >= 0 {
            if page[index] == close[0], Array(page[index..<index + close.count]) == close {
                return Array(page[..<index]) + snippet + Array(page[index...])
            }
            index -= 1
        }
        return page + snippet
    }

    func add(to router: Router<BlogRequestContext>) {
        router.get(RouterPath(Self.scriptPath)) { _, _ in
            Response(status: .ok, headers: [.contentType: "text/javascript; charset=utf-8", .cacheControl: "no-store"],
                     body: .init(byteBuffer: ByteBuffer(string: Self.script)))
        }
        router.get(RouterPath(Self.eventsPath)) { [self] request, context in
            let address = context.remoteAddress?.ipAddress ?? "unknown"
            guard claimPlace(for: address) else {
                return Response(status: .serviceUnavailable, headers: [.retryAfter: "5", .contentLength: "0"])
            }
            let seen = request.headers[HTTPField.Name("Last-Event-ID")!].flatMap(Int.init)
            return Response(status: .ok, headers: [.contentType: "text/event-stream", .cacheControl: "no-store"],
                            body: .init { [self] writer in
                defer { freePlace(of: address) }
                // Cancelled when the client closes its side: the place frees at once.
                try await request.body.consumeWithCancellationOnInboundClose { _ in
                    try await stream(to: &writer, seen: seen)
                }
                try await writer.finish(nil)
            })
        }
    }

    /// Open streams, in all and from `address`.
    func openStreams(from address: String? = nil) -> Int {
        listeners.withLock { open in address.map { open[$0] ?? 0 } ?? open.values.reduce(0, +) }
    }

    private func claimPlace(for address: String) -> Bool {
        listeners.withLock { open in
            guard open.values.reduce(0, +) < Self.maximumListeners, open[address, default: 0] < Self.maximumPerAddress else { return false }
            open[address, default: 0] += 1
            return true
        }
    }

    private func freePlace(of address: String) {
        listeners.withLock { open in
            open[address, default: 1] -= 1
            if open[address] == 0 { open.removeValue(forKey: address) }
        }
    }

    private func stream(to writer: inout any ResponseBodyWriter, seen: Int?) async throws {
        var (generation, failure) = current
        // A browser back after a rebuild it missed reloads at once; a new one learns the generation.
        try await writer.write(ByteBuffer(string: "retry: 500\nid: \(generation)\nevent: \(seen.map { $0 != generation } == true ? "reload" : "hello")\ndata:\n\n"))
        if let failure { try await writer.write(Self.failureEvent(failure, generation: generation)) }
        let end = ContinuousClock.now + Self.streamLength
        var lastWrite = ContinuousClock.now
        while ContinuousClock.now < end, !Task.isCancelled {
            try await Task.sleep(for: Self.pollInterval)
            let now = current
            // A comment line now and then: a page that went away fails the write and frees its place.
            if ContinuousClock.now - lastWrite > Self.keepAlive {
                try await writer.write(ByteBuffer(string: ": ping\n\n"))
                lastWrite = ContinuousClock.now
            }
            if now.generation != generation {
                try await writer.write(ByteBuffer(string: "id: \(now.generation)\nevent: reload\ndata:\n\n"))
            } else if let message = now.failure, message != failure {
                try await writer.write(Self.failureEvent(message, generation: now.generation))
            }
            (generation, failure) = now
        }
    }

    private static func failureEvent(_ message: String, generation: Int) -> ByteBuffer {
        // Split on every line end an event stream knows (CR, LF, CR LF), by scalar: a CR left in
        // a `data:` line would end it and let the rest (an alias, a file name) start a new field.
        let lines = message.unicodeScalars.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r" }
            .map { "data: " + String(String.UnicodeScalarView($0)) }.joined(separator: "\n")
        return ByteBuffer(string: "id: \(generation)\nevent: failure\n\(lines)\n\n")
    }

    /// Reloads on `reload`; shows a build error as text (never as HTML) in a box over the page.
    static let script = """
    (() => {
      const events = new EventSource("\(eventsPath)");
      events.addEventListener("reload", () => location.reload());
      events.addEventListener("failure", (event) => {
        let box = document.getElementById("lectern-build-error");
        if (!box) {
          box = document.createElement("pre");
          box.id = "lectern-build-error";
          box.setAttribute("role", "alert");
          box.style.cssText = "position:fixed;left:0;right:0;bottom:0;margin:0;padding:1em;max-height:50vh;overflow:auto;" +
            "background:#7f1d1d;color:#fff;font:14px/1.4 monospace;white-space:pre-wrap;z-index:2147483647";
          document.body.appendChild(box);
        }
        box.textContent = "lectern: the last build failed; still serving the previous site\\n\\n" + event.data;
      });
    })();
    """
}
