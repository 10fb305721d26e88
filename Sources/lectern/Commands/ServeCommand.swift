import ArgumentParser
import BlogModel
import Foundation
import LecternRuntime
import WebServer
import Logging
import NIOCore
import Site
import Storage

struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Build the site, then serve it with its ActivityPub endpoints, inbox, deliveries and digests.",
        discussion: """
            Changes made by other commands (publish, build, comments, blocks, keys) and edits of lectern.yml are
            served within a second; SIGHUP reloads everything. With --watch, edits of content/, theme/ and static/
            are rebuilt and published too.

            Example: lectern serve -s mysite --port 8080
            """)

    @OptionGroup var siteOptions: SiteOptions

    @Option(help: "Address to listen on (default: server.host in lectern.yml).")
    var host: String?

    @Option(parsing: .unconditional, help: "Port to listen on, 1–65535; 0 picks a free one (default: server.port in lectern.yml).")
    var port: Int?

    @Flag(help: "Rebuild and publish when content, theme or static files change; open pages reload themselves and show build errors.")
    var watch = false

    @Flag(help: "Include drafts (a preview: shown on the pages, never announced to followers).")
    var drafts = false

    @Option(help: "Log level: trace, debug, info, notice, warning, error, critical.")
    var logLevel: String = "info"

    @Option(help: "Serve /healthz and /metrics (Prometheus) on this port of 127.0.0.1; off by default.")
    var adminPort: Int?

    func validate() throws {
        if let adminPort, !(1...65535).contains(adminPort) { throw ValidationError("--admin-port must be between 1 and 65535, not \(adminPort)") }
        if let port, !(0...65535).contains(port) { throw ValidationError("--port must be between 1 and 65535 (or 0 for any free port), not \(port)") }
        if Logger.Level(rawValue: logLevel) == nil { throw ValidationError("unknown log level '\(logLevel)'") }
    }

    func run() async throws {
        let level = Logger.Level(rawValue: logLevel)!
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        var options = Blog.Options()
        options.includeDrafts = drafts
        options.logger = Logger(label: "lectern")
        let exported = adminPort.map { _ in AdminServer.metrics() }
        if let (metrics, _) = exported { options.metrics = metrics }
        let logger = options.logger
        guard let opened = try await openWaitingOutFullDisk(options, logger: logger) else { return }
        let (server, presence) = try await reportingErrors { () throws -> (BlogServer, FileLock) in
            let blog = opened
            try blog.activityPub.readKeys()  // opening reads none (a build signs nothing)
            let listen = "\(host ?? blog.config.server.host):\(port ?? blog.config.server.port)"
            guard let presence = try ServerPresence(root: blog.root).claim(address: listen) else {
                let other = ServerPresence(root: blog.root).running()
                throw CLIError("another lectern serve runs for this site (pid \(other?["pid"] ?? "?"), \(other?["address"] ?? "?"))")
            }
            return (try BlogServer(blog: blog, watch: watch), presence)
        }
        let listenHost = host ?? server.blog.config.server.host
        let listenPort = port ?? server.blog.config.server.port
        // A loopback baseURL on another port than the one served: every link and id points elsewhere.
        if let base = URLComponents(string: server.blog.config.baseURL), ["127.0.0.1", "localhost"].contains(base.host ?? ""),
           let basePort = base.port, listenPort != 0, basePort != listenPort {
            logger.warning("baseURL \(server.blog.config.baseURL) names port \(basePort), but the server listens on \(listenPort): links and ActivityPub ids point elsewhere; set baseURL to http://\(base.host ?? "127.0.0.1"):\(listenPort)")
        }
        var admin: BlogServer.Admin?
        if let adminPort, let registry = exported?.1 {
            admin = BlogServer.Admin(port: adminPort, registry: registry) { port in
                logger.notice("admin: /healthz and /metrics on http://127.0.0.1:\(port)")
            }
        }
        let app = server.makeApplication(host: listenHost, port: listenPort, admin: admin) { port in
            presence.write("pid=\(ProcessInfo.processInfo.processIdentifier)\naddress=\(listenHost):\(port)\nsince=\(Int(Date().timeIntervalSince1970))\n")
            logger.notice("serving \(server.site.fileCount) files on http://\(listenHost):\(port)")
        }
        defer { flushAccessLog() }
        do {
            try await app.runService()
        } catch let error as IOError where error.errnoCode == EADDRINUSE {
            FileHandle.standardError.write(Data("error: port \(listenPort) is in use (another server listens on \(listenHost):\(listenPort))\n".utf8))
            throw ExitCode.failure
        } catch let error as IOError where error.errnoCode == EACCES {
            FileHandle.standardError.write(Data("error: not allowed to listen on port \(listenPort) (ports below 1024 need privileges)\n".utf8))
            throw ExitCode.failure
        }
        withExtendedLifetime(presence) {}
    }

    /// The blog, opened; on a disk too full to open its database, the built site is served
    /// read-only until there is room, then opened (nil: a signal stopped the server meanwhile).
    private func openWaitingOutFullDisk(_ options: Blog.Options, logger: Logger) async throws -> Blog? {
        let disk = FullDiskBackoff("server", folder: siteOptions.root.appendingPathComponent("data").path, logger: logger)
        while true {
            do {
                return try siteOptions.openBlog(options)
            } catch let error where disk.hasNoRoom {
                let why = ReadOnlyServer.reason(error)
                let roomAgain = try await reportingErrors {
                    let config = try SiteConfig.load(from: siteOptions.root)
                    let listenHost = host ?? config.server.host
                    return try await ReadOnlyServer.serveUntilRoom(root: siteOptions.root, host: listenHost, port: port ?? config.server.port,
                                                                   why: why, logger: logger) { port, files in
                        logger.error("serving \(files) files read-only on http://\(listenHost):\(port): \(why)")
                    }
                }
                guard roomAgain else { return nil }
                logger.notice("the disk has room again: opening the blog")
            } catch {
                return try await reportingErrors { throw error }
            }
        }
    }
}
