import ArgumentParser
import Foundation
import LecternServer
import Logging

struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Build the site, then serve it with its ActivityPub endpoints, inbox, deliveries and digests.")

    @OptionGroup var siteOptions: SiteOptions

    @Option(help: "Address to listen on (default: server.host in lectern.yml).")
    var host: String?

    @Option(help: "Port to listen on; 0 picks a free one (default: server.port in lectern.yml).")
    var port: Int?

    @Flag(help: "Rebuild when content, theme or static files change.")
    var watch = false

    @Flag(help: "Include drafts.")
    var drafts = false

    @Option(help: "Log level: trace, debug, info, notice, warning, error, critical.")
    var logLevel: String = "info"

    func run() async throws {
        guard let level = Logger.Level(rawValue: logLevel) else { throw CLIError("unknown log level '\(logLevel)'") }
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        let logger = Logger(label: "lectern")
        let runtime = try await reportingErrors {
            try SiteRuntime(root: siteOptions.root, includeDrafts: drafts, logger: logger)
        }
        let listenHost = host ?? runtime.config.server.host
        let app = runtime.makeApplication(host: listenHost, port: port) { port in
            logger.notice("serving \(runtime.site.fileCount) files on http://\(listenHost):\(port)")
        }
        let background = Task { await runtime.runBackground(watch: watch) }
        defer { background.cancel() }
        try await app.runService()
    }
}
