import ArgumentParser
import BlogModel
import Foundation
import OutboundHTTP
import Import
import Interactions
import LecternRuntime
import Site

struct ImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import posts from a feed, a WordPress or Ghost export, or a Hugo, Jekyll, Zola or Eleventy site.",
        discussion: """
        Each item becomes content/posts/YYYY-MM-DD-slug.md (pages: content/pages/slug.md) with YAML front \
        matter. The slug comes from the item's old URL; when the old URL differs from /YYYY/slug/, an alias \
        keeps it working. Existing files are never overwritten (the item is skipped and reported). Drafts \
        are imported with draft: true. An import writes everything or nothing: the site is first built \
        with the imported files in a scratch folder, and when that build fails (the error names each file \
        and line), nothing is written and the command exits 1 after its report. --dry-run runs the same check.

        Examples, one per kind of SOURCE:

          RSS 2.0 feed, a file or a URL (Medium, WordPress, Jekyll…):
            lectern import -s mysite https://medium.com/feed/@me
            lectern import -s mysite feed.xml --download-images
          Atom feed (a Blogger export is one too):
            lectern import -s mysite atom.xml
          WordPress export (Tools → Export, WXR):
            lectern import -s mysite wordpress.2024-03-02.xml --dry-run
          Ghost export (Settings → Labs → Export, JSON):
            lectern import -s mysite ghost.json --source-url https://old.example
          Hugo site folder (TOML or YAML front matter, page bundles):
            lectern import -s mysite ~/sites/hugo-blog
          Jekyll site folder (_posts/YYYY-MM-DD-slug.md):
            lectern import -s mysite ~/sites/jekyll-blog --json
          Zola site folder (content/ with +++ front matter):
            lectern import -s mysite ~/sites/zola-blog --bundle-files static
          Eleventy site folder (.eleventy.js, *.11tydata.json), with the old site's sitemap for its URLs:
            lectern import -s mysite ~/sites/11ty-blog --old-site ~/sites/11ty-blog/_site/sitemap.xml

        Every old URL keeps answering: an item's old URL comes from its front matter, the generator's \
        rules, --permalink, or (best) the old site itself: --old-site names its built output folder or \
        its sitemap.xml, and a site folder's own _site/, public/ or dist/ is read when present.

        --json prints the report as JSON (schema: docs/import.md).
        """)

    @OptionGroup var siteOptions: SiteOptions

    @Argument(help: "A feed file or URL, an export file, or a Hugo/Jekyll/Zola/Eleventy site folder.")
    var source: String

    @Option(help: "Folder for imported posts, relative to the site.")
    var into = "content/posts"

    @Flag(help: "Write nothing; print what would be imported.")
    var dryRun = false

    @Flag(help: "Fetch remote images into static/YYYY/slug/ and link to the copies.")
    var downloadImages = false

    @Flag(help: "Print the report as JSON.")
    var json = false

    @Option(help: "The old site's address (for Ghost's __GHOST_URL__ and relative image paths).")
    var sourceURL: String?

    @Option(help: "The old site's URL pattern for posts, when its files do not say (site folders): /blog/:year/:month/:slug/ (tokens :year :month :day :slug :title :filename :section :categories).")
    var permalink: String?

    @Option(help: "The old site as it was served: its built output folder (_site/, public/) or its sitemap.xml; each post keeps the old URL found there.")
    var oldSite: String?

    func validate() throws {
        if let permalink, !Importer.isPermalinkPattern(permalink) {
            throw ValidationError("--permalink must be a path such as /blog/:year/:month/:slug/, naming the post by :slug, :title or :filename")
        }
    }

    @Option(help: "Where a page bundle's files go: next-to-post (the post becomes a folder) or static.")
    var bundleFiles: BundleFiles = .nextToPost

    enum BundleFiles: String, ExpressibleByArgument, CaseIterable {
        case nextToPost = "next-to-post"
        case `static`
    }

    func run() async throws {
        var report: ImportReport?
        do {
            try await reportingErrors {
                let config = try SiteConfig.load(from: siteOptions.root)
                var options = Importer.Options(siteRoot: siteOptions.root, timeZone: config.timeZone)
                options.postsFolder = into
                options.dryRun = dryRun
                options.downloadImages = downloadImages
                options.sourceURL = sourceURL
                options.permalink = permalink
                options.oldSite = oldSite
                options.bundleAssets = bundleFiles == .static ? .staticFolder : .nextToPost
                let client = BlogActor.client(config)
                let importer = Importer(options: options, downloader: HTTPImageDownloader(client: client))
                func importing() async throws -> ImportReport {
                    do { return try await importer.run(source: source) } catch let error as ImportError { throw CLIError(error.description) }
                }
                if dryRun {
                    report = try await importing()
                    return
                }
                // Imported posts are old news: recorded as published, never announced to followers,
                // whatever their date, before any build (a running server's) can see them; then
                // built, and served by a running server within a second.
                try await siteOptions.openBlog().addWithoutAnnouncing {
                    let written = try await importing()
                    report = written
                    return Set(written.writtenPosts)
                }
            }
        } catch {
            // The report comes first, whatever follows: it is what the writer acts on.
            if let report { try printReport(report) }
            throw error
        }
        guard let report else { return }
        try printReport(report)
        if report.failure != nil { throw ExitCode.failure }
    }

    private func printReport(_ report: ImportReport) throws {
        if json {
            print(String(decoding: try report.jsonData(), as: UTF8.self))
        } else {
            print(report.text, terminator: "")
        }
    }
}

/// Fetches images (and feed URLs) through Lectern's SSRF-guarded client, following up to five
/// redirects, each checked again by the client.
struct HTTPImageDownloader: ImageDownloader {
    var client: FetchClient

    init(client: FetchClient) {
        var client = client
        client.maximumBodySize = 20 << 20
        client.totalTimeout = .seconds(30)
        self.client = client
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    func download(_ url: String) async throws -> [UInt8] {
        var current = url
        for _ in 0..<5 {
            let response = try await client.perform(OutgoingRequest(url: current, headers: [(name: "Accept", value: "*/*")]))
            switch response.status {
            case 200..<300:
                return response.body
            case 301, 302, 303, 307, 308:
                guard let location = response.header("location"),
                      let next = URL(string: location, relativeTo: URL(string: current))?.absoluteString else {
                    throw Failure(description: "HTTP \(response.status) without a usable Location")
                }
                current = next
            default:
                throw Failure(description: "HTTP \(response.status)")
            }
        }
        throw Failure(description: "more than five redirects")
    }
}
