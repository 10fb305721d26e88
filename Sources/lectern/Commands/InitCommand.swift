import ArgumentParser
import BlogModel
import Foundation
import Site

struct InitCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init", abstract: "Create a new site with example posts.",
        discussion: "Example: lectern init mysite && lectern serve -s mysite")

    @Argument(help: "Folder to create the site in.")
    var directory: String = "."

    @Option(help: "The blog's title.")
    var title: String = "Field Notes"

    func run() async throws {
        let root = URL(fileURLWithPath: directory).standardizedFileURL
        try await reportingErrors {
            try SiteScaffold.create(at: root, title: title)
        }
        print("Created a site in \(root.path). Next: lectern build --site \(directory) && lectern serve --site \(directory)")
    }
}

struct NewCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "new", abstract: "Start a new post (as a draft) and print its path.",
        discussion: "Example: lectern new -s mysite \"Notes on Swift concurrency\"")

    @OptionGroup var siteOptions: SiteOptions

    @Argument(help: "The post's title.")
    var title: String

    func run() async throws {
        let url = try await reportingErrors {
            let config = try SiteConfig.load(from: siteOptions.root)
            return try SiteScaffold.newPost(in: siteOptions.root, title: title, timeZone: config.timeZone)
        }
        print(url.path)
    }
}

struct VersionCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "version", abstract: "Print the version of Lectern and of the libraries it uses.",
        discussion: "Example: lectern version")

    func run() async throws {
        print("lectern \(Lectern.version)")
        for (name, version) in LibraryVersions.all { print("\(name) \(version)") }
    }
}
