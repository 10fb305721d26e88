/// Makes HTML from other servers safe to store and show: an allowlist applied to real tokens
/// (see `HTMLTokenizer`), re-serialized from scratch so nothing the sender wrote reaches the
/// page verbatim.
///
/// ```swift
/// HTMLSanitizer.sanitize(#"<p onclick="x()">Hi <script>alert(1)</script><a href="https://a.example">a</a></p>"#)
/// // <p>Hi <a href="https://a.example" rel="nofollow noopener noreferrer ugc">a</a></p>
/// ```
/// Kept: `p br a span em strong b i u s del code pre blockquote ul ol li`; headings become bold
/// paragraphs (`<p><strong>`: a comment has no place in the page's outline); `href` on links
/// (http and https with a host only, re-serialized by `HTTPURL`); `class` limited to Mastodon's
/// microformat and link-shortening classes. Elements outside the list are dropped but their text
/// is kept, except for those whose content is code or chrome (`script`, `style`, `svg`…), which
/// go entirely.
public enum HTMLSanitizer {
    static let allowedElements: Set<String> = ["p", "br", "a", "span", "em", "strong", "b", "i", "u", "s", "del",
                                               "code", "pre", "blockquote", "ul", "ol", "li"]
    /// Elements written as others: what they open, outermost first.
    static let renamed: [String: [String]] = ["h1": ["p", "strong"], "h2": ["p", "strong"], "h3": ["p", "strong"],
                                              "h4": ["p", "strong"], "h5": ["p", "strong"], "h6": ["p", "strong"]]
    static let allowedClasses: Set<String> = ["mention", "hashtag", "invisible", "ellipsis", "h-card", "u-url"]
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
        for token in HTMLTokenizer(html, options: .sanitizer) {
            switch token {
            case .text(let text):
                if dropping.isEmpty { output += HTMLEscape.escape(text, .remoteText) }
            case .comment:
                continue
            case .startTag(let name, let attributes, let selfClosing):
                if droppedWithContent.contains(name) {
                    if !selfClosing { dropping.append(name) }
                    continue
                }
                guard dropping.isEmpty else { continue }
                if let written = renamed[name], depth(open) + written.count <= maximumDepth {
                    for element in written { output += "<" + element + ">" }
                    open.append(name)
                    continue
                }
                guard allowedElements.contains(name), depth(open) < maximumDepth else { continue }
                output += "<" + name + serialize(attributes, of: name) + ">"
                if name != "br" { open.append(name) }
            case .endTag(let name):
                if !dropping.isEmpty {
                    if let index = dropping.lastIndex(of: name) { dropping.removeSubrange(index...) }
                    continue
                }
                guard let index = open.lastIndex(of: name) else { continue }
                // Closing an outer element closes everything opened inside it.
                for element in open[index...].reversed() { output += closing(element) }
                open.removeSubrange(index...)
            }
        }
        for element in open.reversed() { output += closing(element) }
        return output
    }

    /// How deep the output is inside `open`: a heading counts as the two elements it writes, so
    /// the limit holds for the output and sanitizing it again keeps every tag (found by Fuzz/).
    private static func depth(_ open: [String]) -> Int { open.reduce(0) { $0 + (renamed[$1]?.count ?? 1) } }

    private static func closing(_ element: String) -> String {
        (renamed[element] ?? [element]).reversed().map { "</\($0)>" }.joined()
    }

    private static func serialize(_ attributes: [HTMLAttribute], of element: String) -> String {
        var output = ""
        for attribute in attributes {
            switch attribute.name {
            case "href" where element == "a":
                if let url = HTTPURL.parse(attribute.value) { output += " href=\"\(HTMLEscape.escape(url, .remoteAttribute))\"" }
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
}
