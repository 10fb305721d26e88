import ArgumentParser
import Foundation
import Interactions
import LecternRuntime
import Storage

struct BlocksCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "blocks", abstract: "Block actors or whole domains (applies to what is already there too).",
        discussion: "Example: lectern blocks add -s /var/lib/lectern spam.example --reason spam; lectern blocks import -s /var/lib/lectern list.csv",
        subcommands: [List.self, Add.self, Remove.self, Import.self, Export.self], defaultSubcommand: List.self)

    struct Import: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "import", abstract: "Apply a shared domain blocklist (Mastodon's CSV export).",
            discussion: """
            `suspend` blocks the domain (retroactively, like `blocks add`), `silence` (or `limit`) holds its \
            comments for approval, `noop` is skipped. Lines that are not a plain domain (obfuscated ones like \
            b*d.example) are listed and skipped.

            Example: lectern blocks import -s /var/lib/lectern blocklist.csv
            """)
        @OptionGroup var siteOptions: SiteOptions
        @Argument(help: "The CSV file (#domain,#severity,…).") var file: String

        func run() async throws {
            try await reportingErrors {
                guard let data = FileManager.default.contents(atPath: file) else { throw CLIError("cannot read \(file)") }
                let parsed = DomainBlocklist.parse(String(decoding: data, as: UTF8.self))
                let blog = try siteOptions.openBlog()
                let changed = try blog.block(parsed.entries.map { ($0.kind, $0.domain, $0.comment) })
                let suspended = parsed.entries.filter { $0.kind == .domain }.count
                print("\(suspended) domains blocked, \(parsed.entries.count - suspended) silenced, \(parsed.skipped.count) lines skipped; "
                      + "\(changed.count) posts re-rendered")
                for line in parsed.skipped { print("  skipped \(line)") }
            }
        }
    }

    struct Export: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "export", abstract: "Write the domain blocks and silences as a Mastodon-format CSV.",
            discussion: "Example: lectern blocks export -s /var/lib/lectern > blocklist.csv")
        @OptionGroup var siteOptions: SiteOptions

        func run() async throws {
            let blocks = try await reportingErrors { try siteOptions.openBlog().blocks() }
            print(DomainBlocklist.export(blocks), terminator: "")
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list", abstract: "Every block.",
            discussion: "Example: lectern blocks -s /var/lib/lectern --json   # [{kind: actor|domain|silence, value, since, reason}]")
        @OptionGroup var siteOptions: SiteOptions
        @Flag(help: "Print JSON.") var json = false

        struct Entry: Encodable { var kind: String, value: String, since: Date, reason: String? }

        func run() async throws {
            let blocks = try await reportingErrors { try siteOptions.openBlog().blocks() }
            if json { return try JSONOutput.print(blocks.map { Entry(kind: $0.kind.rawValue, value: $0.value, since: $0.createdAt, reason: $0.reason) }) }
            guard !blocks.isEmpty else { print("no blocks"); return }
            print(Formats.table([["kind", "value", "since", "reason"]]
                                + blocks.map { [$0.kind.rawValue, $0.value, Formats.date($0.createdAt), $0.reason ?? ""] }))
        }
    }

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "add",
                                                        abstract: "Block an actor (its URL) or a domain (bad.example, subdomains included).",
        discussion: "Example: lectern blocks add -s /var/lib/lectern spam.example --reason spam   (or an actor URL, or --silence)")
        @OptionGroup var siteOptions: SiteOptions
        @Argument(help: "An actor URL or a domain.") var target: String
        @Option(help: "Why (for your records).") var reason: String?
        @Flag(help: "Silence the domain instead: its comments wait for approval.") var silence = false

        func run() async throws {
            try await reportingErrors {
                let blog = try siteOptions.openBlog()
                if silence && target.contains("://") { throw CLIError("--silence applies to domains, not to one actor") }
                let kind: Block.Kind = target.contains("://") ? .actor : silence ? .silence : .domain
                let changed = try blog.block([(kind, target, reason)])
                print("blocked \(kind.rawValue) \(target); \(changed.count) posts re-rendered")
            }
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "remove", abstract: "Lift a block (hidden comments stay hidden).",
        discussion: "Example: lectern blocks remove -s /var/lib/lectern spam.example")
        @OptionGroup var siteOptions: SiteOptions
        @Argument(help: "The actor URL or domain.") var target: String

        func run() async throws {
            let removed = try await reportingErrors {
                try siteOptions.openBlog().unblock(target)
            }
            guard removed else { throw CLIError("\(target) is not blocked") }
            print("unblocked \(target)")
        }
    }
}
