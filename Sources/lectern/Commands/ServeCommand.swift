import ArgumentParser
import Foundation
import Hummingbird
import LecternServer
import Logging
import Site
import Federation

struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve", abstract: "Build the site, then serve it (and its ActivityPub endpoints).")

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
        let root = siteOptions.root
        guard let level = Logger.Level(rawValue: logLevel) else { throw CLIError("unknown log level '\(logLevel)'") }
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        let logger = Logger(label: "lectern")
        let options = SiteBuilder.Options(includeDrafts: drafts)
        let builder = SiteBuilder(root: root)
        // Build before listening: the server never serves a stale or half-built site.
        let (config, site, activityPub) = try await reportingErrors {
            let config = try SiteConfig.load(from: root)
            let report = try builder.build(options)
            logger.info("built in \(Int(report.seconds * 1000)) ms: \(report.written) written, \(report.reused) unchanged")
            let activityPub = try SiteState.openActivityPub(root: root, config: config)
            try SiteState.refresh(activityPub, root: root, config: config, options: options, logger: logger)
            return (config, try LiveSite(publicFolder: builder.publicFolder), activityPub)
        }
        let app = LecternServer.makeApplication(
            site: site, activityPub: activityPub, host: host ?? config.server.host, port: port ?? config.server.port,
            logger: logger,
            onServerRunning: { port in
                logger.notice("serving \(site.fileCount) files on http://\(host ?? config.server.host):\(port)")
            })
        let watcher = watch ? Task {
            await SiteWatcher(builder: builder, site: site, options: options, logger: logger) {
                try SiteState.refresh(activityPub, root: root, config: config, options: options, logger: logger)
            }.run()
        } : nil
        defer { watcher?.cancel() }
        try await app.runService()
    }
}
