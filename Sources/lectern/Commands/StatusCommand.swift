import ArgumentParser
import Foundation
import Interactions
import LecternRuntime
import Site
import Storage

/// `lectern status`: how the blog is doing, at a glance or as JSON for scripts.
struct StatusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status", abstract: "Posts, followers, comments, deliveries, inbox outcomes, last build and digest.",
        discussion: """
        Example: lectern status -s /var/lib/lectern
                 lectern status --json | jq .deliveries.queued

        JSON schema (docs/cli.md): {posts: {published, scheduled: [{path, title, date}]}, followers: {total, thisWeek},
        comments: {pending, approved}, deliveries: {queued, failed, oldestQueued, failingHosts: [{host, failingSince, paused}]},
        inbox: {days, refused: {reason: count}, ignored: {reason: count}, applied: {reason: count}},
        lastBuild, lastDigest, server: {running, address}, quiet?}
        """)

    @OptionGroup var siteOptions: SiteOptions
    @Flag(help: "Print JSON instead of text.") var json = false
    @Option(help: "Inbox outcomes over this many days.") var days = 7

    struct Status: Encodable {
        struct Scheduled: Encodable { var path: String, title: String, date: Date }
        struct Posts: Encodable { var published: Int, scheduled: [Scheduled] }
        struct Followers: Encodable { var total: Int, thisWeek: Int }
        struct Comments: Encodable { var pending: Int, approved: Int }
        struct FailingHost: Encodable { var host: String, failingSince: Date?, paused: Bool }
        struct Deliveries: Encodable { var queued: Int, failed: Int, oldestQueued: Date?, failingHosts: [FailingHost] }
        struct Inbox: Encodable { var days: Int, refused: [String: Int], ignored: [String: Int], applied: [String: Int] }
        struct Server: Encodable { var running: Bool, address: String? }
        /// The newsletter (absent while it is off): subscribers by state, and its mails.
        struct Newsletter: Encodable { var confirmed: Int, pending: Int, bouncing: Int, mailsQueued: Int, mailsFailed: Int }
        var posts: Posts
        var followers: Followers
        var comments: Comments
        var deliveries: Deliveries
        var inbox: Inbox
        var lastBuild: Date?
        var lastDigest: Date?
        var server: Server
        /// The Bluesky bridge (`lectern bridge bluesky`): its bot, the follow's state, the handle.
        var bluesky: BlueskyBridge.Status
        /// Why the blog sends nothing anywhere (a `baseURL` others cannot reach, `LocalSite`).
        var quiet: String?
        var newsletter: Newsletter?
    }

    func run() async throws {
        let status = try await reportingErrors { try collect(now: Date()) }
        if json {
            try JSONOutput.print(status)
        } else {
            print(Self.text(status, now: Date()))
        }
    }

    func collect(now: Date) throws -> Status {
        let blog = try siteOptions.openBlog()
        let summary = try blog.summary(now: now)
        let content = try ContentLoader(root: blog.root, timeZone: blog.config.timeZone).load(includeDrafts: false, now: now)
        let stats = try blog.deliveryStats()
        var inbox = Status.Inbox(days: days, refused: [:], ignored: [:], applied: [:])
        for (outcome, count) in try blog.inboxCounts(since: now.addingTimeInterval(-Double(days) * 86_400)) {
            switch outcome.kind {
            case .refused: inbox.refused[outcome.reason, default: 0] += count
            case .ignored: inbox.ignored[outcome.reason, default: 0] += count
            case .applied: inbox.applied[outcome.reason, default: 0] += count
            }
        }
        let publicFolder = blog.root.appendingPathComponent("public")
        let manifest = BuildRecords(outputFolder: publicFolder).manifest(of: publicFolder)
        let built = manifest.flatMap { try? FileManager.default.attributesOfItem(atPath: $0.path) }?[.modificationDate] as? Date
        let presence = ServerPresence(root: blog.root).running()
        var newsletter: Status.Newsletter?
        if blog.config.newsletter.enabled {
            let (subscribers, mails) = (try blog.store.subscribers.counts(), try blog.store.mails.counts())
            newsletter = .init(confirmed: subscribers.confirmed, pending: subscribers.pending, bouncing: subscribers.bouncing,
                               mailsQueued: mails.queued, mailsFailed: mails.failed)
        }
        return Status(
            posts: .init(published: summary.posts, scheduled: content.scheduled.map { .init(path: $0.path, title: $0.title, date: $0.date) }),
            followers: .init(total: summary.followers, thisWeek: summary.followersThisWeek),
            comments: .init(pending: summary.commentsPending, approved: summary.commentsApproved),
            deliveries: .init(queued: stats.queued, failed: stats.failed, oldestQueued: stats.oldestQueued,
                              failingHosts: stats.hosts.filter { $0.failingSince != nil || $0.paused }
                                  .map { .init(host: $0.host, failingSince: $0.failingSince, paused: $0.paused) }),
            inbox: inbox, lastBuild: built, lastDigest: try blog.lastDigestSentAt(),
            server: .init(running: presence != nil, address: presence?["address"]), bluesky: try blog.blueskyBridge(),
            quiet: LocalSite.quietReason(blog.config), newsletter: newsletter)
    }

    static func text(_ status: Status, now: Date) -> String {
        func ago(_ date: Date?) -> String { date.map { Formats.age($0, now: now) + " ago" } ?? "never" }
        func reasons(_ counts: [String: Int]) -> String {
            counts.isEmpty ? "none" : counts.sorted { ($1.value, $0.key) < ($0.value, $1.key) }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        }
        var lines = [
            "posts       \(status.posts.published) published, \(status.posts.scheduled.count) scheduled",
        ]
        lines += status.posts.scheduled.map { "              \(Formats.date($0.date))  \($0.path)  \($0.title)" }
        lines += [
            "followers   \(status.followers.total) (+\(status.followers.thisWeek) this week)",
            "comments    \(status.comments.pending) pending, \(status.comments.approved) shown",
            "deliveries  \(status.deliveries.queued) queued" + (status.deliveries.oldestQueued.map { ", oldest \(ago($0))" } ?? "")
                + ", \(status.deliveries.failed) failed, \(status.deliveries.failingHosts.count) failing hosts",
        ]
        lines += status.deliveries.failingHosts.map { "              \($0.host)\($0.paused ? " (paused)" : "") failing since \(ago($0.failingSince))" }
        lines += [
            "inbox       last \(status.inbox.days) days: \(status.inbox.applied.values.reduce(0, +)) applied",
            "              refused: \(reasons(status.inbox.refused))",
            "              ignored: \(reasons(status.inbox.ignored))",
            "last build  \(ago(status.lastBuild))",
            "last digest \(ago(status.lastDigest))",
            "server      " + (status.server.running ? "running on \(status.server.address ?? "?")" : "not running"),
            "bluesky     " + (status.bluesky.bot == nil ? "not bridged"
                : status.bluesky.handle.map { "@" + $0 } ?? "bridge \(status.bluesky.follow ?? "pending"), no handle yet"),
        ]
        if let letter = status.newsletter {
            lines.append("newsletter  \(letter.confirmed) subscribers (\(letter.pending) not confirmed yet, \(letter.bouncing) bouncing); "
                         + "\(letter.mailsQueued) mails queued, \(letter.mailsFailed) failed")
        }
        if let quiet = status.quiet { lines.append("sending     nothing, to anyone: \(quiet) (a local blog; set a public https baseURL to go live)") }
        return lines.joined(separator: "\n")
    }
}
