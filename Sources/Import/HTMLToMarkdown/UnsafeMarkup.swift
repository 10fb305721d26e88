import HTMLMarkup

/// What an imported post must not carry onto the blog, however its source wrote it: a feed
/// fetched from the network is no safer than a reply. Removed: `<script>` (a gist's is a link by
/// then, `EmbedLinks`), `<base>`, `<meta>`, `<link>`, `<object>`, `<applet>`, `<frame>`,
/// `<frameset>`; every `on…` event attribute; and any URL attribute whose scheme is not http(s),
/// mailto or tel (`javascript:`, `data:`, `vbscript:`…). Relative URLs stay. Returns one report
/// line for each kind of thing removed, with how many.
enum UnsafeMarkup {
    static let removedElements: Set<String> = ["script", "base", "meta", "link", "object", "applet", "frame", "frameset"]
    static let urlAttributes: Set<String> = ["href", "src", "action", "formaction", "xlink:href", "poster", "data",
                                             "background", "cite", "longdesc", "srcset"]
    static let allowedSchemes: Set<String> = ["http", "https", "mailto", "tel"]

    static func remove(in root: HTMLNode) -> [String] {
        var counts: [String: Int] = [:]
        clean(root, counts: &counts)
        return counts.keys.sorted().map { "\($0) removed (\(counts[$0]!)×): not safe on a page" }
    }

    private static func clean(_ element: HTMLNode, counts: inout [String: Int]) {
        element.children.removeAll { child in
            guard removedElements.contains(child.name) else { return false }
            counts["<\(child.name)>", default: 0] += 1
            return true
        }
        element.attributes.removeAll { attribute in
            let name = attribute.name.lowercased()
            if name.hasPrefix("on") {
                counts["\(name) attribute", default: 0] += 1
                return true
            }
            if urlAttributes.contains(name), !isSafe(attribute.value) {
                counts["\(name) with a \(scheme(of: attribute.value) ?? "?"): URL", default: 0] += 1
                return true
            }
            return false
        }
        for child in element.elementChildren { clean(child, counts: &counts) }
    }

    /// Relative, or of an allowed scheme. Browsers ignore tabs, line breaks and leading blanks
    /// in a scheme (`java\tscript:`), so they are ignored here too.
    static func isSafe(_ url: String) -> Bool {
        guard let scheme = scheme(of: url) else { return true }
        return allowedSchemes.contains(scheme)
    }

    static func scheme(of url: String) -> String? {
        let folded = url.unicodeScalars.filter { !($0 == "\t" || $0 == "\n" || $0 == "\r") }
        let text = String(String.UnicodeScalarView(folded)).drop { $0 == " " || $0.unicodeScalars.first!.value < 0x20 }
        guard let colon = text.firstIndex(of: ":") else { return nil }
        let candidate = text[..<colon]
        // A colon after a slash, `?` or `#` is inside a relative path or query, not a scheme.
        guard !candidate.isEmpty, !candidate.contains(where: { "/?#".contains($0) }) else { return nil }
        return candidate.lowercased()
    }
}
