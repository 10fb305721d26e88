import Foundation

/// URLs in a Markdown body: remote images (`![alt](https://…)`, raw `<img src="https://…">`) to
/// download and point at the copies, and link destinations to point at new URLs.
enum MarkdownURLs {
    private static let imagePatterns = [#"(!\[[^\]]*\]\(\s*<?)(https?://[^)\s>]+)"#,
                                        #"(<img\b[^>]*?\bsrc\s*=\s*["'])(https?://[^"']+)"#]

    static func remoteImages(in markdown: String) -> [String] {
        var seen = Set<String>()
        return imagePatterns.flatMap { Patterns.matches($0, in: markdown).map { $0[2] } }.filter { seen.insert($0).inserted }
    }

    static func rewriteImages(_ markdown: String, _ urls: [String: String]) -> String {
        guard !urls.isEmpty else { return markdown }
        var text = markdown
        for pattern in imagePatterns {
            text = Patterns.replace(pattern, in: text) { groups in groups[1] + (urls[groups[2]] ?? groups[2]) }
        }
        return text
    }

    /// `[text](old)` → `[text](new)` for the destinations `links` knows (a `#fragment` is kept).
    static func rewriteLinks(_ markdown: String, _ links: LinkMap) -> String {
        guard !links.isEmpty else { return markdown }
        return Patterns.replace(#"(\]\(\s*<?)([^)\s>]+)"#, in: markdown) { groups in
            groups[1] + (links.url(for: groups[2]) ?? groups[2])
        }
    }
}

/// New URLs of imported items by their old URLs, so links between imported posts point at the
/// new site: looked up by the exact old URL (either scheme, with or without the final `/`) or,
/// for root-relative links, by path.
struct LinkMap: Sendable {
    private var urls: [String: String] = [:]

    var isEmpty: Bool { urls.isEmpty }

    mutating func add(oldURL: String, newURL: String) {
        var variants = [oldURL]
        if oldURL.hasPrefix("https://") { variants.append("http://" + oldURL.dropFirst(8)) }
        if oldURL.hasPrefix("http://") { variants.append("https://" + oldURL.dropFirst(7)) }
        if let path = Permalinks.path(of: oldURL) { variants.append(path) }
        for variant in variants {
            let bare = variant.hasSuffix("/") ? String(variant.dropLast()) : variant
            for key in [bare, bare + "/"] where urls[key] == nil { urls[key] = newURL }
        }
    }

    func url(for href: String) -> String? {
        let parts = href.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        guard let first = parts.first, !first.isEmpty, let url = urls[first] else { return nil }
        return url + (parts.count > 1 ? "#" + parts[1] : "")
    }
}

/// Images a Markdown body links on the site itself (`![a](/images/x.png)`, `![a](x.png)` in a
/// bundle) that the source does not have: real blogs link files from their author's laptop or
/// never committed. The build refuses a missing local image, so each becomes a link to the old
/// site's copy when its address is known, else its alt text, and is reported; one missing file
/// never stops a whole blog's import.
enum MissingImages {
    private static let markdownImage = #"!\[([^\]]*)\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)"#

    /// - Parameters:
    ///   - resolve: the site path a source resolves to (`x.png` → `/2019/slug/x.png`), nil for
    ///     sources that are not local (remote, `data:`).
    ///   - exists: whether the site will have a file at that path.
    ///   - oldPage: the post's address on the old site (else the old site's), for the link to
    ///     the old copy: a source resolves against it as it did there.
    static func replace(in markdown: String, resolve: (String) -> String?, exists: (String) -> Bool,
                        oldPage: String?, warnings: inout [String]) -> String {
        var found: [(source: String, old: String?)] = []
        let text = Patterns.replace(markdownImage, in: markdown) { groups in
            guard let path = resolve(groups[2]), !exists(path) else { return groups[0] }
            let alt = groups[1].isEmpty ? "image" : groups[1]
            let old = oldPage.flatMap { page in URL(string: groups[2], relativeTo: URL(string: page))?.absoluteString }
            found.append((groups[2], old))
            return old.map { "[\(alt)](\($0))" } ?? alt
        }
        for (source, old) in found {
            warnings.append("image \(source) is not in the source: "
                            + (old.map { "linked to the old site's \($0) instead" } ?? "replaced by its alt text"))
        }
        return text
    }
}
