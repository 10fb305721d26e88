import ArgumentParser
import Foundation
import LecternRuntime

struct StatsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stats", abstract: "What each post reached and what came back; followers over time. Nothing about visitors.",
        discussion: """
            Per post: the servers and inboxes its Create reached (delivered, failed, pending), likes, boosts, quotes, replies
            by source (fediverse, Bluesky through the bridge, webmention), when they came, and follows gained and lost
            until the next post. For the blog: followers by server and over time.
            Example: lectern stats -s /var/lib/lectern; lectern stats /2025/hello/ --json; lectern stats --html report.html
            """)

    @OptionGroup var siteOptions: SiteOptions
    @Argument(help: "One post: its path (/2025/hello/) or URL; every post without.") var post: String?
    @Flag(help: "Print JSON (the whole report: {blog, generated, posts: […], followers: {total, byServer, days}}).") var json = false
    @Option(help: "Write the report as a self-contained HTML page with charts to this file.") var html: String?

    func run() async throws {
        let report = try await reportingErrors { try siteOptions.openBlog().outreachReport(post: post) }
        if let html {
            try await reportingErrors { try Data(OutreachPage.html(report).utf8).write(to: URL(fileURLWithPath: html)) }
            if !json { print("wrote \(html)") }
        }
        if json { return try JSONOutput.print(report) }
        guard html == nil else { return }
        print("followers   \(report.followers.total) on \(report.followers.byServer.count) servers"
              + (report.followers.byServer.first.map { " (most on \($0.host): \($0.count))" } ?? ""))
        for post in report.posts.prefix(post == nil ? 20 : 1) {
            print("")
            print("\(post.title)  \(post.path)  \(Formats.date(post.published))")
            print("  reached     \(post.servers) servers: \(post.inboxes.delivered) inboxes delivered, \(post.inboxes.failed) failed, \(post.inboxes.pending) pending")
            print("  reactions   \(post.likes) likes, \(post.boosts) boosts, \(post.quotes) quotes"
                  + (post.webLikes + post.webReposts > 0 ? "; from the web \(post.webLikes) likes, \(post.webReposts) reposts" : ""))
            print("  replies     \(post.replies.fediverse) fediverse, \(post.replies.bluesky) Bluesky, \(post.replies.webmention) webmention"
                  + (post.replies.pending > 0 ? " (\(post.replies.pending) awaiting approval)" : ""))
            if let first = post.firstResponse, let last = post.lastResponse {
                print("  responses   from \(Formats.date(first)) to \(Formats.date(last))")
            }
            print("  followers   +\(post.followers.gained) −\(post.followers.lost) until the next post")
        }
        if post == nil && report.posts.count > 20 { print("\n(\(report.posts.count - 20) older posts: --json or --html has them all)") }
    }
}
