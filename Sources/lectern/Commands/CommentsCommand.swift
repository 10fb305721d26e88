import ArgumentParser
import Foundation
import Site
import LecternRuntime
import Store

struct CommentsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "comments", abstract: "List and moderate comments (replies from the fediverse).",
        subcommands: [List.self, Approve.self, Reject.self, Delete.self], defaultSubcommand: List.self)

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "Comments, newest first.")
        @OptionGroup var siteOptions: SiteOptions
        @Option(help: "Only pending, approved or rejected ones.") var state: String?
        @Option(help: "At most this many.") var limit = 50

        func run() async throws {
            let comments = try await reportingErrors { () throws -> [ShownComment] in
                let state = try state.map { name in
                    guard let state = CommentRecord.State(rawValue: name) else { throw CLIError("unknown state '\(name)' (pending, approved, rejected)") }
                    return state
                }
                return try siteOptions.openBlog().store.comments(state: state, limit: limit)
            }
            guard !comments.isEmpty else { print("no comments"); return }
            for shown in comments {
                let c = shown.comment
                print("[\(c.state.rawValue)] \(shown.author.handle ?? shown.author.id) on \(c.postPath) at \(Formats.date(c.publishedAt))")
                print("  \(HTMLText.truncate(HTMLText.plain(c.contentHTML), limit: 200))")
                print("  id: \(c.id)")
            }
        }
    }

    struct Approve: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "approve", abstract: "Show a pending or rejected comment.")
        @OptionGroup var siteOptions: SiteOptions
        @Argument(help: "The comment's id (the note's URL).") var id: String
        func run() async throws { try await moderate(siteOptions, id) { try $0.setCommentState(id: id, .approved) } }
    }

    struct Reject: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "reject", abstract: "Hide a comment (kept in the database).")
        @OptionGroup var siteOptions: SiteOptions
        @Argument(help: "The comment's id (the note's URL).") var id: String
        func run() async throws { try await moderate(siteOptions, id) { try $0.setCommentState(id: id, .rejected) } }
    }

    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "delete", abstract: "Remove a comment for good.")
        @OptionGroup var siteOptions: SiteOptions
        @Argument(help: "The comment's id (the note's URL).") var id: String
        func run() async throws { try await moderate(siteOptions, id) { try $0.removeComment(id: id) } }
    }
}

/// Applies a moderation change; a running server re-renders the page (else it is rendered here).
private func moderate(_ site: SiteOptions, _ id: String, _ change: (Store) throws -> String?) async throws {
    try await CommentsCommand().reportingErrors {
        let blog = try site.openBlog()
        guard let path = try change(blog.store) else { throw CLIError("no comment with id \(id)") }
        try blog.discussionsChanged()
        print("done; \(path) re-rendered")
    }
}
