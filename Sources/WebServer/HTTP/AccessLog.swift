import Foundation
import Hummingbird
import Logging
import Parallel
import Synchronization

/// One line per request: method, path, status, body size and time taken, in the shape of the
/// other log lines (`<time> info <label>: component=access [WebServer] GET / 200 5120 0.41ms`).
///
/// Lines are not written through swift-log: its stream handler takes a process-wide lock and
/// makes one `write` per line, and at `info` (the default) that was 13 % of the event loops'
/// time and held static pages to half of nginx's rate (bench/serve with `--log-level info`).
/// They go into one buffer that a thread of its own writes out five times a second.
struct AccessLog: Sendable {
    let label: String
    let sink: AccessLogSink

    /// Nil when the log level hides access lines, so the hot path skips the clock entirely.
    init?(logger: Logger, sink: AccessLogSink = .standardError) {
        guard logger.logLevel <= .info else { return nil }
        (label, self.sink) = (logger.label, sink)
    }

    func record(_ request: Request, status: Int, size: String, since start: ContinuousClock.Instant) {
        record(method: request.method, path: request.uri.path, status: status, size: size, since: start)
    }

    func record(method: HTTPRequest.Method, path: String, status: Int, size: String, since start: ContinuousClock.Instant) {
        let elapsed = ContinuousClock.now - start
        let milliseconds = Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1000
        sink.append(label: label, "\(method) \(path) \(status) \(size) \((milliseconds * 100).rounded() / 100)ms")
    }
}

/// Writes the access lines still waiting (when the server stops).
public func flushAccessLog() { AccessLogSink.standardError.flush() }

/// Access lines waiting to be written, in one buffer; written by the `lectern-log` thread. At
/// most `capacity` bytes wait: when the output cannot keep up (a stalled pipe), later lines are
/// counted and dropped instead of growing memory, and the count is written when it can be.
final class AccessLogSink: Sendable {
    static let standardError = AccessLogSink(descriptor: 2)
    static let capacity = 4 << 20
    private let state = Mutex(State())
    private let descriptor: Int32

    private struct State {
        var pending: [UInt8] = []
        var dropped = 0
        var second = -1
        var stamp = ""
        var writing = false
    }

    init(descriptor: Int32) { self.descriptor = descriptor }

    /// Bytes waiting and lines dropped since the last write.
    var waiting: (bytes: Int, dropped: Int) { state.withLock { ($0.pending.count, $0.dropped) } }

    func append(label: String, _ message: String) {
        let now = time(nil)
        let startWriter = state.withLock { state -> Bool in
            if state.second != now { (state.second, state.stamp) = (now, Self.timestamp(now)) }
            let line = "\(state.stamp) info \(label): component=access [WebServer] \(message)\n"
            guard state.pending.count + line.utf8.count <= Self.capacity else { state.dropped += 1; return false }
            state.pending.append(contentsOf: line.utf8)
            defer { state.writing = true }
            return !state.writing
        }
        if startWriter { NamedThread.start("lectern-log") { [self] in writeOut() } }
    }

    /// Writes what waits every 200 ms until nothing does, then ends (the next line starts it again).
    private func writeOut() {
        while true {
            usleep(200_000)
            let done = state.withLock { state in
                if state.pending.isEmpty && state.dropped == 0 { state.writing = false }
                return !state.writing
            }
            if done { return }
            flush()
        }
    }

    /// Writes what waits now (also at shutdown, so the last requests are logged).
    func flush() {
        let (bytes, dropped) = state.withLock { state -> ([UInt8], Int) in
            defer { (state.pending, state.dropped) = ([], 0) }
            return (state.pending, state.dropped)
        }
        var output = bytes
        if dropped > 0 { output += Array("\(Self.timestamp(time(nil))) warning access log: \(dropped) lines dropped (output too slow)\n".utf8) }
        output.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written > 0 { offset += written } else if errno != EINTR { return }
            }
        }
    }

    /// `2026-12-06T19:41:06+0000`, as swift-log's stream handler writes it.
    private static func timestamp(_ seconds: time_t) -> String {
        var seconds = seconds
        var parts = tm()
        localtime_r(&seconds, &parts)
        var buffer = [Int8](repeating: 0, count: 32)
        let count = strftime(&buffer, buffer.count, "%Y-%m-%dT%H:%M:%S%z", &parts)
        return String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
