import ArgumentParser
import Foundation
import LecternRuntime

struct MoveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "move", abstract: "Move the blog's followers to another fediverse account.",
        discussion: """
        Works like Mastodon's account migration. First make the new account an alias of the blog \
        (its alsoKnownAs must list this blog's actor), then run `lectern move --to @you@new.example`: \
        the blog's actor states movedTo, and every follower's server is sent a Move and follows the \
        new account. Run it again to re-send; `--cancel` stops stating movedTo. See docs/activitypub.md.

        Example: lectern move -s /var/lib/lectern --to @me@new.example
        """)

    @OptionGroup var siteOptions: SiteOptions
    @Option(help: "The new account: @name@host or its actor URL.") var to: String?
    @Flag(help: "Stop stating movedTo (followers already moved stay with the new account).") var cancel = false

    func run() async throws {
        guard (to != nil) != cancel else { throw ValidationError("say --to ACCOUNT or --cancel") }
        try await reportingErrors {
            let blog = try siteOptions.openBlog()
            if cancel {
                try blog.cancelMove()
                print("the blog no longer states a move")
                return
            }
            let report = try await blog.move(to: to ?? "")
            print("moved to \(report.target): Move queued for \(report.deliveries) follower inboxes")
            try await DeliverCommand.deliverOrHandOver(blog)
        }
    }
}
