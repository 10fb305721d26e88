import ArgumentParser
import Delivery
import Foundation
import Interactions
import LecternRuntime
import Site
import Storage

struct PublishCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "publish",
        abstract: "Build, tell followers about new, changed and removed posts, and deliver.",
        discussion: """
            With a running `lectern serve`, the activities are handed to it: it delivers them once it serves the
            new pages, so followers never fetch a page that is not there yet. Without one, they are delivered now.

            Example: lectern publish -s mysite
            """)

    @OptionGroup var siteOptions: SiteOptions

    @Flag(help: "Record new posts as published without announcing them (back-dated imports).")
    var noAnnounce = false

    @Flag(help: "Queue the activities only; a running `lectern serve` (or `lectern deliver`) sends them.")
    var queueOnly = false

    @Flag(help: "Print what was published and delivered as JSON: {created, updated, deleted, recordedWithoutAnnouncing, deliveriesQueued, delivery}.")
    var json = false

    /// `lectern publish --json`: the posts by path, and what became of the deliveries (nil with `--queue-only`).
    struct Summary: Encodable {
        var created: [String], updated: [String], deleted: [String], recordedWithoutAnnouncing: [String]
        var deliveriesQueued: Int
        var delivery: DeliverCommand.Outcome?
        /// Why nothing was sent anywhere (a blog others cannot reach).
        var quiet: String?
    }

    func run() async throws {
        try await reportingErrors {
            let blog = try siteOptions.openBlog()
            let publication = try blog.publish(announce: !noAnnounce)
            let report = publication.report
            if !json {
                print("\(report.created.count) new, \(report.updated.count) updated, \(report.deleted.count) deleted, "
                      + "\(report.skipped.count) recorded without announcing; \(report.deliveries) deliveries queued")
                if let quiet = report.quiet { print("nothing sent, to anyone: \(quiet) (a local blog; set a public https baseURL to go live)") }
            }
            let delivery = queueOnly ? nil : try await DeliverCommand.deliverOrHandOver(blog, quiet: json)
            if json {
                try JSONOutput.print(Summary(created: report.created, updated: report.updated, deleted: report.deleted,
                                             recordedWithoutAnnouncing: report.skipped, deliveriesQueued: report.deliveries,
                                             delivery: delivery, quiet: report.quiet))
            }
        }
    }
}

struct DeliverCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "deliver", abstract: "Send every delivery that is due, once, then exit (for cron or tests).",
        discussion: "Example: lectern deliver -s /var/lib/lectern")

    @OptionGroup var siteOptions: SiteOptions

    func run() async throws {
        try await reportingErrors {
            let blog = try siteOptions.openBlog()
            try await Self.deliver(blog)
        }
    }

    /// What became of the queue: handed to a running server, or delivered now (`--json`).
    struct Outcome: Encodable {
        /// The running server's pid when it delivers them once it serves the new pages.
        var handedToServer: String?
        var delivered = 0, retrying = 0, failed = 0
        var seconds = 0.0
    }

    /// Delivers now, unless a running server does it (then it is only told something is queued).
    @discardableResult
    static func deliverOrHandOver(_ blog: Blog, quiet: Bool = false) async throws -> Outcome {
        if let server = ServerPresence(root: blog.root).running() {
            try blog.changed([.deliveries])
            let pid = server["pid"] ?? "?"
            if !quiet { print("the running server (pid \(pid)) delivers them once it serves the new pages") }
            return Outcome(handedToServer: pid)
        }
        return try await deliver(blog, quiet: quiet)
    }

    /// Runs the queue once, with a progress bar on a terminal and plain lines otherwise (nothing when `quiet`).
    @discardableResult
    static func deliver(_ blog: Blog, quiet: Bool = false) async throws -> Outcome {
        let start = try blog.deliveryStats()
        let total = start.queued
        guard total > 0 else {
            if !quiet { print("nothing to deliver") }
            return Outcome()
        }
        let progress = Progress(total: total, silent: quiet)
        let ticker = Task {
            while !Task.isCancelled {
                try? await Task.sleep(for: .milliseconds(200))
                if let now = try? blog.deliveryStats() { progress.show(done: total - now.queued) }
            }
        }
        let clock = ContinuousClock.now
        var report = await blog.delivery.runOnce()
        if report.unavailable == nil { report.add(await blog.webmentionSender().runOnce()) }
        ticker.cancel()
        progress.finish()
        if let reason = report.unavailable { throw CLIError("nothing was delivered: \(reason)") }
        let seconds = Double((ContinuousClock.now - clock).components.attoseconds) / 1e18 + Double((ContinuousClock.now - clock).components.seconds)
        if !quiet {
            print("\(report.delivered) delivered, \(report.retrying) will be retried, \(report.failed) failed "
                  + "in \(String(format: "%.1f", seconds)) s")
        }
        return Outcome(delivered: report.delivered, retrying: report.retrying, failed: report.failed, seconds: (seconds * 1000).rounded() / 1000)
    }
}

/// `[#####.....] 512/1000` on a terminal (redrawn in place); a line per 10 % otherwise.
final class Progress: @unchecked Sendable {
    let total: Int
    let isTerminal = isatty(STDOUT_FILENO) != 0
    /// Shows nothing (`--json`: stdout is the document).
    let silent: Bool
    private var lastTenth = -1
    private let lock = NSLock()

    init(total: Int, silent: Bool = false) { (self.total, self.silent) = (total, silent) }

    func show(done: Int) {
        guard !silent else { return }
        lock.withLock {
            let done = min(max(0, done), total)
            if isTerminal {
                let filled = total == 0 ? 30 : done * 30 / total
                let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: 30 - filled)
                FileHandle.standardOutput.write(Data("\r[\(bar)] \(done)/\(total)".utf8))  // unbuffered: redraws at once
            } else if total > 0, done * 10 / total > lastTenth {
                lastTenth = done * 10 / total
                print("delivered \(done)/\(total)")
            }
        }
    }

    func finish() {
        if isTerminal && !silent { FileHandle.standardOutput.write(Data("\n".utf8)) }
    }
}
