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

    func run() async throws {
        let preview = preview || !now
        try await reportingErrors {
            let blog = try siteOptions.openBlog()
            try blog.loadContent()
            let digest = blog.digest()
            if preview { print(try digest.preview(), terminator: "") }
            guard now else { return }
            switch try await digest.sendIfDue(force: true) {
            case .sent(let items, let recipient):
                print("digest of \(items) items queued for \(recipient)")
                try await DeliverCommand.deliverOrHandOver(blog)
            case .nothingNew: print("nothing new: no digest sent")
            case .noOwner: throw CLIError("no owner in lectern.yml (owner: \"@you@social.example\")")
            case .tooSoon: preconditionFailure("forced digests are never too soon")
            }
        }
    }
}
