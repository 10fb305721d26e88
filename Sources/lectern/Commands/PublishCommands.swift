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

    func run() async throws {
        try await reportingErrors {
            let blog = try siteOptions.openBlog()
            let publication = try blog.publish(announce: !noAnnounce)
            let report = publication.report
            print("\(report.created.count) new, \(report.updated.count) updated, \(report.deleted.count) deleted, "
                  + "\(report.skipped.count) recorded without announcing; \(report.deliveries) deliveries queued")
            guard !queueOnly else { return }
            try await DeliverCommand.deliverOrHandOver(blog)
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

    /// Delivers now, unless a running server does it (then it is only told something is queued).
    static func deliverOrHandOver(_ blog: Blog) async throws {
        if let server = ServerPresence(root: blog.root).running() {
            try blog.changed([.deliveries])
            print("the running server (pid \(server["pid"] ?? "?")) delivers them once it serves the new pages")
            return
        }
        try await deliver(blog)
    }

    /// Runs the queue once, with a progress bar on a terminal and plain lines otherwise.
    static func deliver(_ blog: Blog) async throws {
        let start = try blog.deliveryStats()
        let total = start.queued
        guard total > 0 else { print("nothing to deliver"); return }
        let progress = Progress(total: total)
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
        print("\(report.delivered) delivered, \(report.retrying) will be retried, \(report.failed) failed "
              + "in \(String(format: "%.1f", seconds)) s")
    }
}

/// `[#####.....] 512/1000` on a terminal (redrawn in place); a line per 10 % otherwise.
final class Progress: @unchecked Sendable {
    let total: Int
    let isTerminal = isatty(STDOUT_FILENO) != 0
    private var lastTenth = -1
    private let lock = NSLock()

    init(total: Int) { self.total = total }

    func show(done: Int) {
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
        if isTerminal { FileHandle.standardOutput.write(Data("\n".utf8)) }
    }
}
