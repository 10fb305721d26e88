import BlogModel
import Foundation
import HTMLMarkup
import Site

/// Reads a Hugo, Jekyll or Zola site folder. Posts keep their Markdown; their front matter is
/// normalised (Hugo's `categories`, `lastmod`, `description`, `aliases`; Jekyll's dated file
/// names, `permalink`, space-separated `categories`/`tags`, `published: false`, `redirect_from`;
/// Zola's `[taxonomies]` and `path`). Page bundles (`post/index.md` with files next to it) bring
/// those files along; images the posts link from the site's static folder are copied too.
///
/// - Hugo: `content/<section>/…` are posts, `content/*.md` pages, `_index.md` skipped.
/// - Jekyll: `_posts/YYYY-MM-DD-slug.md` are posts, `_drafts/` drafts, root `*.md` pages.
/// - Zola: like Hugo; a `YYYY-MM-DD-` or `YYYY-MM-DD_` file name prefix is the date.
enum StaticSiteFolder {
    private static let contentExtensions: Set<String> = ["md", "markdown", "mdown", "html"]
    /// Eleventy's `.html` files are templates (layouts, lists) far more often than posts.
    private static let eleventyExtensions: Set<String> = ["md", "markdown", "mdown"]
    private static let handledKeys: Set<String> = [
        "title", "date", "publishDate", "pubDate", "lastmod", "updated", "last_modified_at", "modified", "draft",
        "published", "tags", "categories", "category", "taxonomies", "summary", "description", "excerpt", "slug", "url",
        "permalink", "path", "aliases", "redirect_from", "image", "images", "featured_image", "feature_image", "cover",
        "thumbnail", "header", "layout", "type", "pinned", "extra", "weight", "expiryDate", "headless", "series",
    ]
    private static let handledKeysLowercased = Set(handledKeys.map { $0.lowercased() })

    static func read(_ root: URL, flavor: SourceKind, timeZone siteTimeZone: TimeZone, permalink: String? = nil) throws -> SourceContent {
        let config = StaticSiteConfig.load(root, flavor: flavor)
        let timeZone = config.timeZone ?? siteTimeZone
        var content = SourceContent(kind: flavor, items: [], baseURL: config.baseURL, warnings: config.warnings)
        let boundary = SourceBoundary(root)
        for file in try contentFiles(config, boundary: boundary) {
            content.items.append(item(file, config: config, timeZone: timeZone, boundary: boundary, permalink: permalink))
        }
        if flavor == .jekyll { content.files = standalonePages(config, boundary: boundary) }
        if let eleventy = config.eleventy {
            let templates = eleventyTemplatePages(eleventy)
            if !templates.isEmpty {
                content.warnings.append("\(templates.count) template file(s) with front matter are not imported (only Markdown is): "
                                        + templates.prefix(10).joined(separator: ", ") + (templates.count > 10 ? ", …" : ""))
            }
        }
        return content
    }

    struct ContentFile {
        var url: URL
        /// Path relative to the site folder (`content/posts/x.md`, `_posts/2019-05-14-x.md`).
        var relative: String
        /// Folders between the content root and the file (the bundle folder excluded).
        var sections: [String]
        var isBundle: Bool
        var isPost: Bool
        var isDraft: Bool
        var skipReason: String?
        /// A Hugo/Zola section with no page below it (`posts/2021-05-01/_index.md`): served at
        /// its folder's path as a page of its own.
        var isLeafSection = false
    }

    private static func contentFiles(_ config: StaticSiteConfig, boundary: SourceBoundary) throws -> [ContentFile] {
        let manager = FileManager.default
        var all: [String] = []
        let base = config.root.standardizedFileURL.path + "/"
        guard let walker = manager.enumerator(at: config.flavor == .jekyll ? config.root : config.contentRoot,
                                              includingPropertiesForKeys: [.isRegularFileKey], options: [.skipsHiddenFiles]) else {
            throw ImportError.missing(config.contentRoot.path)
        }
        let inputBase = config.contentRoot.standardizedFileURL.path + "/"
        for case let url as URL in walker {
            // Eleventy's includes, layouts, data and output folders hold no pages.
            if let eleventy = config.eleventy, url.lastPathComponent == "node_modules"
                || eleventy.excluded.contains(String(url.standardizedFileURL.path.dropFirst(inputBase.count))) {
                walker.skipDescendants()
                continue
            }
            // A folder linked out of the source is not entered (whatever the enumerator would do).
            if boundary.refusal(url) != nil, (try? url.resourceValues(forKeys: [.isDirectoryKey]).isDirectory) == true {
                walker.skipDescendants()
            }
            let extensions = config.flavor == .eleventy ? eleventyExtensions : contentExtensions
            guard extensions.contains(url.pathExtension.lowercased()) else { continue }
            all.append(String(url.standardizedFileURL.path.dropFirst(base.count)))
        }
        let contentPrefix = String(config.contentRoot.standardizedFileURL.path.dropFirst(base.count - 1))
            .trimmingCharacters(in: CharacterSet(charactersIn: "/"))
        // A Zola blog may keep its posts in the root section (`content/_index.md` sorting by date).
        let rootIsBlog = config.flavor == .zola && sortsByDate(config.contentRoot.appendingPathComponent("_index.md"))
        var files: [ContentFile] = []
        for relative in all.sorted() {
            let url = config.root.appendingPathComponent(relative)
            var parts = relative.split(separator: "/").map(String.init)
            let fileName = parts.removeLast()
            if config.flavor == .jekyll {
                if let index = parts.lastIndex(where: { $0 == "_posts" || $0 == "_drafts" }) {
                    let draft = parts[index] == "_drafts"
                    files.append(ContentFile(url: url, relative: relative, sections: Array(parts[..<index]), isBundle: false,
                                             isPost: true, isDraft: draft))
                } else if !parts.contains(where: { $0.hasPrefix("_") || ["node_modules", "vendor"].contains($0) }),
                          !config.isExcluded(relative),
                          url.pathExtension != "html", !isRepositoryFile(fileName), hasFrontMatter(url),
                          !(parts.isEmpty && ["index", "404"].contains(url.deletingPathExtension().lastPathComponent.lowercased())) {
                    // Jekyll makes a page of every file with front matter outside `_` folders.
                    files.append(ContentFile(url: url, relative: relative, sections: parts, isBundle: false, isPost: false,
                                             isDraft: false))
                }
                continue
            }
            if !contentPrefix.isEmpty, parts.first == contentPrefix { parts.removeFirst() }
            // Files inside a leaf bundle (other than its index.md and translations, `index.fr.md`)
            // are its resources (Hugo, Zola).
            if config.flavor != .eleventy, !fileName.hasPrefix("index."), all.contains(where: { other in
                other != relative && other.hasSuffix("/index.md") && relative.hasPrefix(String(other.dropLast("index.md".count)))
            }) { continue }
            var isSection = fileName.hasPrefix("_index.") && config.flavor != .eleventy
            var isBundle = fileName.hasPrefix("index.")
            // A section with no page of its own below it (`posts/2021-05-01/_index.md` beside its
            // image) was served as one page: read as a bundle, a post when it has a date.
            let folderPrefix = String(relative.dropLast(fileName.count))
            if isSection, !parts.isEmpty, !all.contains(where: { $0 != relative && $0.hasPrefix(folderPrefix) && !$0.dropFirst(folderPrefix.count).hasPrefix("_index.") }) {
                isSection = false
                isBundle = true
            }
            // An Eleventy folder's index.md is a bundle only when no other page shares its folder.
            if config.flavor == .eleventy, isBundle {
                isBundle = !all.contains { $0 != relative && $0.hasPrefix(folderPrefix) }
            }
            let sections = isBundle ? Array(parts.dropLast()) : parts
            var file = ContentFile(url: url, relative: relative, sections: sections, isBundle: isBundle,
                                   isPost: !sections.isEmpty || rootIsBlog, isDraft: false)
            file.isLeafSection = isBundle && fileName.hasPrefix("_index.")
            if isSection { file.skipReason = "section list page (_index), not a post" }
            if isRepositoryFile(fileName) { file.skipReason = "a file about the repository (\(fileName)), not a page of the blog" }
            if isBundle && parts.isEmpty { file.skipReason = "the home page (content/index), not a post" }
            if parts.isEmpty, (fileName as NSString).deletingPathExtension == "404" {
                file.skipReason = "the old site's page for missing addresses (Lectern has its own)"
            }
            files.append(file)
        }
        for index in files.indices { if let refusal = boundary.refusal(files[index].url) { files[index].skipReason = refusal } }
        return files
    }

    /// Jekyll copies a file without front matter as it is: a folder whose `index.html` has none
    /// is a page of its own (a talk's slides, a demo with its scripts), served at the folder's
    /// path. Its files move in whole, under `static/`.
    private static func standalonePages(_ config: StaticSiteConfig, boundary: SourceBoundary) -> [ImportedItem.Asset] {
        let manager = FileManager.default
        let base = config.root.standardizedFileURL.path + "/"
        var files: [ImportedItem.Asset] = []
        for name in ((try? manager.contentsOfDirectory(atPath: config.root.path)) ?? []).sorted()
        where !name.hasPrefix("_") && !name.hasPrefix(".") && !config.isExcluded(name)
            && !(standaloneSkipped.contains(name) || lecternPaths.contains(name)) {
            let folder = config.root.appendingPathComponent(name)
            let index = folder.appendingPathComponent("index.html")
            guard manager.fileExists(atPath: index.path), !hasFrontMatter(index), boundary.refusal(folder) == nil,
                  let walker = manager.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey, .fileSizeKey],
                                                  options: [.skipsHiddenFiles]) else { continue }
            for case let url as URL in walker {
                if url.lastPathComponent == "node_modules" || config.isExcluded(String(url.standardizedFileURL.path.dropFirst(base.count))) {
                    walker.skipDescendants()
                    continue
                }
                guard let values = try? url.resourceValues(forKeys: [.isRegularFileKey, .fileSizeKey]), values.isRegularFile == true else {
                    continue
                }
                var asset = ImportedItem.Asset(source: url, name: String(url.standardizedFileURL.path.dropFirst(base.count)))
                asset.refusal = boundary.refusal(url)
                if (values.fileSize ?? 0) > standaloneFileLimit { asset.refusal = "over 50 MB: not copied (copy it by hand if it is wanted)" }
                files.append(asset)
                if files.count >= standaloneFileCount { break }
            }
        }
        return files
    }

    /// Folders a Jekyll site keeps its theme's files in (not pages), and Lectern's own top-level
    /// paths, which a copied folder would clash with.
    private static let standaloneSkipped: Set<String> = ["node_modules", "vendor", "assets", "images", "img", "css", "js"]
    private static let lecternPaths: Set<String> = ["tags", "search", "archive", "page", "feed", "preview", "_lectern", "actor",
                                                    "inbox", "outbox", "interact", "subscribe", "unsubscribe", "admin", "stats"]
    private static let standaloneFileLimit = 50 * 1024 * 1024
    private static let standaloneFileCount = 5_000

    /// Eleventy pages written as templates (`.njk`, `.liquid`, `.html`…) with front matter: lists
    /// and feeds most often, sometimes a page; the report names them, as none is imported.
    private static func eleventyTemplatePages(_ project: EleventyProject) -> [String] {
        let base = project.input.path + "/"
        guard let walker = FileManager.default.enumerator(at: project.input, includingPropertiesForKeys: nil,
                                                          options: [.skipsHiddenFiles]) else { return [] }
        var found: [String] = []
        for case let url as URL in walker {
            let relative = String(url.standardizedFileURL.path.dropFirst(base.count))
            if url.lastPathComponent == "node_modules" || project.excluded.contains(relative) {
                walker.skipDescendants()
                continue
            }
            if ["njk", "liquid", "html", "hbs", "ejs", "pug", "webc", "mustache"].contains(url.pathExtension.lowercased()),
               hasFrontMatter(url) {
                found.append(project.relativePath(url))
            }
        }
        return found.sorted()
    }

    /// Whether a file starts with front matter (`---`): Jekyll copies any other file as it is.
    private static func hasFrontMatter(_ url: URL) -> Bool {
        guard let handle = try? FileHandle(forReadingFrom: url) else { return false }
        defer { try? handle.close() }
        let head = (try? handle.read(upToCount: 8)) ?? Data()
        return String(decoding: head, as: UTF8.self).drop(while: { $0 == "\u{FEFF}" }).hasPrefix("---")
    }

    /// The files a repository keeps about itself, for its developers and tools, never pages of
    /// the blog: `README.md`, `LICENSE.md`, `CHANGELOG.md`, `AGENTS.md`, `TODO.md`…
    static func isRepositoryFile(_ fileName: String) -> Bool {
        let name = (fileName as NSString).deletingPathExtension.lowercased()
        return repositoryFiles.contains(name)
    }

    static let repositoryFiles: Set<String> = ["readme", "license", "licence", "copying", "changelog", "changes", "history",
                                               "contributing", "code_of_conduct", "security", "authors", "notice", "todo",
                                               "agents", "claude", "gemini", "copilot-instructions", "codeowners", "support",
                                               "funding", "migration-plan", "roadmap"]

    /// A whole HTML page kept in a content folder (`<!DOCTYPE html><html><head>…`): its `<body>`
    /// read by the HTML tree builder (never by pattern: markup can hide a `<script>` from one),
    /// without the scripts and styles that would run and restyle the page it is put in, and its
    /// `<title>`. Nil for an HTML fragment.
    private static func wholeDocument(_ html: String) -> (body: String, title: String?, removed: Int)? {
        guard html.range(of: #"(?s)^\s*(<!--.*?-->\s*)*(<!doctype html|<html[\s>])"#, options: [.regularExpression, .caseInsensitive]) != nil else {
            return nil
        }
        let root = HTMLNode.parse(html, options: .importer)
        let all = [root] + root.descendants()
        let title = all.first { $0.name == "title" }?.text().trimmingCharacters(in: .whitespacesAndNewlines)
        let body = all.first { $0.name == "body" } ?? root
        for head in all where head.name == "head" { head.children = [] }
        var removed = 0
        func strip(_ element: HTMLNode) {
            element.children.removeAll { child in
                guard ["script", "style", "noscript", "template"].contains(child.name) else { return false }
                removed += 1
                return true
            }
            for child in element.elementChildren { strip(child) }
        }
        strip(body)
        let text = body === root ? HTMLSerializer.html(children: root) : HTMLSerializer.html(children: body)
        return (text, title?.isEmpty == false ? title : nil, removed)
    }

    /// Whether a Zola section's `_index.md` lists its pages by date: a blog's posts, not pages.
    private static func sortsByDate(_ index: URL) -> Bool {
        guard let data = FileManager.default.contents(atPath: index.path), let text = String(data: data, encoding: .utf8),
              let front = try? FrontMatterReader(text, file: "_index.md") else { return false }
        return front.string("sort_by") == "date"
    }

    private static func item(_ file: ContentFile, config: StaticSiteConfig, timeZone: TimeZone, boundary: SourceBoundary,
                             permalink: String?) -> ImportedItem {
        var item = ImportedItem(kind: file.isPost ? .post : .page, origin: file.relative, body: .markdown(""))
        item.sourceFile = file.relative
        if let reason = file.skipReason {
            item.skipReason = reason
            return item
        }
        guard let data = FileManager.default.contents(atPath: file.url.path), let source = String(data: data, encoding: .utf8) else {
            item.skipReason = "cannot read the file as UTF-8 text"
            return item
        }
        var front: FrontMatterReader
        do {
            front = try FrontMatterReader(source, file: file.relative)
        } catch FrontMatterReader.Failure.invalid(let line, let message) {
            item.skipReason = "\(file.relative):\(line): \(message)"
            return item
        } catch {
            item.skipReason = "\(error)"
            return item
        }
        var eleventy: EleventySite.Page?
        if let project = config.eleventy {
            let page = EleventySite.page(file, front: &front, project: project)
            if let reason = page.skipReason {
                item.skipReason = reason
                return item
            }
            eleventy = page
        }
        item.body = file.url.pathExtension.lowercased() == "html" ? .html(front.body) : .markdown(front.body)
        item.bodyLine = Shortcodes.line(ofSuffix: front.body, in: source)

        // The name and date the file name gives (Jekyll and Zola put the date in it).
        var name = file.isBundle ? file.url.deletingLastPathComponent().lastPathComponent
            : file.url.deletingPathExtension().lastPathComponent
        var nameDate: Date?
        // Hugo's translation by file name (`index.fr.md`, `post.fr.md`): served under `/fr/`.
        var language: String?
        let stem = file.url.deletingPathExtension().lastPathComponent
        if config.flavor == .hugo, let match = Patterns.matches(#"^(.+)\.([A-Za-z]{2}(?:-[A-Za-z]+)?)$"#, in: stem).first,
           config.languages.contains(match[2].lowercased()) {
            language = match[2].lowercased()
            if !file.isBundle { name = match[1] }
        }
        if let match = Patterns.matches(#"^(\d{4}-\d{2}-\d{2})[-_](.+)$"#, in: name).first {
            nameDate = DateReading.parse(match[1], timeZone: timeZone)
            if nameDate != nil { name = match[2] }
        } else if Patterns.matches(#"^\d{4}-\d{2}-\d{2}$"#, in: name).first != nil {
            nameDate = DateReading.parse(name, timeZone: timeZone)   // a note named by its day
        }

        item.title = front.string("title")
        if case .html(let html) = item.body, let document = wholeDocument(html) {
            item.body = .html(document.body)
            if item.title == nil { item.title = document.title }
            item.warnings.append("a whole HTML document: its <body> imported, its <head> and \(document.removed) <script>/<style> element(s) left out")
        }
        item.date = front.string("date", "publishDate", "pubDate").flatMap { DateReading.parse($0, timeZone: timeZone) } ?? nameDate
        if let eleventy {
            item.kind = eleventy.isPost(date: item.date, sections: file.sections) ? .post : .page
        }
        item.updated = front.string("lastmod", "updated", "last_modified_at", "modified")
            .flatMap { DateReading.parse($0, timeZone: timeZone) }
        item.draft = file.isDraft || front.bool("draft") == true || front.bool("published") == false
        item.pinned = front.bool("pinned") == true
        let split = config.flavor == .jekyll
        var categories = front.strings("categories", split: split) + front.strings("category")
            + front.strings("taxonomies.categories")
        if config.flavor == .jekyll { categories = file.sections.filter { !$0.hasPrefix("_") } + categories }
        item.category = categories.first
        var tags = front.strings("tags", split: split)
        if let eleventy { tags = tags.filter { !eleventy.collectionTags.contains($0) } }
        item.tags = FeedText.tags(tags + front.strings("taxonomies.tags") + categories.dropFirst())
        item.summary = front.string("summary", "description", "excerpt")
        item.image = front.string("image", "image.path", "image.src", "featured_image", "feature_image", "cover.image",
                                  "thumbnail", "header.image", "extra.image") ?? front.strings("images").first
        // Hugo resolves an alias without a leading slash against the page's folder.
        let folder = "/" + file.sections.map { $0 + "/" }.joined()
        item.aliases = (front.strings("aliases") + front.strings("redirect_from")).map { $0.hasPrefix("/") ? $0 : folder + $0 }
        item.series = front.strings("series").first { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
        item.slug = front.string("slug")
        if front.string("type", "layout") == "page" { item.kind = .page }
        if config.flavor == .hugo, front.bool("headless") == true { item.skipReason = "headless bundle (not published)" }

        let page = StaticSitePermalinks.Page(sections: file.sections, name: name, title: item.title ?? name, slug: item.slug,
                                             date: item.date, categories: categories, isPost: item.kind == .post)
        // Stated by the file itself, or worked out by the generator's rule (a guess the old site may contradict).
        item.linkFromRule = eleventy.map { !$0.ownPermalink } ?? (front.string("url", "permalink", "path") == nil)
        if let eleventy {
            switch eleventy.url(date: item.date) {
            case .url(let path): item.link = config.basePath + path
            case .notPublished: item.skipReason = "permalink: false (the old site never published it)"
            case .unknown(let expression):
                item.warnings.append("its old URL is not known: the permalink \(expression) (\(eleventy.permalinkSource)) is not "
                                     + "read; give the rule with --permalink or the built site with --old-site")
            }
            if let permalink, item.kind == .post, !eleventy.permalinkStated {
                item.link = StaticSitePermalinks.path(for: page, front: front, config: config, timeZone: timeZone, given: permalink)
            }
        } else if file.isLeafSection, front.string("url", "path") == nil {
            let path = "/" + (file.sections + [name]).joined(separator: "/") + "/"
            item.link = config.basePath + (config.lowercasePaths ? path.lowercased() : path)
        } else {
            // The date's own offset decides the day in the URL, as the generator wrote it.
            let zone = front.string("date", "publishDate", "pubDate").flatMap(DateReading.statedOffset) ?? timeZone
            item.link = StaticSitePermalinks.path(for: page, front: front, config: config, timeZone: zone, given: permalink)
        }
        // GitHub Pages, where most Jekyll blogs lived, answers `/x.html` at `/x` too.
        if config.flavor == .jekyll, let link = item.link, link.hasSuffix(".html"), !link.hasSuffix("/index.html") {
            item.aliases.append(String(link.dropLast(".html".count)))
        }
        if let language, language != config.defaultLanguage, let link = item.link, link.hasPrefix(config.basePath + "/") {
            item.link = config.basePath + "/" + language + link.dropFirst(config.basePath.count)
        }
        if item.title == nil {
            item.title = name.replacingOccurrences(of: "-", with: " ").replacingOccurrences(of: "_", with: " ").capitalized
            item.warnings.append("no title in the front matter: made one from the file name")
        }
        // A dateless file is a page (an about page, a Zola blog's contact page beside its root
        // posts, a section of quotes): the old site served it, so it stays.
        if item.kind == .post, item.date == nil {
            item.kind = .page
            if !file.sections.isEmpty { item.warnings.append("no date (front matter or file name): imported as a page") }
        }
        let ignored = front.fields.keys.filter { !handledKeysLowercased.contains($0.lowercased()) }.sorted()
        if !ignored.isEmpty { item.warnings.append("front matter not imported: \(ignored.joined(separator: ", "))") }

        if file.isBundle { item.assets = bundleAssets(file.url.deletingLastPathComponent(), boundary: boundary) }
        let shipped = ShippedFiles.find(body: front.body, image: item.image, file: file.url, config: config, boundary: boundary,
                                        bundle: file.isBundle)
        item.staticFiles = shipped.files
        item.fileRewrites = shipped.rewrites
        if let image = item.image, let local = shipped.rewrites[image] { item.image = local }
        for path in shipped.missing { item.warnings.append("\(path) is not in the source folder: check the link") }
        return item
    }

    /// Every file in a bundle folder except its content files, by path relative to the folder.
    private static func bundleAssets(_ folder: URL, boundary: SourceBoundary) -> [ImportedItem.Asset] {
        let base = folder.standardizedFileURL.path + "/"
        guard let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey],
                                                          options: [.skipsHiddenFiles]) else { return [] }
        var assets: [ImportedItem.Asset] = []
        for case let url as URL in walker {
            if let refusal = boundary.refusal(url) {
                var asset = ImportedItem.Asset(source: url, name: String(url.standardizedFileURL.path.dropFirst(base.count)))
                asset.refusal = refusal
                assets.append(asset)
                walker.skipDescendants()
                continue
            }
            let isFile = (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) ?? false
            guard isFile, !contentExtensions.contains(url.pathExtension.lowercased()) else { continue }
            assets.append(ImportedItem.Asset(source: url, name: String(url.standardizedFileURL.path.dropFirst(base.count))))
        }
        return assets.sorted { $0.name < $1.name }
    }
}
