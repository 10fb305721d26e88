import Foundation
import HTMLMarkup
@testable import Import
import Site

/// Measures what text survives an import, independently of the converter: words of an HTML
/// fragment (tags dropped, block tags as spaces, entities decoded once), normalised to their
/// letters and digits so smart quotes and escapes do not count as changes.
enum TextMeasure {
    private static let blockTags = Set(["p", "div", "li", "ul", "ol", "h1", "h2", "h3", "h4", "h5", "h6", "br", "tr", "td",
                                        "th", "table", "thead", "tbody", "pre", "blockquote", "section", "figure",
                                        "figcaption", "hr", "dd", "dt", "dl", "aside", "header", "footer", "iframe", "cite"])

    /// Words of HTML text, normalised (lower-cased letters and digits only), in order.
    static func words(html: String) -> [String] {
        var text = html
        // What a browser never shows: scripts, styles, comments, and an iframe's fallback content.
        for pattern in [#"(?s)<script\b.*?</script>"#, #"(?s)<style\b.*?</style>"#, #"(?s)<!--.*?-->"#, #"(?s)<iframe\b.*?</iframe>"#] {
            text = text.replacingOccurrences(of: pattern, with: " ", options: .regularExpression)
        }
        text = Patterns.replace(#"</?([a-zA-Z][a-zA-Z0-9]*)\b[^>]*>"#, in: text) { groups in
            blockTags.contains(groups[1].lowercased()) ? " " : ""
        }
        text = HTMLEntities.decode(text)
        return words(text: text)
    }

    static func words(text: String) -> [String] {
        text.split(whereSeparator: \.isWhitespace).map { token in
            String(token.lowercased().filter { $0.isLetter || $0.isNumber })
        }.filter { !$0.isEmpty }
    }

    /// Words of a Markdown body as Lectern renders it.
    static func words(markdown: String) -> [String] {
        words(html: MarkdownRenderer.render(markdown).html)
    }

    /// The share of `before`'s words found in `after` (as a multiset): 1 when nothing was lost.
    static func survival(before: [String], after: [String]) -> Double {
        guard !before.isEmpty else { return 1 }
        var available: [String: Int] = [:]
        for word in after { available[word, default: 0] += 1 }
        var kept = 0
        for word in before where (available[word] ?? 0) > 0 {
            available[word]! -= 1
            kept += 1
        }
        return Double(kept) / Double(before.count)
    }

    /// The code blocks of rendered HTML (`<pre><code>` or `<pre>`), text decoded once, without
    /// the final line break.
    static func codeBlocks(html: String) -> [String] {
        Patterns.matches(#"(?s)<pre\b[^>]*>(.*?)</pre>"#, in: html).map { match in
            var inner = match[1]
            if inner.hasPrefix("\n") { inner.removeFirst() }
            inner = inner.replacingOccurrences(of: #"<br\s*/?>"#, with: "\n", options: .regularExpression)
            inner = inner.replacingOccurrences(of: #"<[^>]+>"#, with: "", options: .regularExpression)
            var code = HTMLEntities.decode(inner)
            while code.hasSuffix("\n") { code.removeLast() }
            return code
        }
    }

    /// Removes front matter (`---` or `+++` fences) from a content file.
    static func body(ofContentFile source: String) -> String {
        for fence in ["---", "+++"] where source.hasPrefix(fence + "\n") {
            let lines = source.split(separator: "\n", omittingEmptySubsequences: false)
            if let close = lines.dropFirst().firstIndex(where: { $0 == fence }) {
                return lines[(close + 1)...].joined(separator: "\n")
            }
        }
        return source
    }
}
