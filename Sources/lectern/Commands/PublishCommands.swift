import ArgumentParser
import Delivery
import Federation
import Foundation
import LecternServer
import Site
import Store

struct PublishCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "publish",
        abstract: "Build, tell followers about new, changed and removed posts, and deliver.")

    @OptionGroup var siteOptions: SiteOptions

    @Flag(help: "Record new posts as published without announcing them (back-dated imports).")
    var noAnnounce = false

    @Flag(help: "Queue the activities only; a running `lectern serve` (or `lectern deliver`) sends them.")
    var queueOnly = false

    func run() async throws {
        try await reportingErrors {
            let root = siteOptions.root
            let store = try SiteState.openStore(root: root)
            try SiteBuilder(root: root).build(SiteBuilder.Options(discussions: try Discussions(store: store).all()))
            let activityPub = try SiteState.openLoaded(root: root)
            let worker = SiteRuntime.deliveryWorker(activityPub)
            let report = try Publisher(site: activityPub, outbox: Outbox(store: activityPub.store)).publish(announce: !noAnnounce)
            print("\(report.created.count) new, \(report.updated.count) updated, \(report.deleted.count) deleted, "
                  + "\(report.skipped.count) recorded without announcing; \(report.deliveries) deliveries queued")
            guard !queueOnly else { return }
            try await DeliverCommand.deliver(worker, store: activityPub.store)
        }
    }
}

struct DeliverCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "deliver", abstract: "Send every delivery that is due, once, then exit (for cron or tests).")

    @OptionGroup var siteOptions: SiteOptions

    func run() async throws {
        try await reportingErrors {
            let activityPub = try SiteState.openActivityPub(root: siteOptions.root, config: try SiteConfig.load(from: siteOptions.root))
            try await Self.deliver(SiteRuntime.deliveryWorker(activityPub), store: activityPub.store)
        }
    }

    /// Runs the queue once, with a progress bar on a terminal and plain lines otherwise.
    static func deliver(_ worker: DeliveryWorker, store: Store) async throws {
        let start = try store.deliveryStats()
        let total = start.queued
        guard total > 0 else { print("nothing to deliver"); return }
        let progress = Progress(total: total)
        let ticker = Task {
            while !Task.isCancelled {
                try? await Task.sleep(for: .milliseconds(200))
                if let now = try? store.deliveryStats() { progress.show(done: total - now.queued) }
            }
        }
        let clock = ContinuousClock.now
        let report = await worker.runOnce()
        ticker.cancel()
        progress.finish()
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
