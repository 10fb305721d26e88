import BlogModel
import Foundation
import Site

/// Slugs and aliases from old URLs, so links to the old site keep working after the move:
/// `https://old.example/2019/05/my-post/` → slug `my-post`, alias `/2019/05/my-post/`;
/// `https://medium.com/@u/title-words-3f2a1b` → slug `title-words`, alias `/@u/title-words-3f2a1b`.
enum Permalinks {
    /// The path of a URL (absolute or root-relative), query and fragment dropped; nil when the
    /// URL has no path worth keeping (`/`, `/?p=12`).
    static func path(of link: String) -> String? {
        var text = link.trimmingCharacters(in: .whitespacesAndNewlines)
        if let range = text.range(of: "://") {
            let afterScheme = text[range.upperBound...]
            guard let slash = afterScheme.firstIndex(of: "/") else { return nil }
            text = String(afterScheme[slash...])
        }
        if let cut = text.firstIndex(where: { $0 == "?" || $0 == "#" }) { text = String(text[..<cut]) }
        guard text.hasPrefix("/"), text != "/" else { return nil }
        return text
    }

    /// The slug an old path gives: its last segment without extension (`.html`, `.php`…),
    /// percent-decoded, made a Lectern slug; Medium's trailing id removed when asked.
    static func slug(fromPath path: String, mediumID: Bool) -> String? {
        let segments = path.split(separator: "/").map { $0.removingPercentEncoding ?? String($0) }
        guard var last = segments.last(where: { !["index.html", "index.htm", "index.php", "amp"].contains($0) }) else {
            return nil
        }
        for ext in [".html", ".htm", ".php", ".aspx", ".asp", ".shtml", ".md"] where last.lowercased().hasSuffix(ext) {
            last = String(last.dropLast(ext.count))
        }
        if mediumID { last = strippingMediumID(last) }
        // `2019-12-20-hydration`: the new URL has the year already.
        last = withoutDatePrefix(last)
        let slug = Slug.make(last)
        // A bare number (`/?p=12`, `/archives/123`) says nothing about the post.
        return slug.isEmpty || slug.allSatisfy(\.isNumber) ? nil : slug
    }

    /// `2019-12-20-hydration` → `hydration` (Jekyll's, Eleventy's and Zola's dated names); a
    /// name that is only a date stays.
    static func withoutDatePrefix(_ name: String) -> String {
        Patterns.matches(#"^\d{4}-\d{2}-\d{2}-(.+)$"#, in: name).first?[1] ?? name
    }

    /// `title-words-3f2a1b9c0d1e` → `title-words` (Medium's 8–12 hexadecimal digit suffix).
    static func strippingMediumID(_ segment: String) -> String {
        guard let dash = segment.lastIndex(of: "-") else { return segment }
        let suffix = segment[segment.index(after: dash)...]
        let isID = (8...12).contains(suffix.count) && suffix.allSatisfy(\.isHexDigit) && suffix.contains(where: \.isNumber)
        return isID && dash > segment.startIndex ? String(segment[..<dash]) : segment
    }

    /// Why an alias is not written.
    struct AliasRefusal: Error { var reason: String }

    /// An alias as the site's content loader accepts it (a path from `/`, no `//` and no `..`):
    /// `.` and empty segments dropped, `..` applied (`/a/./b//c/` → `/a/b/c/`). Refused when
    /// nothing sensible is left: the home page (`//greek/..`), above the root. `..` inside a name
    /// (`vacances...`) is a name.
    /// Written as they were, such aliases made every later build fail.
    static func normalized(alias: String) -> Result<String, AliasRefusal> {
        let text = alias.trimmingCharacters(in: .whitespaces)
        guard text.hasPrefix("/") else { return .failure(AliasRefusal(reason: "is not a path on the site")) }
        var segments: [Substring] = []
        for segment in text.split(separator: "/") where segment != "." {
            if segment == ".." {
                guard !segments.isEmpty else { return .failure(AliasRefusal(reason: "climbs above the site's root")) }
                segments.removeLast()
            } else {
                segments.append(segment)
            }
        }
        guard !segments.isEmpty else { return .failure(AliasRefusal(reason: "is the home page")) }
        let folder = text.hasSuffix("/") || text.hasSuffix("/.") || text.hasSuffix("/..")
        // A space in a path is %20 (the way browsers asked for it, and one word in the redirects file).
        let joined = segments.map { segment in
            segment.contains(where: \.isWhitespace)
                ? String(segment).addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(.whitespacesAndNewlines))
                    ?? String(segment)
                : String(segment)
        }.joined(separator: "/")
        return .success("/" + joined + (folder ? "/" : ""))
    }

    /// The alias to write for an old path: none when it is the new URL already.
    static func alias(oldPath: String?, newPath: String) -> String? {
        guard let oldPath else { return nil }
        let normalized = oldPath.hasSuffix("/") ? oldPath : oldPath + "/"
        return normalized == newPath ? nil : oldPath
    }
}
