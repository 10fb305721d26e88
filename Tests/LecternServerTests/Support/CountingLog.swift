import Logging

/// A log handler that keeps every line's message, for tests that count what a loop says.
struct CountingLog: LogHandler {
    let lines: Box<[String]>
    var logLevel: Logger.Level = .info
    var metadata: Logger.Metadata = [:]

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        lines.update { $0.append("\(event.level) \(event.message)") }
    }
}
