import ArgumentParser
import BlogModel
import Foundation
import Interactions
import LecternRuntime
import Storage

struct SubscribersCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "subscribers", abstract: "The newsletter's email subscribers: list, add, remove, export, import.",
        discussion: """
            Addresses are kept only to mail new posts; `remove` deletes every trace of one.
            Example: lectern subscribers -s /var/lib/lectern --json; lectern subscribers import ghost-members.csv
            """,
        subcommands: [List.self, Add.self, Remove.self, Export.self, Import.self], defaultSubcommand: List.self)

    /// One subscriber as `--json` lists it.
    struct Entry: Encodable {
        var email: String, state: String, origin: String, since: Date, confirmedAt: Date?
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list", abstract: "Every subscriber, oldest first, with its state (pending, confirmed, bouncing).",
            discussion: "Example: lectern subscribers -s /var/lib/lectern --json   # [{email, state, origin, since, confirmedAt}]")
        @OptionGroup var siteOptions: SiteOptions
        @Flag(help: "Print JSON instead of a table.") var json = false

        func run() async throws {
            let subscribers = try await reportingErrors { try siteOptions.openBlog().store.subscribers.all() }
            let entries = subscribers.map {
                Entry(email: $0.email, state: $0.state.rawValue, origin: $0.origin.rawValue, since: $0.createdAt, confirmedAt: $0.confirmedAt)
            }
            if json { return try JSONOutput.print(entries) }
            guard !entries.isEmpty else { print("no subscribers yet"); return }
            print(Formats.table([["email", "state", "origin", "since"]] + entries.map { [$0.email, $0.state, $0.origin, Formats.date($0.since)] }))
            print("\(entries.filter { $0.state == "confirmed" }.count) confirmed of \(entries.count)")
        }
    }

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "add", abstract: "Add addresses as confirmed (people who asked you directly).",
            discussion: "Example: lectern subscribers add -s /var/lib/lectern ada@example.com")
        @OptionGroup var siteOptions: SiteOptions
        @Argument(help: "Email addresses.") var addresses: [String]

        func validate() throws {
            for typed in addresses where MailAddress(typed) == nil { throw ValidationError("'\(typed)' is not an email address Lectern can mail") }
        }

        func run() async throws {
            let added = try await reportingErrors {
                try siteOptions.openBlog().addSubscribers(addresses.compactMap(MailAddress.init), origin: .added)
            }
            print("added \(added) subscriber(s)\(added < addresses.count ? ", \(addresses.count - added) already there" : "")")
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "remove", abstract: "Delete an address and every trace of it (its queued mails too).",
            discussion: "Example: lectern subscribers remove -s /var/lib/lectern ada@example.com")
        @OptionGroup var siteOptions: SiteOptions
        @Argument(help: "The email address.") var address: String

        func run() async throws {
            let email = MailAddress(address)?.text ?? address
            let removed = try await reportingErrors { try siteOptions.openBlog().store.subscribers.remove(email: email) }
            guard removed else { throw CLIError("\(address) is not a subscriber") }
            print("removed \(email)")
        }
    }

    struct Export: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "export", abstract: "Print every subscriber as CSV (email,state,origin,subscribed_at,confirmed_at).",
            discussion: "Example: lectern subscribers export -s /var/lib/lectern > subscribers.csv")
        @OptionGroup var siteOptions: SiteOptions

        func run() async throws {
            let subscribers = try await reportingErrors { try siteOptions.openBlog().store.subscribers.all() }
            let iso = ISO8601DateFormatter()
            print("email,state,origin,subscribed_at,confirmed_at")
            for row in subscribers {
                print([Self.cell(row.email), row.state.rawValue, row.origin.rawValue, iso.string(from: row.createdAt),
                       row.confirmedAt.map(iso.string) ?? ""].joined(separator: ","))
            }
        }

        /// An address a stranger typed, as a CSV cell no spreadsheet runs as a formula (one
        /// starting with `=`, `+`, `-` or `@` gets a leading `'`), quoted by RFC 4180.
        static func cell(_ text: String) -> String {
            DomainBlocklist.csvField(text.first.map { "=+-@".contains($0) } == true ? "'" + text : text)
        }
    }

    struct Import: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "import", abstract: "Add the confirmed addresses of a CSV export (Ghost, Substack, WriteFreely, or any with an email column).",
            discussion: """
                The column named email (or Email, email_address) is read; without one, the first column holding addresses.
                Addresses are added as confirmed and marked imported. Rows whose address cannot be mailed are reported, not added.
                Example: lectern subscribers import -s /var/lib/lectern substack-subscribers.csv
                """)
        @OptionGroup var siteOptions: SiteOptions
        @Argument(help: "The CSV file.") var file: String
        @Flag(help: "Print JSON: {added, alreadyThere, skipped: [row]}.") var json = false

        struct Summary: Encodable { var added: Int, alreadyThere: Int, skipped: [String] }

        func run() async throws {
            let summary = try await reportingErrors { () throws -> Summary in
                let text = try String(contentsOfFile: file, encoding: .utf8)
                let (addresses, skipped) = SubscriberCSV.addresses(in: text)
                let added = try siteOptions.openBlog().addSubscribers(addresses, origin: .imported)
                return Summary(added: added, alreadyThere: addresses.count - added, skipped: skipped)
            }
            if json { return try JSONOutput.print(summary) }
            print("imported \(summary.added) subscriber(s); \(summary.alreadyThere) already there; \(summary.skipped.count) row(s) skipped")
            for row in summary.skipped.prefix(20) { print("  skipped: \(row)") }
        }
    }
}
