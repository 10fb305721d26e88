import ArgumentParser
import Foundation
import Federation
import Site

struct BuildCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "build", abstract: "Render the site into public/ (only what changed).")

    @OptionGroup var siteOptions: SiteOptions

    @Flag(help: "Include posts and pages marked draft: true.")
    var drafts = false

    @Option(help: "Write the site here instead of <site>/public.")
    var output: String?

    @Flag(name: .shortAndLong, help: "Print nothing on success.")
    var quiet = false

    func run() async throws {
        let report = try await reportingErrors {
            // Pages show their comments: from the database, when the site has one.
            let hasState = FileManager.default.fileExists(atPath: SiteState.databasePath(root: siteOptions.root))
            let discussions = hasState ? try Discussions(store: try SiteState.openStore(root: siteOptions.root)).all() : [:]
            let options = SiteBuilder.Options(includeDrafts: drafts,
                                              outputFolder: output.map { URL(fileURLWithPath: $0).standardizedFileURL },
                                              discussions: discussions)
            return try SiteBuilder(root: siteOptions.root).build(options)
        }
        for warning in report.warnings { FileHandle.standardError.write(Data("warning: \(warning)\n".utf8)) }
        if !quiet {
            print("built in \(String(format: "%.0f", report.seconds * 1000)) ms: \(report.written) files written "
                  + "(\(report.pages) pages rendered), \(report.reused) unchanged")
        }
    }
}
