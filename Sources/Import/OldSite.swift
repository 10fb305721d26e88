import BlogModel
import Foundation
import HTMLMarkup

/// The URLs the old site served, read from what every generator leaves behind: its built
/// output folder (`_site/`, `public/`: each `index.html` and `*.html` is a URL) or its
/// `sitemap.xml`. `OldSiteMatcher` gives each imported item the old URL that is its own, so
/// every address the old site had keeps answering, whatever rule the generator followed.
struct OldSite {
    struct Page: Equatable {
        /// Root-relative (`/blog/2019/05/hello/`, `/about.html`).
        var path: String
        /// The page's own title (`og:title`, else the first `h1`, else `<title>`), when read
        /// from a built page.
        var title: String?
    }

    var pages: [Page] = []
    /// Where the URLs were read, for the report.
    var source: String

    /// A built site is read up to this many HTML files (a blog's pages, tag lists and archive).
    static let pageLimit = 50_000

    /// A sitemap is read up to the protocol's own limit.
    static let sitemapLimit = 50 * 1024 * 1024

    /// `basePath` (`/blog`) is put before the paths of a built folder, whose files sit at the
    /// folder's root whatever the address the site was served under.
    static func read(_ location: URL, basePath: String = "") throws -> OldSite {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: location.path, isDirectory: &isFolder) else {
            throw ImportError.oldSite("\(location.path): no such file or folder")
        }
        if !isFolder.boolValue {
            let paths = try sitemap(at: location)
            return OldSite(pages: paths.map { Page(path: $0) }, source: location.lastPathComponent)
        }
        var site = OldSite(source: location.path)
        let base = location.standardizedFileURL.resolvingSymlinksInPath().path + "/"
        guard let walker = FileManager.default.enumerator(at: location, includingPropertiesForKeys: [.isRegularFileKey],
                                                          options: [.skipsHiddenFiles]) else { return site }
        var seen = Set<String>()
        for case let url as URL in walker where ["html", "htm"].contains(url.pathExtension.lowercased()) {
            guard site.pages.count < pageLimit else { break }
            let real = url.standardizedFileURL.resolvingSymlinksInPath().path
            guard real.hasPrefix(base) else { continue }   // a link out of the folder is not read
            var path = "/" + String(real.dropFirst(base.count))
            if path.hasSuffix("/index.html") || path.hasSuffix("/index.htm") {
                path = String(path[...path.lastIndex(of: "/")!])
            }
            path = basePath + path
            guard seen.insert(path).inserted else { continue }
            // The head and the first heading are near the top: a page is read up to 256 KB. One
            // that cannot be read is still a URL the old site had, without a title.
            let data = (try? readPrefix(url, upTo: 256 * 1024)) ?? Data()
            // A redirect page (Hugo aliases, jekyll-redirect-from) is not a page of its own.
            let html = String(decoding: data, as: UTF8.self)
            if html.range(of: #"http-equiv=["']?refresh"#, options: [.regularExpression, .caseInsensitive]) != nil,
               html.count < 2_048 { continue }
            site.pages.append(Page(path: path, title: title(of: html)))
        }
        let map = location.appendingPathComponent("sitemap.xml")
        if FileManager.default.fileExists(atPath: map.path) {
            for path in try sitemap(at: map) where seen.insert(path).inserted { site.pages.append(Page(path: path)) }
        }
        site.pages.sort { $0.path < $1.path }
        return site
    }

    /// The paths of a sitemap's `<loc>` entries. A sitemap index (a multilingual Hugo site's)
    /// lists sitemaps: those beside it, by the path of their address, are read in turn.
    static func sitemap(at file: URL, depth: Int = 0) throws -> [String] {
        let data: Data
        do { data = try readPrefix(file, upTo: sitemapLimit + 1) } catch {
            throw ImportError.oldSite("\(file.path) cannot be read: \(error.localizedDescription)")
        }
        guard data.count <= sitemapLimit else { throw ImportError.oldSite("\(file.lastPathComponent) is over 50 MB, the sitemap protocol's limit") }
        let tree: XMLTree
        do { tree = try XMLTree.parse(data) } catch { throw ImportError.oldSite("\(file.lastPathComponent) does not parse: \(error)") }
        // With the sitemap namespace (as the protocol has it) or without (as some generators write it).
        let prefix = tree.name.hasPrefix("sitemap:") ? "sitemap:" : ""
        if tree.name == prefix + "sitemapindex", depth == 0 {
            let folder = file.deletingLastPathComponent().standardizedFileURL.resolvingSymlinksInPath()
            return try tree.children(prefix + "sitemap").flatMap { entry -> [String] in
                guard let path = entry.value(prefix + "loc").flatMap(Permalinks.path(of:)) else { return [] }
                // Its path from the site's root, less leading folders (a site under /blog/ lists
                // /blog/en/sitemap.xml for the folder's en/sitemap.xml): the first that is there.
                let segments = path.split(separator: "/").map(String.init)
                let child = segments.indices.lazy.map { folder.appendingPathComponent(segments[$0...].joined(separator: "/")) }
                    .map { $0.standardizedFileURL.resolvingSymlinksInPath() }
                    .first { FileManager.default.fileExists(atPath: $0.path) } ?? folder.appendingPathComponent(path)
                // Only a file inside the old site's folder; one it does not hold is said.
                guard child.path.hasPrefix(folder.path + "/"), FileManager.default.fileExists(atPath: child.path) else {
                    throw ImportError.oldSite("the sitemap index lists \(path), which is not beside it in \(folder.path)")
                }
                return try sitemap(at: child, depth: depth + 1)
            }
        }
        guard tree.name == prefix + "urlset" else {
            throw ImportError.oldSite("\(file.lastPathComponent) is not a sitemap (no <urlset>)")
        }
        return tree.children(prefix + "url").compactMap { $0.value(prefix + "loc").flatMap(Permalinks.path(of:)) }
    }

    /// At most `limit` bytes from the start of a file: what a page's title or a sitemap needs.
    private static func readPrefix(_ url: URL, upTo limit: Int) throws -> Data {
        let handle = try FileHandle(forReadingFrom: url)
        defer { try? handle.close() }
        return try handle.read(upToCount: limit) ?? Data()
    }

    private static func title(of html: String) -> String? {
        let root = HTMLNode.parse(html, options: .importer)
        let all = root.descendants()
        func clean(_ text: String?) -> String? {
            let words = text?.split(whereSeparator: \.isWhitespace).joined(separator: " ")
            return words?.isEmpty == false ? words : nil
        }
        if let og = all.first(where: { $0.name == "meta" && $0.attribute("property") == "og:title" }) {
            if let title = clean(og.attribute("content")) { return title }
        }
        if let heading = all.first(where: { $0.name == "h1" }), let title = clean(heading.text()) { return title }
        return clean(all.first { $0.name == "title" }?.text())
    }
}

/// Gives each imported item the old URL that is its own, and says which old URLs no item has:
///
/// 1. the URL the source states or its generator's rule gives, when the old site has it;
/// 2. else the old URL whose last segment is the item's slug (its file name, stated slug or
///    title made a slug), the one with the item's year and month when several have it;
/// 3. else the built page whose title is the item's.
///
/// The old site is the truth: a URL it never had is not kept as an alias (it would only add
/// addresses nobody ever used); the source's own `aliases`/`redirect_from` stay.
enum OldSiteMatcher {
    struct Result {
        var matched = 0
        /// Old URLs that look like posts or pages but match no item.
        var unmatched: [String] = []
    }

    /// `dropUnmatched`: the old site was named (`--old-site`), so a URL a rule guessed that it
    /// does not have is dropped; a URL the source states is always kept, and an output folder
    /// found in the source (maybe stale) only adds what it knows.
    static func match(_ items: inout [ImportedItem], site: OldSite, dropUnmatched: Bool = true) -> Result {
        var result = Result()
        var free = Set(site.pages.map(\.path))
        func normalized(_ path: String) -> String { path.hasSuffix("/") || path.contains(".") && !path.hasSuffix("/") ? path : path + "/" }
        let byPath = Dictionary(site.pages.map { (normalized($0.path), $0.path) }, uniquingKeysWith: { first, _ in first })
        var bySlug: [String: [String]] = [:]
        // Lists (tags, categories, archives) are Lectern's own: no item takes one by slug or title.
        for page in site.pages where !isList(page.path) {
            guard let slug = Permalinks.slug(fromPath: page.path, mediumID: false) else { continue }
            bySlug[slug, default: []].append(page.path)
        }
        var byTitle: [String: [String]] = [:]
        for page in site.pages where !isList(page.path) {
            if let title = page.title { byTitle[key(title), default: []].append(page.path) }
        }

        func claim(_ path: String, for index: Int) {
            free.remove(path)
            items[index].link = path
            result.matched += 1
        }
        var pending: [Int] = []
        for index in items.indices where items[index].skipReason == nil {
            if let link = items[index].link, let old = Permalinks.path(of: link), let path = byPath[normalized(old)], free.contains(path) {
                claim(path, for: index)
            } else {
                pending.append(index)
            }
        }
        var unmatchedItems: [Int] = []
        for index in pending {
            let item = items[index]
            let slugs = [item.link.flatMap(Permalinks.path(of:)).flatMap { Permalinks.slug(fromPath: $0, mediumID: false) },
                         item.slug.map(Slug.make), item.sourceFile.flatMap { Permalinks.slug(fromPath: "/" + $0, mediumID: false) },
                         item.title.map(Slug.make)].compactMap { $0 }.filter { !$0.isEmpty }
            var candidates = slugs.flatMap { bySlug[$0] ?? [] }.filter(free.contains)
            if candidates.isEmpty, let title = item.title { candidates = (byTitle[key(title)] ?? []).filter(free.contains) }
            if candidates.count > 1, let date = item.date {
                let parts = Calendar(identifier: .gregorian).dateComponents(in: TimeZone(identifier: "UTC")!, from: date)
                let year = String(parts.year ?? 0), month = String(format: "%02d", parts.month ?? 0)
                let dated = candidates.filter { $0.contains("/\(year)/\(month)/") || $0.contains("/\(year)-\(month)-") }
                candidates = dated.isEmpty ? candidates.filter { $0.contains(year) } : dated
            }
            guard let path = candidates.first, Set(candidates).count == 1 else {
                unmatchedItems.append(index)
                continue
            }
            claim(path, for: index)
        }
        // What the old site had that no item took, leaving out its lists (home, tags, pages of
        // a list, feeds, archives): those are Lectern's own.
        result.unmatched = free.filter { !isList($0) }.sorted()
        for index in unmatchedItems where dropUnmatched && items[index].link != nil && items[index].linkFromRule {
            // The old site never served the URL its rule gives: no alias to an address nobody used.
            items[index].warnings.append("its old URL \(items[index].link!) is not in the old site (\(site.source)): no alias written")
            items[index].link = nil
        }
        return result
    }

    private static func key(_ title: String) -> String {
        title.lowercased().filter { $0.isLetter || $0.isNumber }
    }

    static func isList(_ path: String) -> Bool {
        var segments = path.lowercased().split(separator: "/").map(String.init)
        // A language's prefix (`/fr/tags/x/`) says nothing of what the page is.
        if segments.count > 1, Patterns.matches(#"^[a-z]{2}(-[a-z]+)?$"#, in: segments[0]).first != nil { segments.removeFirst() }
        guard let first = segments.first else { return true }
        let lists: Set<String> = ["tags", "tag", "categories", "category", "page", "feed", "rss", "atom", "search", "authors",
                                  "author", "series", "topics", "404.html", "404", "index.xml", "feed.xml"]
        // `/archives/123/` is a post (WordPress's numeric links); `/archives/`, `/2019/05/` list posts.
        // Under a base path too (`/blog/tags/swift/`): any folder of the path may name the list.
        return lists.contains(first) || segments.dropLast().contains(where: lists.contains)
            || segments.allSatisfy { $0.allSatisfy(\.isNumber) }
            || segments.contains("page") && segments.last?.allSatisfy(\.isNumber) == true
            || ["404.html", "404", "search", "tags", "categories", "archive", "archives"].contains(segments.last ?? "")
    }
}
