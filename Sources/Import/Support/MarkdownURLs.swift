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

    /// References to local files (`](x)`, `src="x"`, `href="x"`, `[label]: x`) replaced by
    /// the paths `files` gives them; any other text left as it is.
    static func rewriteFiles(_ markdown: String, _ files: [String: String]) -> String {
        guard !files.isEmpty else { return markdown }
        // Outside fenced code: an example in a code block is the writer's text.
        var output: [String] = [], prose: [Substring] = [], fence: Substring?
        func flush() {
            guard !prose.isEmpty else { return }
            var text = prose.joined(separator: "\n")
            for pattern in [#"(\]\(\s*<?)([^)\s>]+)"#, #"(\b(?:src|href)\s*=\s*["'])([^"']+)"#,
                            #"(?m)(^ {0,3}\[[^\]\n]+\]:[ \t]*<?)([^>\s]+)"#] {
                text = Patterns.replace(pattern, in: text) { groups in groups[1] + (files[groups[2]] ?? groups[2]) }
            }
            output.append(text)
            prose = []
        }
        for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.drop { $0 == " " }
            let marker = trimmed.prefix { $0 == "`" || $0 == "~" }
            if let open = fence {
                output.append(String(line))
                if marker.count >= open.count, marker.first == open.first { fence = nil }
            } else if marker.count >= 3, line.count - trimmed.count < 4 {
                flush()
                fence = marker
                output.append(String(line))
            } else {
                prose.append(line)
            }
        }
        flush()
        return output.joined(separator: "\n")
    }

    /// `[text](old)` → `[text](new)` for the destinations `links` knows (a `#fragment` is kept).
    static func rewriteLinks(_ markdown: String, _ links: LinkMap) -> String {
        guard !links.isEmpty else { return markdown }
        var text = Patterns.replace(#"(\]\(\s*<?)([^)\s>]+)"#, in: markdown) { groups in
            groups[1] + (links.url(for: groups[2]) ?? links.fileURL(for: groups[2]) ?? groups[2])
        }
        // A file beside another post, linked under that post's old URL (`<img src="/posts/old/a.png">`).
        text = Patterns.replace(#"(\bsrc\s*=\s*["'])(/[^"']+)"#, in: text) { groups in
            groups[1] + (links.fileURL(for: groups[2]) ?? groups[2])
        }
        return text
    }
}

/// New URLs of imported items by their old URLs, so links between imported posts point at the
/// new site: looked up by the exact old URL (either scheme, with or without the final `/`) or,
/// for root-relative links, by path.
struct LinkMap: Sendable {
    private var urls: [String: String] = [:]

    var isEmpty: Bool { urls.isEmpty }

    /// The files that travel with each item (a bundle's), by its new URL.
    private var files: [String: Set<String>] = [:]

    mutating func add(oldURL: String, newURL: String, files names: [String] = []) {
        files[newURL, default: []].formUnion(names)
        var variants = [oldURL]
        if oldURL.hasPrefix("https://") { variants.append("http://" + oldURL.dropFirst(8)) }
        if oldURL.hasPrefix("http://") { variants.append("https://" + oldURL.dropFirst(7)) }
        if let path = Permalinks.path(of: oldURL) { variants.append(path) }
        for variant in variants {
            let bare = variant.hasSuffix("/") ? String(variant.dropLast()) : variant
            for key in [bare, bare + "/"] where urls[key] == nil { urls[key] = newURL }
        }
    }

    /// A file that travels with an item (a bundle's image), linked under the item's old URL
    /// (`/posts/old/a.png`): the same file under its new URL.
    func fileURL(for href: String) -> String? {
        guard let slash = href.lastIndex(of: "/"), href.index(after: slash) < href.endIndex,
              let folder = urls[String(href[...slash])] else { return nil }
        let name = String(href[href.index(after: slash)...])
        return files[folder]?.contains(name) == true ? folder + name : nil
    }

    func url(for href: String) -> String? {
        let parts = href.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        guard let first = parts.first, !first.isEmpty, let url = urls[first] else { return nil }
        return url + (parts.count > 1 ? "#" + parts[1] : "")
    }
}

/// Images a Markdown body links on the site itself (`![a](/images/x.png)`, `![a](x.png)` in a
/// bundle, `![a][ref]` with `[ref]: /images/x.png`) that the source does not have: real blogs
/// link files from their author's laptop or never committed. The build refuses a missing local
/// image, so each one points at the old site's copy instead (still an image: a link around it
/// stays as it was), or, when the old address is unknown, becomes its alt text; each is
/// reported. One missing file never stops a whole blog's import.
enum MissingImages {
    /// `![alt](dest "title")`, the destination plain or in `<…>`, the title in "…", '…' or (…).
    private static let inlineImage =
        #"!\[((?:[^\]\\]|\\.)*)\]\(\s*(<[^>\n]*>|[^)\s]+)((?:\s+(?:"[^"]*"|'[^']*'|\([^)]*\)))?\s*)\)"#
    /// `[label]: dest …`, a reference definition (images by reference use it).
    private static let definition = #"(?m)^( {0,3}\[[^\]\n]+\]:[ \t]*)(<[^>\n]*>|\S+)(.*)$"#

    /// - Parameters:
    ///   - resolve: the site path a source resolves to (`x.png` → `/2019/slug/x.png`), nil for
    ///     sources that are not local (remote, `data:`).
    ///   - exists: whether the site will have a file at that path.
    ///   - oldPage: the post's address on the old site (else the old site's), for the link to
    ///     the old copy: a source resolves against it as it did there.
    static func replace(in markdown: String, resolve: (String) -> String?, exists: (String) -> Bool,
                        oldPage: String?, warnings: inout [String]) -> String {
        var found: [(source: String, old: String?)] = []
        func oldCopy(_ destination: String) -> String?? {
            let source = destination.hasPrefix("<") ? String(destination.dropFirst().dropLast()) : destination
            guard let path = resolve(source), !exists(path) else { return .none }   // fine as it is
            let encoded = source.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.union(["?", "#", "%"])) ?? source
            let old = oldPage.flatMap { URL(string: encoded, relativeTo: URL(string: $0))?.absoluteString }
            found.append((source, old))
            return .some(old)
        }
        var text = Patterns.replace(inlineImage, in: markdown) { groups in
            guard let old = oldCopy(groups[2]) else { return groups[0] }
            guard let old else { return groups[1].isEmpty ? "image" : groups[1] }
            return "![\(groups[1])](<\(old)>\(groups[3]))"
        }
        // Definitions only images use: a link's definition (to a page, say) is not an image's.
        let imageLabels = Set(Patterns.matches(#"!\[([^\]]*)\]\[([^\]]*)\]"#, in: text).map { ($0[2].isEmpty ? $0[1] : $0[2]).lowercased() })
        text = Patterns.replace(definition, in: text) { groups in
            let label = groups[1].trimmingCharacters(in: .whitespaces).dropFirst().prefix { $0 != "]" }.lowercased()
            guard imageLabels.contains(label), let old = oldCopy(groups[2]), let old else { return groups[0] }
            return groups[1] + "<\(old)>" + groups[3]
        }
        for (source, old) in found {
            warnings.append("image \(source) is not in the source: "
                            + (old.map { "it shows the old site's copy, \($0)" } ?? "replaced by its alt text"))
        }
        return text
    }
}
