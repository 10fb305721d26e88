/// Makes HTML from other servers safe to store and show: an allowlist applied to real tokens
/// (see `HTMLTokenizer`), re-serialized from scratch so nothing the sender wrote reaches the
/// page verbatim.
///
/// ```swift
/// HTMLSanitizer.sanitize(#"<p onclick="x()">Hi <script>alert(1)</script><a href="https://a.example">a</a></p>"#)
/// // <p>Hi <a href="https://a.example" rel="nofollow noopener noreferrer ugc">a</a></p>
/// ```
/// Kept: `p br a span em strong b i u s del code pre blockquote ul ol li`; `href` on links
/// (http, https and mailto only); `class` limited to Mastodon's microformat and link-shortening
/// classes. Elements outside the list are dropped but their text is kept, except for those whose
/// content is code or chrome (`script`, `style`, `svg`…), which go entirely.
public enum HTMLSanitizer {
    static let allowedElements: Set<String> = ["p", "br", "a", "span", "em", "strong", "b", "i", "u", "s", "del",
                                               "code", "pre", "blockquote", "ul", "ol", "li"]
    static let allowedClasses: Set<String> = ["mention", "hashtag", "invisible", "ellipsis", "h-card", "u-url"]
    static let allowedSchemes: Set<String> = ["http", "https", "mailto"]
    /// Elements whose whole content is dropped with them.
    static let droppedWithContent: Set<String> = ["script", "style", "template", "iframe", "object", "svg",
                                                  "math", "noscript", "textarea", "select", "title", "head", "xmp",
                                                  "noembed", "noframes", "plaintext", "canvas", "audio", "video"]
    // (`embed` is void: it is simply not allowed.)
    static let linkRel = "nofollow noopener noreferrer ugc"
    /// Deeper nesting than this is flattened (its tags dropped, its text kept).
    static let maximumDepth = 32

    public static func sanitize(_ html: String) -> String {
        var output = ""
        output.reserveCapacity(html.utf8.count)
        var open: [String] = []
        var dropping: [String] = []  // a stack: <svg> inside <svg>
        for token in HTMLTokenizer(html) {
            switch token {
            case .text(let text):
                if dropping.isEmpty { output += escape(text) }
            case .startTag(let name, let attributes, let selfClosing):
                if droppedWithContent.contains(name) {
                    if !selfClosing { dropping.append(name) }
                    continue
                }
                guard dropping.isEmpty else { continue }
                guard allowedElements.contains(name), open.count < maximumDepth else { continue }
                output += "<" + name + serialize(attributes, of: name) + ">"
                if name != "br" { open.append(name) }
            case .endTag(let name):
                if !dropping.isEmpty {
                    if let index = dropping.lastIndex(of: name) { dropping.removeSubrange(index...) }
                    continue
                }
                guard let index = open.lastIndex(of: name) else { continue }
                // Closing an outer element closes everything opened inside it.
                for element in open[index...].reversed() { output += "</\(element)>" }
                open.removeSubrange(index...)
            }
        }
        for element in open.reversed() { output += "</\(element)>" }
        return output
    }

    private static func serialize(_ attributes: [(name: String, value: String)], of element: String) -> String {
        var output = ""
        for attribute in attributes {
            switch attribute.name {
            case "href" where element == "a":
                if let url = safeURL(attribute.value) { output += " href=\"\(escape(url, quotes: true))\"" }
            case "class":
                let classes = attribute.value.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" })
                    .map(String.init).filter(allowedClasses.contains)
                if !classes.isEmpty { output += " class=\"\(classes.joined(separator: " "))\"" }
            default:
                continue
            }
        }
        if element == "a" { output += " rel=\"\(linkRel)\"" }
        return output
    }

    /// The URL when its scheme is allowed. Browsers ignore tabs, newlines and leading spaces or
    /// control characters in a scheme (`java\tscript:`), so they are ignored here too.
    public static func safeURL(_ raw: String) -> String? {
        let url = String(raw.unicodeScalars.filter { $0.value > 0x20 && $0.value != 0x7F })
        guard let colon = url.firstIndex(of: ":") else { return nil }
        let scheme = url[..<colon].lowercased()
        guard allowedSchemes.contains(scheme), !url[..<colon].contains(where: { "/?#".contains($0) }) else { return nil }
        return url
    }

    static func escape(_ text: String, quotes: Bool = false) -> String {
        var output = ""
        output.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": output += "&amp;"
            case "<": output += "&lt;"
            case ">": output += "&gt;"
            case "\"" where quotes: output += "&quot;"
            case "\u{0}": continue
            default: output.unicodeScalars.append(scalar)
            }
        }
        return output
    }

    /// Plain text (no tags) of sanitized or remote HTML, for digests and summaries.
    public static func text(_ html: String) -> String { HTMLText.plain(sanitize(html)) }
}
