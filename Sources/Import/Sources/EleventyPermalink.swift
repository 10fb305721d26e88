import BlogModel
import Foundation

/// The URL Eleventy gave a content file: its `permalink` (a Liquid or Nunjucks template over
/// the page's data) or, without one, the default (`blog/post.md` → `/blog/post/`,
/// `blog/post/index.md` and `blog/post/post.md` → `/blog/post/`).
///
/// Only what permalinks use in practice is evaluated: `page.fileSlug`, `page.filePathStem`,
/// `page.date` and the page's own string data, through `slug`/`slugify`, `lower`/`downcase` and
/// date filters (strftime as Liquid's `date`, or Luxon tokens as the date filters blogs define).
/// Anything else makes the result unknown (nil), so no URL is guessed.
enum EleventyPermalink {
    struct Page {
        /// Path of the file relative to the input folder (`blog/2020-01-05-hello.md`).
        var inputPath: String
        var date: Date?
        var data: [String: Any]
    }

    enum Outcome: Equatable {
        case url(String)
        /// `permalink: false`: the old site never wrote the file.
        case notPublished
        /// A template the importer cannot evaluate (the expression named).
        case unknown(String)
    }

    static func url(for page: Page) -> Outcome {
        var permalink = page.data["permalink"]
        if let object = permalink as? [String: Any] { permalink = object["build"] }
        if let flag = permalink as? Bool { return flag ? .url(defaultURL(page)) : .notPublished }
        guard let template = permalink as? String, !template.trimmingCharacters(in: .whitespaces).isEmpty else {
            return .url(defaultURL(page))
        }
        var unknown: String?
        let expanded = Patterns.replace(#"\{\{-?\s*(.*?)\s*-?\}\}"#, in: template) { groups in
            guard let value = evaluate(groups[1], page: page) else {
                unknown = unknown ?? groups[0]
                return ""
            }
            return value
        }
        if let unknown { return .unknown(unknown) }
        if let tag = Patterns.matches(#"\{%.*?%\}"#, in: expanded).first { return .unknown(tag[0]) }
        return .url(outputURL(expanded))
    }

    /// `/a/b/index.html` → `/a/b/`; `a/b/` → `/a/b/`; `/a/b.html` stays.
    static func outputURL(_ path: String) -> String {
        var url = path.trimmingCharacters(in: .whitespaces)
        if !url.hasPrefix("/") { url = "/" + url }
        while url.contains("//") { url = url.replacingOccurrences(of: "//", with: "/") }
        if url.hasSuffix("/index.html") { url = String(url.dropLast("index.html".count)) }
        return url
    }

    static func defaultURL(_ page: Page) -> String {
        var parts = page.inputPath.split(separator: "/").map(String.init)
        let stem = ((parts.removeLast()) as NSString).deletingPathExtension
        if stem != "index" && stem != parts.last { parts.append(stem) }
        return parts.isEmpty ? "/" : "/" + parts.joined(separator: "/") + "/"
    }

    /// Eleventy's `page.fileSlug`: the file name without its extension and date prefix; the
    /// folder's name for an `index` file.
    static func fileSlug(_ inputPath: String) -> String {
        var parts = inputPath.split(separator: "/").map(String.init)
        var stem = ((parts.removeLast()) as NSString).deletingPathExtension
        // As Eleventy does it: the date prefix first, then `index` stands for its folder.
        stem = Permalinks.withoutDatePrefix(stem)
        // `index` is its folder, whose date prefix goes too (`2018-01-01-x/index.md` → `x`).
        return stem == "index" ? Permalinks.withoutDatePrefix(parts.last ?? "") : stem
    }

    private static func evaluate(_ expression: String, page: Page) -> String? {
        var stages = splitFilters(expression)
        guard !stages.isEmpty else { return nil }
        let head = stages.removeFirst().trimmingCharacters(in: .whitespaces)
        var value: Any?
        switch head {
        case "page.fileSlug": value = fileSlug(page.inputPath)
        case "page.filePathStem": value = "/" + (page.inputPath as NSString).deletingPathExtension
        case "page.date", "date": value = page.date
        default:
            if head.hasPrefix("\"") || head.hasPrefix("'") {
                value = String(head.dropFirst().dropLast())
            } else {
                let key = head.hasPrefix("page.") ? String(head.dropFirst(5)) : head
                value = FrontMatterReader.value(page.data, path: key).flatMap { $0 as? String ?? ($0 as? Int).map(String.init) }
            }
        }
        guard var current = value else { return nil }
        for stage in stages {
            guard let next = apply(stage.trimmingCharacters(in: .whitespaces), to: current) else { return nil }
            current = next
        }
        return current as? String
    }

    /// `a | slug | date: "%Y"` → ["a", "slug", "date: \"%Y\""] (bars inside quotes kept).
    private static func splitFilters(_ expression: String) -> [String] {
        var parts: [String] = [], current = "", quote: Character?
        for character in expression {
            if let open = quote {
                if character == open { quote = nil }
            } else if character == "\"" || character == "'" {
                quote = character
            } else if character == "|" {
                parts.append(current)
                current = ""
                continue
            }
            current.append(character)
        }
        parts.append(current)
        return parts
    }

    private static func apply(_ filter: String, to value: Any) -> Any? {
        let name = filter.prefix { $0.isLetter || $0.isNumber || $0 == "_" }
        let argument = Patterns.matches(#"["']([^"']*)["']"#, in: String(filter.dropFirst(name.count))).first?[1]
        switch name.lowercased() {
        case "slug", "slugify": return (value as? String).map(Slug.make)
        case "lower", "downcase", "lowercase": return (value as? String)?.lowercased()
        case "url", "trim", "safe", "strip": return value as? String
        case "htmldatestring": return (value as? Date).flatMap { format($0, luxon: "yyyy-LL-dd") }
        default:
            guard name.lowercased().contains("date"), let date = value as? Date, let argument else { return nil }
            return argument.contains("%") ? format(date, strftime: argument) : format(date, luxon: argument)
        }
    }

    /// Dates in permalinks are UTC, as Eleventy reads front-matter dates.
    private static var calendar: Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }

    private static func parts(_ date: Date) -> DateComponents {
        calendar.dateComponents([.year, .month, .day], from: date)
    }

    static func format(_ date: Date, strftime pattern: String) -> String? {
        let parts = parts(date)
        let values: [Character: String] = [
            "Y": String(parts.year ?? 0), "y": String(format: "%02d", (parts.year ?? 0) % 100),
            "m": String(format: "%02d", parts.month ?? 0), "d": String(format: "%02d", parts.day ?? 0),
            "e": String(parts.day ?? 0), "-": "", "%": "%",
        ]
        var result = "", iterator = pattern.makeIterator()
        while let character = iterator.next() {
            guard character == "%" else { result.append(character); continue }
            guard var code = iterator.next() else { return nil }
            if code == "-" {  // %-m: without the leading zero
                guard let next = iterator.next() else { return nil }
                code = next
                guard let value = values[code] else { return nil }
                result += String(Int(value) ?? 0)
                continue
            }
            guard let value = values[code] else { return nil }
            result += value
        }
        return result
    }

    static func format(_ date: Date, luxon pattern: String) -> String? {
        let parts = parts(date)
        let tokens: [(String, String)] = [
            ("yyyy", String(parts.year ?? 0)), ("yy", String(format: "%02d", (parts.year ?? 0) % 100)),
            ("MM", String(format: "%02d", parts.month ?? 0)), ("LL", String(format: "%02d", parts.month ?? 0)),
            ("dd", String(format: "%02d", parts.day ?? 0)), ("M", String(parts.month ?? 0)), ("L", String(parts.month ?? 0)),
            ("d", String(parts.day ?? 0)),
        ]
        var result = "", rest = Substring(pattern)
        outer: while let first = rest.first {
            for (token, value) in tokens where rest.hasPrefix(token) {
                result += value
                rest = rest.dropFirst(token.count)
                continue outer
            }
            // Any other letter is a token the importer does not know (month names, weekdays).
            guard !first.isLetter else { return nil }
            result.append(first)
            rest = rest.dropFirst()
        }
        return result
    }
}
