import BlogModel
import Foundation

/// Turns source files into `Post` and `Page` values, validating every front matter field.
struct ContentParser {
    let timeZone: TimeZone

    /// `categories` (first one), `lastmod` and `description` are Hugo's names for `category`,
    /// `updated` and `summary`: a Hugo content folder builds as is.
    static let postKeys: Set<String> = ["title", "date", "updated", "slug", "category", "tags", "summary",
                                        "draft", "image", "pinned", "categories", "lastmod", "description",
                                        "id", "aliases", "federate", "series", "seriesOrder", "toc", "lang"]
    static let pageKeys: Set<String> = ["title", "slug", "summary", "draft", "menu", "aliases"]

    func post(source: String, file: String) throws -> Post {
        let matter = try FrontMatter.split(source, file: file)
        let fields = try YAMLFields(yaml: matter.yaml, file: file, lineOffset: matter.yamlFirstLine - 1)
        var warnings = fields.unknownKeyWarnings(allowed: Self.postKeys)
        guard let title = try fields.string("title"), !title.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw SiteError.source(file: file, line: 1, message: "front matter needs a 'title'")
        }
        guard let date = try fields.date("date", timeZone: timeZone) else {
            throw SiteError.source(file: file, line: fields.keys.isEmpty ? 1 : fields.line(of: "title"),
                                   message: "front matter needs a 'date' such as 2025-03-01")
        }
        let updatedKey = fields.keys.contains("updated") ? "updated" : "lastmod"
        let updated = try fields.date(updatedKey, timeZone: timeZone)
        if let updated, updated < date {
            throw fields.error(updatedKey, "is earlier than 'date'")
        }
        let slug = try slug(fields: fields, title: title, file: file)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let year = calendar.component(.year, from: date)
        var tagValues = try fields.strings("tags")
        if tagValues.count == 1, tagValues[0].contains(",") {
            // `tags: swift, rust` is one YAML string; the writer meant two tags.
            warnings.append("\(file):\(fields.line(of: "tags")): 'tags' is one text with commas; read as a list "
                            + "(write tags: [\(tagValues[0])])")
            tagValues = tagValues[0].split(separator: ",").map(String.init)
        }
        let tags = tagValues.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        for tag in tags where Slug.make(tag).isEmpty {
            throw fields.error("tags", "contains '\(tag)', which has no letters or digits")
        }
        let categoryKey = fields.keys.contains("category") ? "category" : "categories"
        let category = try (categoryKey == "category" ? fields.string("category") : fields.strings("categories").first)?
            .trimmingCharacters(in: .whitespaces)
        if let category, Slug.make(category).isEmpty {
            throw fields.error(categoryKey, "needs letters or digits")
        }
        var post = Post(sourcePath: file, title: title, date: date, updated: updated, slug: slug,
                    category: category?.isEmpty == true ? nil : category,
                    tags: Self.unique(tags), summary: try fields.string("summary") ?? fields.string("description"),
                    draft: try fields.bool("draft") ?? false, image: try fields.string("image"),
                    pinned: try fields.bool("pinned") ?? false, markdown: matter.body,
                    sourceHash: ContentHash(source),
                    path: ContentPaths.section(of: file).map { "/\(Slug.make($0))/\(slug)/" } ?? "/\(year)/\(slug)/",
                    slugLine: fields.keys.contains("slug") ? fields.line(of: "slug") : fields.line(of: "title"))
        post.warnings = warnings
        // `image: cover.png` in a bundle is the file beside the post.
        post.image = post.image.map { LinkResolution.resolve($0, against: post.path) ?? $0 }
        post.declaredID = try fields.string("id")
        if let id = post.declaredID, URLComponents(string: id)?.scheme?.hasPrefix("http") != true {
            throw fields.error("id", "must be the post's first URL, such as https://blog.example/2024/old-slug/")
        }
        post.aliases = try aliases(fields)
        post.federate = try fields.bool("federate") ?? true
        post.series = try fields.string("series").map { $0.trimmingCharacters(in: .whitespaces) }.flatMap { $0.isEmpty ? nil : $0 }
        post.seriesOrder = try fields.int("seriesOrder")
        post.toc = try fields.bool("toc")
        post.language = try fields.string("lang").map { $0.trimmingCharacters(in: .whitespaces) }
        if let language = post.language, !Self.isLanguageTag(language) {
            throw fields.error("lang", "must be a language tag such as en, de or pt-BR")
        }
        return post
    }

    /// A BCP 47 tag as far as the fediverse uses them: letters, digits and hyphens, starting with
    /// a 2–3 letter language (`en`, `pt-BR`, `zh-Hant`).
    static func isLanguageTag(_ tag: String) -> Bool {
        let parts = tag.split(separator: "-", omittingEmptySubsequences: false)
        guard let first = parts.first, (2...3).contains(first.count), first.allSatisfy({ $0.isASCII && $0.isLetter }),
              tag.count <= 35 else { return false }
        return parts.dropFirst().allSatisfy { (1...8).contains($0.count) && $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) } }
    }

    func page(source: String, file: String) throws -> Page {
        let matter = try FrontMatter.split(source, file: file)
        let fields = try YAMLFields(yaml: matter.yaml, file: file, lineOffset: matter.yamlFirstLine - 1)
        let warnings = fields.unknownKeyWarnings(allowed: Self.pageKeys)
        guard let title = try fields.string("title"), !title.isEmpty else {
            throw SiteError.source(file: file, line: 1, message: "front matter needs a 'title'")
        }
        let slug = try slug(fields: fields, title: title, file: file)
        var page = Page(sourcePath: file, title: title, slug: slug, summary: try fields.string("summary"),
                        draft: try fields.bool("draft") ?? false, markdown: matter.body,
                        sourceHash: ContentHash(source), path: "/\(slug)/", menuOrder: try fields.int("menu"))
        page.warnings = warnings
        page.aliases = try aliases(fields)
        return page
    }

    /// `aliases:` (Hugo's name): old paths on this site that redirect (301) to the post or page.
    private func aliases(_ fields: YAMLFields) throws -> [String] {
        let aliases = try fields.strings("aliases").map { $0.trimmingCharacters(in: .whitespaces) }
        // A `.` or `..` segment is refused; dots inside a name (`/posts/more.../`) are a name.
        // A space is %20 in an alias, as in any path (the redirects file is one path per word).
        for alias in aliases where !alias.hasPrefix("/") || alias.hasPrefix("//") || alias.contains(where: \.isWhitespace)
            || alias.split(separator: "/").contains(where: { $0 == ".." || $0 == "." }) {
            throw fields.error("aliases", "entries are paths on this site such as /2019/05/old-post/, not '\(alias)'")
        }
        return aliases
    }

    private func slug(fields: YAMLFields, title: String, file: String) throws -> String {
        if let given = try fields.string("slug") {
            let slug = Slug.make(given)
            guard !slug.isEmpty else { throw fields.error("slug", "needs letters or digits") }
            return slug
        }
        let fromTitle = Slug.make(title)
        if !fromTitle.isEmpty { return fromTitle }
        // A bundle's `index.md` is named after its folder.
        let name = ContentPaths.bundleFolder(of: file).map { ($0 as NSString).lastPathComponent } ?? (file as NSString).lastPathComponent
        let fromFile = Slug.make(name.replacingOccurrences(of: ".md", with: ""))
        guard !fromFile.isEmpty else {
            throw SiteError.source(file: file, line: fields.line(of: "title"),
                                   message: "cannot make a URL slug from the title; add a 'slug'")
        }
        return fromFile
    }

    private static func unique(_ items: [String]) -> [String] {
        var seen = Set<String>()
        return items.filter { seen.insert(Slug.make($0)).inserted }
    }
}
