import BlogModel
import Foundation
import Site

/// Where each imported item goes: its slug (from the old URL's path, else the source's slug,
/// else the title), its new URL (`/YYYY/slug/` or `/slug/`), the aliases that keep old URLs
/// working, and its file. Never lets two items, or an item and existing content, share a URL,
/// and never picks a file that exists.
struct ImportPlanner {
    struct Plan {
        var item: ImportedItem
        var title: String
        var slug: String
        var url: String
        var aliases: [String]
        /// Relative to the site folder.
        var file: String
        /// The folder a bundle's files go to (when the post becomes `…/index.md`).
        var bundleFolder: String?
        var warnings: [String]
        /// Set after planning, when titles show a series.
        var series: SeriesDetector.Membership?
    }

    let options: Importer.Options
    let writer: PostWriter
    /// URLs in use on the site before the import, with the file that has each.
    private(set) var taken: [String: String]

    init(options: Importer.Options, existing: [String: String]) {
        self.options = options
        writer = PostWriter(timeZone: options.timeZone)
        taken = existing
    }

    /// The plan for `item`, or why it is skipped.
    mutating func plan(_ item: ImportedItem) -> Result<Plan, Skip> {
        if let reason = item.skipReason { return .failure(Skip(reason: reason)) }
        var warnings = item.warnings
        let title: String
        if let given = item.title?.split(whereSeparator: \.isWhitespace).joined(separator: " "), !given.isEmpty {
            title = given
        } else {
            if case .html(let html) = item.body { title = FeedText.fallbackTitle(body: html) } else { title = "Untitled" }
            warnings.append("no title: made one from the first words")
        }
        if item.kind == .post, item.date == nil { return .failure(Skip(reason: "no date")) }
        let oldPath = item.link.flatMap(Permalinks.path(of:))
        let base = oldPath.flatMap { Permalinks.slug(fromPath: $0, mediumID: item.linkHasMediumID) }
            ?? item.slug.map(Slug.make).flatMap { $0.isEmpty ? nil : $0 }
            ?? Slug.make(title).nonEmpty ?? (item.kind == .post ? "post" : "page")
        let prefix = item.kind == .post ? "/\(writer.year(of: item.date!))/" : "/"
        var slug = base
        var number = 2
        while let owner = taken["\(prefix)\(slug)/"] {
            if !owner.hasPrefix("import:") {
                return .failure(Skip(reason: "\(prefix)\(slug)/ is already used by \(owner)"))
            }
            slug = "\(base)-\(number)"
            number += 1
        }
        if slug != base { warnings.append("another imported item has \(prefix)\(base)/: this one is \(prefix)\(slug)/") }
        let url = "\(prefix)\(slug)/"
        let folder = item.kind == .post ? options.postsFolder : options.pagesFolder
        let stem = item.kind == .post ? String(writer.postFileName(date: item.date!, slug: slug).dropLast(3)) : slug
        let bundled = !item.assets.isEmpty && options.bundleAssets == .nextToPost
        let file = bundled ? "\(folder)/\(stem)/index.md" : "\(folder)/\(stem).md"
        if FileManager.default.fileExists(atPath: options.siteRoot.appendingPathComponent(file).path) {
            return .failure(Skip(reason: "\(file) already exists (never overwritten)"))
        }
        var aliases: [String] = []
        for candidate in [Permalinks.alias(oldPath: oldPath, newPath: url)].compactMap({ $0 }) + item.aliases {
            switch Permalinks.normalized(alias: candidate) {
            case .success(let alias): if alias != url && !aliases.contains(alias) { aliases.append(alias) }
            case .failure(let refusal): warnings.append("alias '\(candidate)' dropped: it \(refusal.reason)")
            }
        }
        taken[url] = "import:\(item.origin)"
        return .success(Plan(item: item, title: title, slug: slug, url: url, aliases: aliases, file: file,
                             bundleFolder: bundled ? "\(folder)/\(stem)" : nil, warnings: warnings))
    }

    struct Skip: Error {
        var reason: String
    }
}

extension String {
    var nonEmpty: String? { isEmpty ? nil : self }
}
