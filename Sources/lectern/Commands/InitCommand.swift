import ArgumentParser
import BlogModel
import Foundation
import Interactions
import LecternRuntime
import Site

struct InitCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init", abstract: "Create a new site with example posts.",
        discussion: """
            Example: lectern init mysite && lectern serve -s mysite --watch
                     sudo -u lectern lectern init /var/lib/lectern --base-url https://blog.example --owner @you@social.example
            """)

    @Argument(help: "Folder to create the site in.")
    var directory: String = "."

    @Option(help: "The blog's title.")
    var title: String = "Field Notes"

    @Option(help: "The address the blog is served at (https://blog.example); the default serves it on this machine.")
    var baseURL: String = "http://127.0.0.1:8080"

    @Option(help: "Your fediverse account (@you@social.example): it gets the comment digests and moderates by replying.")
    var owner: String?

    func validate() throws {
        guard let url = URLComponents(string: baseURL), ["http", "https"].contains(url.scheme?.lowercased() ?? ""),
              url.host?.isEmpty == false, url.path.isEmpty || url.path == "/", url.query == nil, url.fragment == nil else {
            throw CLIError("--base-url \(baseURL): give the blog's address as https://blog.example (http(s), a host, no path)")
        }
        if let owner, owner.wholeMatch(of: /@?[^@\s\/]+@[^@\s\/]+/) == nil {
            throw CLIError("--owner \(owner): give a fediverse account as @you@social.example")
        }
    }

    func run() async throws {
        let root = URL(fileURLWithPath: directory).standardizedFileURL
        let base = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
        let account = owner.map { $0.hasPrefix("@") ? $0 : "@" + $0 }
        try await reportingErrors {
            try SiteScaffold.create(at: root, title: title, baseURL: base, owner: account)
        }
        print(Self.nextSteps(root: root, directory: directory, local: LocalSite.unreachable(baseURL: base) != nil))
    }

    /// What to do next, as README.md and docs/deploy.md say it: writing on this machine, or the service.
    static func nextSteps(root: URL, directory: String, local: Bool) -> String {
        var lines = ["Created a site in \(root.path).", "Next:"]
        lines.append("  write and preview:  lectern serve -s \(directory) --watch   (add --drafts to see drafts)")
        if local { lines.append("  before going live:  set baseURL (and owner) in \(directory)/lectern.yml") }
        lines.append("  on a server:        sudo systemctl enable --now lectern   (docs/deploy.md)")
        return lines.joined(separator: "\n")
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
        let (url, preview) = try await reportingErrors {
            let config = try SiteConfig.load(from: siteOptions.root)
            let url = try SiteScaffold.newPost(in: siteOptions.root, title: title, timeZone: config.timeZone)
            let path = try SiteScaffold.sitePath(ofPost: url, root: siteOptions.root, timeZone: config.timeZone)
            // The address of the server running for this site, else the one `serve` would take.
            let address = ServerPresence(root: siteOptions.root).running()?["address"] ?? "\(config.server.host):\(config.server.port)"
            return (url, "http://\(address)\(Blog.previewPrefix)\(path)")
        }
        print(url.path)
        // The path alone on standard output, for scripts (`$EDITOR "$(lectern new …)"`).
        FileHandle.standardError.write(Data("a draft: previewed at \(preview) while lectern serve --watch runs; remove 'draft: true' to publish\n".utf8))
    }
}

struct VersionCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "version", abstract: "Print the version of Lectern and of the libraries it uses.",
        discussion: "Example: lectern version; lectern version --json   # {lectern, libraries: {name: version}}")

    @Flag(help: "Print JSON: {lectern, libraries: {name: version}}.") var json = false

    struct Versions: Encodable {
        var lectern: String
        var libraries: [String: String]
    }

    func run() async throws {
        if json {
            return try JSONOutput.print(Versions(lectern: Lectern.version,
                                                 libraries: Dictionary(LibraryVersions.all.map { ($0.0, $0.1) }, uniquingKeysWith: { a, _ in a })))
        }
        print("lectern \(Lectern.version)")
        for (name, version) in LibraryVersions.all { print("\(name) \(version)") }
    }
}
