import ArgumentParser
import Foundation
import OutboundHTTP
import Interactions
import LecternRuntime
import Site

struct DigestCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "digest", abstract: "The owner's digest of new comments: preview it (the default), or send it now.",
        discussion: "Example: lectern digest -s /var/lib/lectern          # what the next digest would say\n         lectern digest -s /var/lib/lectern --now    # send it now")

    @OptionGroup var siteOptions: SiteOptions
    @Flag(help: "Send it now, whatever the interval (if anything is new), and deliver it.") var now = false
    @Flag(help: "Print what the next digest would say.") var preview = false
    @Flag(help: "Print JSON: {preview, sent: {items, recipient, delivery}}.") var json = false

    /// `lectern digest --json`: the preview's text when asked for, and what `--now` sent (nil when nothing was new).
    struct Summary: Encodable {
        struct Sent: Encodable {
            var items: Int
            var recipient: String
            var delivery: DeliverCommand.Outcome
        }
        var preview: String?
        var sent: Sent?
    }

    func run() async throws {
        let preview = preview || !now
        try await reportingErrors {
            let blog = try siteOptions.openBlog()
            try blog.loadContent()
            let digest = blog.digest()
            var summary = Summary()
            if preview { summary.preview = try digest.preview() }
            if preview && !json { print(summary.preview ?? "", terminator: "") }
            if now {
                switch try await digest.sendIfDue(force: true) {
                case .sent(let items, let recipient):
                    if !json { print("digest of \(items) items queued for \(recipient)") }
                    summary.sent = Summary.Sent(items: items, recipient: recipient,
                                                delivery: try await DeliverCommand.deliverOrHandOver(blog, quiet: json))
                case .nothingNew: if !json { print("nothing new: no digest sent") }
                case .noOwner: throw CLIError("no owner in lectern.yml (owner: \"@you@social.example\")")
                case .quiet(let reason): if !json { print("no digest sent: \(reason) (a local blog sends nothing)") }
                case .tooSoon: preconditionFailure("forced digests are never too soon")
                }
            }
            if json { try JSONOutput.print(summary) }
        }
    }
}
