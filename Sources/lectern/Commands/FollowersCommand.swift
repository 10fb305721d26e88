import ArgumentParser
import Foundation
import Storage

struct FollowersCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "followers", abstract: "Who follows the blog; remove one.",
        discussion: "Example: lectern followers -s /var/lib/lectern; lectern followers count --json; lectern followers remove https://social.example/users/a",
        subcommands: [List.self, Count.self, Remove.self], defaultSubcommand: List.self)

    /// One follower as `--json` lists it.
    struct Entry: Encodable {
        var actor: String, handle: String?, instance: String, since: Date, inbox: String
        /// The inbox's host as deliveries found it: `ok`, `failing` (since `failingSince`) or `paused`.
        var health: String, failingSince: Date?
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list", abstract: "Every follower, oldest first.",
            discussion: "Example: lectern followers -s /var/lib/lectern --json   # [{actor, handle, instance, since, inbox, health, failingSince}]")
        @OptionGroup var siteOptions: SiteOptions
        @Flag(help: "Print JSON instead of a table.") var json = false

        func run() async throws {
            let (followers, hosts) = try await reportingErrors {
                let blog = try siteOptions.openBlog()
                return (try blog.followers(), Dictionary(try blog.deliveryStats().hosts.map { ($0.host, $0) }, uniquingKeysWith: { a, _ in a }))
            }
            let entries = followers.map { follower -> Entry in
                let inbox = follower.sharedInbox ?? follower.inbox
                let host = hosts[URLComponents(string: inbox)?.host ?? ""]
                return Entry(actor: follower.actorID, handle: follower.handle, instance: URLComponents(string: follower.actorID)?.host ?? "",
                             since: follower.since, inbox: inbox,
                             health: host?.paused == true ? "paused" : host?.failingSince != nil ? "failing" : "ok", failingSince: host?.failingSince)
            }
            if json { return try JSONOutput.print(entries) }
            guard !entries.isEmpty else { print("no followers yet"); return }
            print(Formats.table([["handle", "actor", "since", "inbox", "inbox health"]] + entries.map {
                [$0.handle ?? "-", $0.actor, Formats.date($0.since), $0.inbox,
                 $0.failingSince.map { "failing for " + Formats.age($0) } ?? $0.health]
            }))
            print("\(entries.count) followers, \(Set(entries.map(\.inbox)).count) inboxes")
        }
    }

    struct Count: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "count", abstract: "How many follow the blog, and how many joined in the last 7 days.",
            discussion: "Example: lectern followers count -s /var/lib/lectern --json   # {total, thisWeek, inboxes}")
        @OptionGroup var siteOptions: SiteOptions
        @Flag(help: "Print JSON.") var json = false

        struct Counts: Encodable { var total: Int, thisWeek: Int, inboxes: Int }

        func run() async throws {
            let counts = try await reportingErrors {
                let counts = try siteOptions.openBlog().followerCounts()
                return Counts(total: counts.total, thisWeek: counts.thisWeek, inboxes: counts.inboxes)
            }
            if json { return try JSONOutput.print(counts) }
            print("\(counts.total) followers (+\(counts.thisWeek) this week) on \(counts.inboxes) inboxes")
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "remove", abstract: "Stop delivering to a follower.",
        discussion: "Example: lectern followers remove -s /var/lib/lectern https://social.example/users/a")
        @OptionGroup var siteOptions: SiteOptions
        @Argument(help: "The follower's actor id (URL).") var actor: String

        func run() async throws {
            guard let url = URLComponents(string: actor), ["https", "http"].contains(url.scheme ?? ""), url.host?.isEmpty == false else {
                throw CLIError("'\(actor)' is not an actor URL (such as https://social.example/users/name; `lectern followers` lists them)")
            }
            let removed = try await reportingErrors {
                try siteOptions.openBlog().removeFollower(actorID: actor)
            }
            guard removed else { throw CLIError("\(actor) does not follow the blog") }
            print("removed \(actor)")
        }
    }
}
