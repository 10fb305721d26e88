import ArgumentParser
import Foundation
import Interactions
import LecternRuntime
import Storage

/// `lectern follow`, `unfollow`, `following`: the accounts the blog follows. The Follow goes
/// through the durable delivery queue: sent now, or by a running `lectern serve`.
struct FollowCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "follow", abstract: "Follow a fediverse account (or blog) from the blog.",
        discussion: """
        The account is looked up (WebFinger for a handle), sent a signed Follow and recorded as pending until \
        its server accepts. Blocked domains and actors cannot be followed. See docs/following.md.

        Example: lectern follow -s /var/lib/lectern @friend@blog.example
        """)

    @OptionGroup var siteOptions: SiteOptions
    @Argument(help: "The account: @name@host or its actor URL.") var account: String

    func run() async throws {
        try await reportingErrors {
            let blog = try siteOptions.openBlog()
            let (followed, already) = try await blog.followReporting(account)
            let name = followed.actor.handle ?? followed.actor.id
            guard !already else { print("already following \(name) (accepted)"); return }
            print("following \(name) (\(followed.actor.id)): pending until its server accepts")
            try await DeliverCommand.deliverOrHandOver(blog)
        }
    }
}

struct UnfollowCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "unfollow", abstract: "Stop following an account (sends Undo of the Follow).",
        discussion: "Example: lectern unfollow -s /var/lib/lectern @friend@blog.example")

    @OptionGroup var siteOptions: SiteOptions
    @Argument(help: "The account: @name@host or its actor URL, as `lectern following` lists it.") var account: String

    func run() async throws {
        try await reportingErrors {
            let blog = try siteOptions.openBlog()
            let actor = try await blog.unfollow(account)
            print("unfollowed \(actor.handle ?? actor.id)")
            try await DeliverCommand.deliverOrHandOver(blog)
        }
    }
}

struct FollowingCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "following", abstract: "The accounts the blog follows, and whether each accepted.",
        discussion: "Example: lectern following -s /var/lib/lectern --json   # [{actor, handle, name, url, state, since, answeredAt}]")

    @OptionGroup var siteOptions: SiteOptions
    @Flag(help: "Print JSON instead of a table.") var json = false

    struct Entry: Encodable {
        var actor: String, handle: String?, name: String?, url: String?, state: String, since: Date, answeredAt: Date?
    }

    func run() async throws {
        let accounts = try await reportingErrors { try siteOptions.openBlog().followedAccounts() }
        let entries = accounts.map {
            Entry(actor: $0.actor.id, handle: $0.actor.handle, name: $0.actor.name, url: $0.actor.url, state: $0.state.rawValue,
                  since: $0.since, answeredAt: $0.answeredAt)
        }
        if json { return try JSONOutput.print(entries) }
        guard !entries.isEmpty else { print("the blog follows no one yet (lectern follow @name@host)"); return }
        print(Formats.table([["handle", "actor", "state", "since"]] + entries.map {
            [$0.handle ?? "-", $0.actor, $0.state, Formats.date($0.since)]
        }))
        let accepted = entries.filter { $0.state == "accepted" }.count
        print("\(entries.count) followed, \(accepted) accepted")
    }
}

/// `lectern bridge bluesky`: the blog on Bluesky through Bridgy Fed.
struct BridgeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bridge", abstract: "Bridge the blog to other networks (Bluesky, through Bridgy Fed).",
        subcommands: [Bluesky.self])

    struct Bluesky: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "bluesky", abstract: "Bridge the blog to Bluesky through Bridgy Fed (--off to stop).",
            discussion: """
            Follows Bridgy Fed's bot, \(BlueskyBridge.botHandle). Once it accepts, it sends the blog a direct \
            message with the blog's Bluesky handle (such as blog.example.ap.brid.gy); run this command again, or \
            `lectern status`, to see it. Replies from Bluesky come back as comments. See docs/following.md.

            With --handle DOMAIN, asks the bot to make DOMAIN the handle, once DOMAIN proves the bridged \
            account's DID (an _atproto TXT record or /.well-known/atproto-did).

            Example: lectern bridge bluesky -s /var/lib/lectern
                     lectern bridge bluesky -s /var/lib/lectern --handle blog.example
                     lectern bridge bluesky -s /var/lib/lectern --off
            """)

        @OptionGroup var siteOptions: SiteOptions
        @Flag(help: "Stop bridging: send the bot `stop` and unfollow it.") var off = false
        @Option(help: ArgumentHelp("Ask the bot for your own domain as the Bluesky handle (prove it first: docs/following.md).",
                                   valueName: "domain")) var handle: String?
        @Flag(help: "Print the bridge's state as JSON.") var json = false

        func run() async throws {
            try await reportingErrors {
                let blog = try siteOptions.openBlog()
                if off {
                    guard let bot = try blog.bridgeBlueskyOff() else { print("the Bluesky bridge is not on"); return }
                    print("sent `stop` to \(bot.handle ?? bot.id) and unfollowed it: Bridgy Fed stops bridging the blog")
                    try await DeliverCommand.deliverOrHandOver(blog)
                    return
                }
                if let handle {
                    try blog.requestBlueskyHandle(handle)
                    print("asked Bridgy Fed for the handle \(handle); its answer shows here and in `lectern status`")
                    try await DeliverCommand.deliverOrHandOver(blog)
                    return
                }
                var status = try blog.blueskyBridge()
                if status.bot == nil || status.follow == nil || status.follow == "rejected" {
                    let bot = try await blog.bridgeBluesky()
                    print("following \(bot.actor.handle ?? bot.actor.id): the bridge starts once it accepts")
                    try await DeliverCommand.deliverOrHandOver(blog)
                    status = try blog.blueskyBridge()
                }
                if json { return try JSONOutput.print(status) }
                print(Self.describe(status))
            }
        }

        static func describe(_ status: BlueskyBridge.Status) -> String {
            guard status.bot != nil else { return "Bluesky: not bridged (lectern bridge bluesky)" }
            var lines = ["Bluesky: " + (status.handle.map { "bridged as @\($0) (https://bsky.app/profile/\($0))" }
                ?? (status.follow == "accepted" ? "accepted, waiting for Bridgy Fed's message with the handle"
                    : "waiting for Bridgy Fed to accept the follow"))]
            if let message = status.message { lines.append("  Bridgy Fed said: \(message)") }
            return lines.joined(separator: "\n")
        }
    }
}
