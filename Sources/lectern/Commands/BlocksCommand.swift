import ArgumentParser
import Foundation
import LecternRuntime
import Store

struct BlocksCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "blocks", abstract: "Block actors or whole domains (applies to what is already there too).",
        subcommands: [List.self, Add.self, Remove.self], defaultSubcommand: List.self)

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "Every block.")
        @OptionGroup var siteOptions: SiteOptions

        func run() async throws {
            let blocks = try await reportingErrors { try siteOptions.openBlog().store.blocks() }
            guard !blocks.isEmpty else { print("no blocks"); return }
            print(Formats.table([["kind", "value", "since", "reason"]]
                                + blocks.map { [$0.kind.rawValue, $0.value, Formats.date($0.createdAt), $0.reason ?? ""] }))
        }
    }

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "add",
                                                        abstract: "Block an actor (its URL) or a domain (bad.example, subdomains included).")
        @OptionGroup var siteOptions: SiteOptions
        @Argument(help: "An actor URL or a domain.") var target: String
        @Option(help: "Why (for your records).") var reason: String?

        func run() async throws {
            try await reportingErrors {
                let blog = try siteOptions.openBlog()
                let kind: Block.Kind = target.contains("://") ? .actor : .domain
                let changed = try blog.store.block(kind, target, reason: reason)
                try blog.discussionsChanged([.blocks, .followers])
                print("blocked \(kind.rawValue) \(target); \(changed.count) posts re-rendered")
            }
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "remove", abstract: "Lift a block (hidden comments stay hidden).")
        @OptionGroup var siteOptions: SiteOptions
        @Argument(help: "The actor URL or domain.") var target: String

        func run() async throws {
            let removed = try await reportingErrors {
                let blog = try siteOptions.openBlog()
                let removed = try blog.store.unblock(target.contains("://") ? .actor : .domain, target)
                try blog.changed([.blocks])
                return removed
            }
            guard removed else { throw CLIError("\(target) is not blocked") }
            print("unblocked \(target)")
        }
    }
}
