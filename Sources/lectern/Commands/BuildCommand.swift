import ArgumentParser
import Foundation
import LecternRuntime
import Site

struct BuildCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "build", abstract: "Render the site into public/ (only what changed).",
        discussion: "A running `lectern serve` serves the new files within a second.\n\nExample: lectern build -s mysite --drafts")

    @OptionGroup var siteOptions: SiteOptions

    @Flag(help: "Include posts and pages marked draft: true: a preview, built into <site>/preview (never public/) and never announced to followers.")
    var drafts = false

    @Flag(help: "Include posts dated in the future: a preview, built into <site>/preview like --drafts.")
    var future = false

    @Option(help: "Write the site here instead of <site>/public (or <site>/preview for a preview).")
    var output: String?

    @Flag(name: .shortAndLong, help: "Print nothing on success.")
    var quiet = false

    @Flag(help: "Print what was built as JSON: {output, preview, milliseconds, written, pagesRendered, unchanged, removed, scheduled, warnings}.")
    var json = false

    func run() async throws {
        let request = BuildRequest(root: siteOptions.root, drafts: drafts, future: future, output: output, quiet: quiet, json: json)
        // Stamping the sources, which decides whether there is anything to build, overlaps opening the blog.
        try await Self.build(request, sources: output == nil ? SourceWalk(root: request.root) : nil)
    }

    static func build(_ request: BuildRequest, sources: SourceWalk?) async throws -> Never {
        // The walk compares with public/'s last build; a preview is built into preview/.
        let sources = request.isPreview ? nil : sources
        let (report, blog) = try await CommandFailure.reporting {
            var options = Blog.Options()
            options.includeDrafts = request.drafts
            options.includeFuture = request.future
            options.connections = .single
            let blog = try SiteOptions.openBlog(at: request.root, options)
            let report = try blog.build(outputFolder: request.output.map { URL(fileURLWithPath: $0).standardizedFileURL }, sources: sources)
            // A preview goes to preview/: the running server's live site has nothing new.
            if request.output == nil && !options.isPreview { try blog.changed([.site]) }
            return (report, blog)
        }
        if request.json {
            try JSONOutput.print(BuildSummary(output: blog.builder.publicFolder.path, preview: request.isPreview,
                                              milliseconds: Int((report.seconds * 1000).rounded()), written: report.written,
                                              pagesRendered: report.pages, unchanged: report.reused, removed: report.removed,
                                              scheduled: report.scheduled, warnings: report.warnings))
            withExtendedLifetime((report, blog)) { Foundation.exit(0) }
        }
        for warning in report.warnings { FileHandle.standardError.write(Data("warning: \(warning)\n".utf8)) }
        if !request.quiet {
            print((request.isPreview ? "preview (\(blog.builder.publicFolder.path), never public/) " : "")
                  + "built in \(String(format: "%.0f", report.seconds * 1000)) ms: \(report.written) files written "
                  + "(\(report.pages) pages rendered), \(report.reused) unchanged")
            if let next = report.scheduled.first {
                print("\(report.scheduled.count) scheduled post(s) held back; the next is due \(Formats.date(next))")
            }
        }
        // Done, and every write is committed: the kernel takes the memory back at once, where
        // freeing the report's 1,000 posts and closing the database object by object took 1.2 ms.
        withExtendedLifetime((report, blog)) { Foundation.exit(0) }
    }
}

/// What `lectern build` is asked to do.
struct BuildRequest {
    var root: URL
    var drafts = false
    var future = false
    var output: String?
    var quiet = false
    var json = false

    /// Drafts or future posts shown: built into preview/, not public/.
    var isPreview: Bool { drafts || future }
}

/// `lectern build --json`.
struct BuildSummary: Encodable {
    var output: String
    var preview: Bool
    var milliseconds: Int
    var written: Int
    var pagesRendered: Int
    var unchanged: Int
    var removed: Int
    /// Posts held back until their date, soonest first.
    var scheduled: [Date]
    var warnings: [String]
}
