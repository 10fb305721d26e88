import BlogModel
import Foundation
import Site

/// Turns one planned item into its file: the body converted to Markdown (shortcodes and
/// cross references handled), remote images downloaded when asked, bundle and static files
/// copied, the front matter written, all into the import's staging folder (`ImportStaging`),
/// never into the site itself. With `dryRun` nothing is downloaded: an empty stand-in is staged
/// for each image, so the check build runs as a real import's would.
struct ItemWriter {
    let options: Importer.Options
    /// Where files are written: the staging folder, laid out as the site folder is.
    let writeRoot: URL
    let downloader: (any ImageDownloader)?
    /// The old site's address, for relative image sources.
    let baseURL: String?
    let kind: SourceKind

    func write(_ plan: ImportPlanner.Plan, references: CrossReferences, links: LinkMap) async throws -> ImportReport.Item {
        let item = plan.item
        var entry = ImportReport.Item(origin: item.origin, title: plan.title, outcome: item.kind == .post ? .post : .page,
                                      file: plan.file, url: plan.url, aliases: plan.aliases, draft: item.draft,
                                      warnings: plan.warnings)
        // The old URL as the alias spells it (nil when it could not be one: the home page, `//x/..`).
        entry.oldURL = item.link.flatMap(Permalinks.path(of:)).flatMap { old in
            guard case .success(let path) = Permalinks.normalized(alias: old) else { return nil }
            return path
        }
        // 1. The body as Markdown, with the sources of its remote images.
        var markdown: String
        var remote: [String]
        var absolute: [String: String] = [:]
        var imageSources: [String] = []
        switch item.body {
        case .markdown(let source):
            var shortcodes = Shortcodes(flavor: kind, resolve: references.url(for:))
            shortcodes.firstLine = item.bodyLine
            markdown = MarkdownURLs.rewriteLinks(MarkdownURLs.rewriteFiles(shortcodes.convert(source), item.fileRewrites), links)
            entry.warnings += shortcodes.warnings
            remote = MarkdownURLs.remoteImages(in: markdown)
        case .html(let html):
            let first = HTMLToMarkdown.convert(html, imageURLs: [:], links: links)
            imageSources = first.imageSources
            for source in first.imageSources { absolute[source] = absoluteURL(source, page: item.link) }
            let resolved = first.imageSources.map { absolute[$0] ?? $0 }
            remote = resolved.filter(Self.isRemote)
            markdown = first.markdown
            entry.removed = first.removed
            entry.warnings += first.warnings
        }
        var image = item.image.map { absoluteURL($0, page: item.link) ?? $0 }
        if let image, Self.isRemote(image), !remote.contains(image) { remote.append(image) }

        // 2. Remote images, downloaded next to the post's URL under static/.
        var local: [String: String] = [:]
        if let downloader, !remote.isEmpty {
            var taken = Set<String>()
            for url in remote {
                let result = await download(url, into: plan, downloader: downloader, taken: &taken)
                entry.images.append(result)
                if let path = result.url { local[url] = path }
            }
        }
        switch item.body {
        case .markdown:
            markdown = MarkdownURLs.rewriteImages(markdown, local)
        case .html(let html):
            var map: [String: String] = [:]
            for source in imageSources {
                let resolved = absolute[source] ?? source
                if let target = local[resolved] ?? (resolved == source ? nil : resolved) { map[source] = target }
            }
            if !map.isEmpty { markdown = HTMLToMarkdown.convert(html, imageURLs: map, links: links).markdown }
        }
        if let current = image, let path = local[current] { image = path }

        // 3. Files that travel with the post.
        let staticBase = "\(options.staticFolder)\(plan.url)"
        for asset in item.assets {
            let target = (plan.bundleFolder.map { "\($0)/" } ?? staticBase) + asset.name
            entry.images.append(copy(asset, to: target, link: asset.name))
        }
        for file in item.staticFiles {
            entry.images.append(copy(file, to: "\(options.staticFolder)/\(file.name)", link: "/" + file.name))
        }

        // 4. The file, with no local image the site will not have (the build would refuse it).
        if case .markdown = item.body {
            let oldPage = item.link.flatMap { absoluteURL($0, page: nil) ?? (Self.isRemote($0) ? $0 : nil) }
            markdown = MissingImages.replace(in: markdown, resolve: { sitePath(of: $0, in: plan) },
                                             exists: { willHave($0, plan: plan) }, oldPage: oldPage ?? baseURL,
                                             warnings: &entry.warnings)
        }
        let writer = PostWriter(timeZone: options.timeZone)
        var fields = PostWriter.Fields(title: plan.title, date: item.date, slug: plan.slug)
        fields.metadata = item.metadata
        if let updated = item.updated, let date = item.date, updated.timeIntervalSince(date) >= 60 { fields.updated = updated }
        fields.category = item.category?.trimmingCharacters(in: .whitespaces).nonEmpty
        if let category = fields.category, Slug.make(category).isEmpty {
            entry.warnings.append("category '\(category)' has no letters or digits: left out")
            fields.category = nil
        }
        fields.tags = FeedText.tags(item.tags)
        fields.image = image
        fields.aliases = plan.aliases
        // A series the source names wins over one guessed from titles.
        fields.series = item.series ?? plan.series?.name
        fields.seriesOrder = item.series == nil ? plan.series?.order : nil
        let text = item.kind == .post ? writer.post(fields, body: markdown) : writer.page(fields, body: markdown)
        try save(Data(text.utf8), to: plan.file)
        entry.warnings = Self.unique(entry.warnings)
        return entry
    }

    /// The path on the new site that an image source of a Markdown body names (relative ones
    /// against the post's URL, as the build resolves them); nil for remote and inline images.
    private func sitePath(of source: String, in plan: ImportPlanner.Plan) -> String? {
        // Anything with a scheme (`https:`, `data:`, `javascript:`) names no file of the site.
        if UnsafeMarkup.scheme(of: source) != nil || source.hasPrefix("//") || source.hasPrefix("#") { return nil }
        // The theme's own files (`/assets/style.css`) are there; a blog's `/assets/images/x.png` is a file of the site.
        if source.hasPrefix("/assets/"), Theme.embeddedFiles[String(source.dropFirst("/assets/".count))] != nil { return nil }
        // A source no URL parser takes (Pelican's `{filename}images/x.svg`) names no file the site
        // has: its text as a path, which `willHave` does not find.
        return URL(string: source, relativeTo: URL(string: "https://site.invalid" + plan.url))?.path ?? "/" + source
    }

    /// Whether the site will have a file at `path`: in its `static/`, among the files this import
    /// stages, or among the post's bundle files (a dry run copies none).
    private func willHave(_ path: String, plan: ImportPlanner.Plan) -> Bool {
        let manager = FileManager.default
        let inStatic = options.staticFolder + path
        if manager.fileExists(atPath: options.siteRoot.appendingPathComponent(inStatic).path)
            || manager.fileExists(atPath: writeRoot.appendingPathComponent(inStatic).path) { return true }
        if path.hasPrefix(plan.url) {
            let name = String(path.dropFirst(plan.url.count))
            if let folder = plan.bundleFolder, manager.fileExists(atPath: writeRoot.appendingPathComponent("\(folder)/\(name)").path) {
                return true
            }
            if plan.item.assets.contains(where: { $0.name == name && $0.refusal == nil && manager.fileExists(atPath: $0.source.path) }) {
                return true
            }
        }
        return plan.item.staticFiles.contains { "/" + $0.name == path && $0.refusal == nil && manager.fileExists(atPath: $0.source.path) }
    }

    /// An image source made absolute against the post's old URL or the old site's address.
    private func absoluteURL(_ source: String, page: String?) -> String? {
        if Self.isRemote(source) || source.hasPrefix("data:") { return nil }
        if source.hasPrefix("//") { return "https:" + source }
        for base in [page, baseURL].compactMap({ $0 }) where Self.isRemote(base) {
            if let url = URL(string: source, relativeTo: URL(string: base)) { return url.absoluteString }
        }
        return nil
    }

    private func download(_ url: String, into plan: ImportPlanner.Plan, downloader: any ImageDownloader,
                          taken: inout Set<String>) async -> ImportReport.Image {
        let folder = "\(options.staticFolder)\(plan.url)"
        if options.dryRun {
            let name = ImageFiles.name(for: url, bytes: nil, taken: taken)
            taken.insert(name)
            // An empty stand-in, so that the check build finds the image the post will link.
            try? save(Data(), to: folder + name)
            return ImportReport.Image(from: url, file: folder + name, url: plan.url + name, error: nil)
        }
        do {
            let bytes = try await downloader.download(url)
            let name = ImageFiles.name(for: url, bytes: bytes, taken: taken)
            taken.insert(name)
            let target = options.siteRoot.appendingPathComponent(folder + name)
            if let existing = FileManager.default.contents(atPath: target.path) ?? staged(folder + name) {
                guard existing == Data(bytes) else {
                    return ImportReport.Image(from: url, file: nil, url: nil,
                                              error: "\(folder + name) exists with other content (not overwritten); link kept")
                }
            } else {
                try save(Data(bytes), to: folder + name)
            }
            return ImportReport.Image(from: url, file: folder + name, url: plan.url + name, error: nil)
        } catch {
            return ImportReport.Image(from: url, file: nil, url: nil, error: "not downloaded (\(error)); link kept")
        }
    }

    func copy(_ asset: ImportedItem.Asset, to target: String, link: String) -> ImportReport.Image {
        if let refusal = asset.refusal { return ImportReport.Image(from: link, file: nil, url: nil, error: refusal) }
        let source = asset.source, destination = options.siteRoot.appendingPathComponent(target)
        guard let data = FileManager.default.contents(atPath: source.path) else {
            return ImportReport.Image(from: link, file: nil, url: nil, error: "cannot read \(source.path)")
        }
        if let existing = FileManager.default.contents(atPath: destination.path) ?? staged(target) {
            return existing == data ? ImportReport.Image(from: link, file: target, url: nil, error: nil)
                : ImportReport.Image(from: link, file: nil, url: nil, error: "\(target) exists with other content (not overwritten)")
        }
        do {
            try save(data, to: target)
            return ImportReport.Image(from: link, file: target, url: nil, error: nil)
        } catch {
            return ImportReport.Image(from: link, file: nil, url: nil, error: "\(error)")
        }
    }

    /// What an earlier item of this import staged at `relative` (two posts sharing an image).
    private func staged(_ relative: String) -> Data? {
        FileManager.default.contents(atPath: writeRoot.appendingPathComponent(relative).path)
    }

    /// Stages a new file (creating folders); fails rather than replace one, in the site or staged.
    private func save(_ data: Data, to relative: String) throws {
        // Whatever a source says, nothing is written outside the site folder.
        guard !relative.hasPrefix("/"), !relative.split(separator: "/").contains("..") else {
            throw SiteError.io(path: relative, message: "leads out of the site folder: never written")
        }
        let url = writeRoot.appendingPathComponent(relative)
        guard !FileManager.default.fileExists(atPath: options.siteRoot.appendingPathComponent(relative).path),
              !FileManager.default.fileExists(atPath: url.path) else {
            throw SiteError.io(path: relative, message: "already exists (never overwritten)")
        }
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: url, options: .withoutOverwriting)
    }

    static func isRemote(_ url: String) -> Bool { url.hasPrefix("https://") || url.hasPrefix("http://") }

    private static func unique(_ items: [String]) -> [String] {
        var seen = Set<String>()
        return items.filter { seen.insert($0).inserted }
    }
}
