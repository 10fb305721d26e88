import ArgumentParser
import BlogModel
import Foundation
import Site
import LecternRuntime
import Storage

struct CommentsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "comments", abstract: "List and moderate comments (replies from the fediverse).",
        discussion: "Example: lectern comments -s /var/lib/lectern --state pending; lectern comments approve -s /var/lib/lectern https://social.example/users/a/statuses/1",
        subcommands: [List.self, Show.self, Approve.self, Reject.self, Delete.self], defaultSubcommand: List.self)

    /// A comment as `--json` gives it.
    struct Entry: Encodable {
        struct Author: Encodable { var id: String, handle: String?, name: String? }
        var id: String, post: String, state: String, visibility: String, author: Author, published: Date
        var url: String?, parent: String?, warning: String?, title: String?, text: String, html: String

        init(_ shown: ShownComment) {
            let c = shown.comment
            (id, post, state, visibility) = (c.id, c.postPath, c.state.rawValue, c.visibility.rawValue)
            author = Author(id: shown.author.id, handle: shown.author.handle, name: shown.author.name)
            (published, url, parent, warning, title) = (c.publishedAt, c.url, c.parentID, c.summary, c.title)
            (text, html) = (HTMLText.plain(c.contentHTML), c.contentHTML)
        }
    }

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "show", abstract: "One comment in full: author, post, state, text.",
            discussion: "Example: lectern comments show -s /var/lib/lectern https://social.example/users/a/statuses/1 --json")
        @OptionGroup var siteOptions: SiteOptions
        @Argument(help: "The comment's id (the note's URL).") var id: String
        @Flag(help: "Print JSON (the fields of `comments list --json`).") var json = false

        func run() async throws {
            let shown = try await reportingErrors { () throws -> ShownComment in
                guard let shown = try siteOptions.openBlog().comment(id: id) else {
                    throw CLIError("no comment \(id) (`lectern comments` lists them with their ids)")
                }
                return shown
            }
            if json { return try JSONOutput.print(Entry(shown)) }
            let entry = Entry(shown)
            print("""
                id:         \(entry.id)
                post:       \(entry.post)
                author:     \(entry.author.name ?? "") \(entry.author.handle ?? entry.author.id)
                state:      \(entry.state) (\(entry.visibility))
                published:  \(Formats.date(entry.published))
                """)
            if let parent = entry.parent { print("reply to:   \(parent)") }
            if let warning = entry.warning { print("warning:    \(warning)") }
            if let title = entry.title { print("title:      \(title)") }
            print("\n\(entry.text)")
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list", abstract: "Comments, newest first.",
            discussion: "Example: lectern comments -s /var/lib/lectern --state pending --json   # [{id, post, state, author, text, …}]")
        @OptionGroup var siteOptions: SiteOptions
        @Option(help: "Only pending, approved or rejected ones.") var state: String?
        @Option(help: "At most this many.") var limit = 50
        @Flag(help: "Print JSON.") var json = false

        func run() async throws {
            let comments = try await reportingErrors { () throws -> [ShownComment] in
                let state = try state.map { name in
                    guard let state = CommentRecord.State(rawValue: name) else { throw CLIError("unknown state '\(name)' (pending, approved, rejected)") }
                    return state
                }
                return try siteOptions.openBlog().comments(state: state, limit: limit)
            }
            if json { return try JSONOutput.print(comments.map(Entry.init)) }
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
        static let configuration = CommandConfiguration(commandName: "approve", abstract: "Show a pending or rejected comment.",
        discussion: "Example: lectern comments approve -s /var/lib/lectern https://social.example/users/a/statuses/1")
        @OptionGroup var siteOptions: SiteOptions
        @Argument(help: "The comment's id (the note's URL).") var id: String
        func run() async throws { try await moderate(siteOptions, id, .approve) }
    }

    struct Reject: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "reject", abstract: "Hide a comment (kept in the database).",
        discussion: "Example: lectern comments reject -s /var/lib/lectern https://social.example/users/a/statuses/1")
        @OptionGroup var siteOptions: SiteOptions
        @Argument(help: "The comment's id (the note's URL).") var id: String
        func run() async throws { try await moderate(siteOptions, id, .reject) }
    }

    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "delete", abstract: "Remove a comment for good.",
        discussion: "Example: lectern comments delete -s /var/lib/lectern https://social.example/users/a/statuses/1")
        @OptionGroup var siteOptions: SiteOptions
        @Argument(help: "The comment's id (the note's URL).") var id: String
        func run() async throws { try await moderate(siteOptions, id, .delete) }
    }
}

/// Applies a moderation change; a running server re-renders the page (else it is rendered here).
private func moderate(_ site: SiteOptions, _ id: String, _ action: Blog.Moderation) async throws {
    try await CommentsCommand().reportingErrors {
        guard let path = try site.openBlog().moderateComment(id: id, action) else { throw CLIError("no comment with id \(id)") }
        print("done; \(path) re-rendered")
    }
}
