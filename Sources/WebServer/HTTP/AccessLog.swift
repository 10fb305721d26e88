import Hummingbird
import Logging

/// One line per request: method, path, status, body size and time taken.
struct AccessLog: Sendable {
    let logger: Logger

    /// Nil when the log level hides access lines, so the hot path skips the clock entirely.
    init?(logger: Logger) {
        guard logger.logLevel <= .info else { return nil }
        var logger = logger
        logger[metadataKey: "component"] = "access"
        self.logger = logger
    }

    func record(_ request: Request, status: Int, size: String, since start: ContinuousClock.Instant) {
        record(method: request.method, path: request.uri.path, status: status, size: size, since: start)
    }

    func record(method: HTTPRequest.Method, path: String, status: Int, size: String, since start: ContinuousClock.Instant) {
        let elapsed = ContinuousClock.now - start
        let milliseconds = Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1000
        logger.info("\(method) \(path) \(status) \(size) \((milliseconds * 100).rounded() / 100)ms")
    }
}
