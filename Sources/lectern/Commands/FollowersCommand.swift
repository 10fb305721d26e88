import ArgumentParser
import Foundation
import Store

struct FollowersCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "followers", abstract: "Who follows the blog; remove one.",
        subcommands: [List.self, Remove.self], defaultSubcommand: List.self)

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "Every follower, oldest first.")
        @OptionGroup var siteOptions: SiteOptions

        func run() async throws {
            let followers = try await reportingErrors { try siteOptions.openBlog().store.followers() }
            guard !followers.isEmpty else { print("no followers yet"); return }
            print(Formats.table([["handle", "actor", "since", "inbox"]] + followers.map {
                [$0.handle ?? "-", $0.actorID, Formats.date($0.since), $0.sharedInbox ?? $0.inbox]
            }))
            print("\(followers.count) followers, \(Set(followers.map { $0.sharedInbox ?? $0.inbox }).count) inboxes")
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "remove", abstract: "Stop delivering to a follower.")
        @OptionGroup var siteOptions: SiteOptions
        @Argument(help: "The follower's actor id (URL).") var actor: String

        func run() async throws {
            let removed = try await reportingErrors {
                let blog = try siteOptions.openBlog()
                let removed = try blog.store.removeFollower(actorID: actor)
                try blog.changed([.followers])
                return removed
            }
            guard removed else { throw CLIError("\(actor) does not follow the blog") }
            print("removed \(actor)")
        }
    }
}
