import BlogModel
import Foundation
import Site

/// The URL a Hugo, Jekyll or Zola site gave a content file, from its configuration's permalink
/// patterns, the file's place and its front matter (`url`, `permalink`, `path`, `slug`).
enum StaticSitePermalinks {
    struct Page {
        /// Folders between the content root and the file (`["posts"]`).
        var sections: [String]
        /// File name without extension (the bundle folder's name for `index.md`), date prefix removed.
        var name: String
        var title: String
        var slug: String?
        var date: Date?
        var categories: [String]
        var isPost: Bool
    }

    /// `given` (`--permalink`) stands for the site's pattern for posts when a post's front
    /// matter states no address of its own.
    static func path(for page: Page, front: FrontMatterReader, config: StaticSiteConfig, timeZone: TimeZone,
                     given: String? = nil) -> String {
        if let given, page.isPost, front.string("url", "permalink", "path") == nil {
            let values: [String: String] = [
                "slug": page.slug ?? page.name, "title": Slug.make(page.title), "filename": page.name,
                "section": page.sections.first ?? "", "sections": page.sections.joined(separator: "/"),
                "categories": page.categories.map { Slug.make($0) }.joined(separator: "/"),
            ].merging(dateTokens(page.date, timeZone: timeZone)) { first, _ in first }
            var path = expand(given, values)
            while path.contains("//") { path = path.replacingOccurrences(of: "//", with: "/") }
            return normalized(path)
        }
        let path: String
        switch config.flavor {
        case .jekyll: path = jekyll(page, front: front, config: config, timeZone: timeZone)
        case .zola: path = zola(page, front: front)
        default: path = hugo(page, front: front, config: config, timeZone: timeZone)
        }
        return config.basePath + path
    }

    private static func hugo(_ page: Page, front: FrontMatterReader, config: StaticSiteConfig, timeZone: TimeZone) -> String {
        if let url = front.string("url") { return normalized(url) }
        let section = page.sections.first
        let slugOrTitle = page.slug ?? urlize(page.title)
        if let section, let pattern = config.permalinks[section] {
            let values: [String: String] = [
                "slugorcontentbasename": page.slug ?? page.name, "slugorfilename": page.slug ?? page.name,
                "contentbasename": page.name, "filename": page.name, "sections": page.sections.joined(separator: "/"),
                "section": section, "slug": slugOrTitle, "title": urlize(page.title),
            ].merging(dateTokens(page.date, timeZone: timeZone)) { first, _ in first }
            let expanded = normalized(expand(pattern, values))
            return config.lowercasePaths ? expanded.lowercased() : expanded
        }
        let path = "/" + (page.sections + [page.slug ?? page.name]).joined(separator: "/") + "/"
        return config.lowercasePaths ? path.lowercased() : path
    }

    /// A title as Hugo puts it in a URL (`:slug` without a slug, `:title`): letters, digits,
    /// marks and `. / \\ _ # ~ - @` kept, a run of spaces (with what is dropped between) one
    /// hyphen, lower-cased, then `+` removed — so "Minor fixes + preparing release" is
    /// `minor-fixes--preparing-release`, "Maps & new syntax" `maps-new-syntax`, "News !"
    /// `news`. Fitted to, and checked against, the sitemap Hugo 0.111 built from a real blog
    /// (Tests/RealCorpus); later versions differ in corners, which `--old-site` settles.
    static func urlize(_ title: String) -> String {
        var target = String.UnicodeScalarView()
        var prependHyphen = false, wasHyphen = false
        for scalar in title.unicodeScalars {
            let allowed = "./\\_#+~-@".unicodeScalars.contains(scalar) || CharacterSet.letters.contains(scalar)
                || CharacterSet.decimalDigits.contains(scalar) || CharacterSet.nonBaseCharacters.contains(scalar)
            if allowed {
                wasHyphen = scalar == "-"
                if prependHyphen {
                    if !wasHyphen { target.append("-") }
                    prependHyphen = false
                }
                target.append(scalar)
            } else if !target.isEmpty, !wasHyphen, CharacterSet.whitespaces.contains(scalar) {
                prependHyphen = true
            }
        }
        return String(target).lowercased().replacingOccurrences(of: "+", with: "")
    }

    private static func jekyll(_ page: Page, front: FrontMatterReader, config: StaticSiteConfig, timeZone: TimeZone) -> String {
        let title = page.slug ?? page.name
        guard page.isPost else {
            if let permalink = front.string("permalink") {
                // `permalink: /about/code` is written as about/code.html (and served at both spellings).
                let trimmed = permalink.trimmingCharacters(in: .whitespaces)
                if !trimmed.hasSuffix("/"), !(trimmed.split(separator: "/").last?.contains(".") ?? true) {
                    return normalized(trimmed + ".html")
                }
                return normalized(permalink)
            }
            return "/" + (page.sections + [page.name]).joined(separator: "/") + ".html"
        }
        let styles = ["date": "/:categories/:year/:month/:day/:title:output_ext",
                      "pretty": "/:categories/:year/:month/:day/:title/",
                      "ordinal": "/:categories/:year/:y_day/:title:output_ext",
                      "weekdate": "/:categories/:year/W:week/:short_day/:title:output_ext",
                      "none": "/:categories/:title:output_ext"]
        let configured = config.permalinks["*"] ?? "date"
        let pattern = front.string("permalink") ?? styles[configured] ?? configured
        let values: [String: String] = [
            "categories": page.categories.map { $0.lowercased().replacingOccurrences(of: " ", with: "-") }.joined(separator: "/"),
            "title": title, "slug": title, "name": title, "output_ext": ".html",
        ].merging(dateTokens(page.date, timeZone: timeZone)) { first, _ in first }
        var path = expand(pattern, values)
        while path.contains("//") { path = path.replacingOccurrences(of: "//", with: "/") }
        return path.hasPrefix("/") ? path : "/" + path
    }

    private static func zola(_ page: Page, front: FrontMatterReader) -> String {
        if let path = front.string("path") { return normalized(path) }
        return "/" + (page.sections + [page.slug ?? Slug.make(page.name)]).joined(separator: "/") + "/"
    }

    private static func dateTokens(_ date: Date?, timeZone: TimeZone) -> [String: String] {
        guard let date else { return [:] }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second, .weekday], from: date)
        let day = calendar.ordinality(of: .day, in: .year, for: date) ?? 1
        let months = ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
                      "november", "december"]
        func two(_ value: Int?) -> String { String(format: "%02d", value ?? 0) }
        return ["year": String(parts.year ?? 0), "month": two(parts.month), "day": two(parts.day),
                "i_month": String(parts.month ?? 0), "i_day": String(parts.day ?? 0),
                "short_year": two((parts.year ?? 0) % 100), "y_day": String(format: "%03d", day),
                "hour": two(parts.hour), "minute": two(parts.minute), "second": two(parts.second),
                "monthname": months[(parts.month ?? 1) - 1], "yearday": String(day)]
    }

    /// Replaces `:token` with its value, longest names first (`:slugorfilename` before `:slug`).
    private static func expand(_ pattern: String, _ values: [String: String]) -> String {
        var result = pattern
        for key in values.keys.sorted(by: { $0.count > $1.count }) {
            result = result.replacingOccurrences(of: ":" + key, with: values[key]!)
        }
        return result
    }

    /// Root-relative, and ending with `/` unless it names a file.
    private static func normalized(_ path: String) -> String {
        var path = path.trimmingCharacters(in: .whitespaces)
        if let absolute = Permalinks.path(of: path), path.contains("://") { path = absolute }
        if !path.hasPrefix("/") { path = "/" + path }
        if !path.hasSuffix("/") && !(path.split(separator: "/").last?.contains(".") ?? false) { path += "/" }
        return path
    }
}
