import Foundation
import HTMLMarkup

/// Converts Hugo shortcodes, Jekyll Liquid tags and Zola shortcodes in a Markdown body:
///
/// - with a Markdown equivalent: `{{< highlight go >}}…{{< /highlight >}}` and
///   `{% highlight ruby %}…{% endhighlight %}` → fenced code; `{{< figure src=… >}}` and Zola's `{{ figure(img=…) }}` → image;
///   `{% raw %}` removed (its content kept literally); `{{< ref "x" >}}`, `{% post_url x %}`,
///   `{% link x %}` and Zola's `@/x.md` → the new URL when the target is in the import;
///   `{{< youtube id >}}`, `{{< vimeo id >}}`, `{{< gist u id >}}`, `{{< tweet … >}}` → links;
///   `{{ site.baseurl }}` and `| relative_url` dropped;
/// - Liquid and Nunjucks tags in any folder (an Eleventy site's `{% ref "x" %}` is read as Jekyll's
///   `{% link %}`); a tag whose first argument is a web address (a link card,
///   `{% previewExternal "https://…" %}`) becomes that address, as a link;
/// - without one: left out of the page (a paired tag's content stays) and reported with its line
///   in the source file, so no page shows a raw template tag.
///
/// Fenced code blocks and code spans are left as they are.
struct Shortcodes {
    let flavor: SourceKind
    /// The new URL of a cross-referenced file (`posts/x.md`, `2019-05-14-x`, `@/blog/x.md`).
    let resolve: (String) -> String?

    private(set) var warnings: [String] = []
    private var protected: [String] = []
    /// The line of the source file the body starts on (warnings name the file's lines).
    var firstLine = 1
    /// Each tag written outside code, by its text: the lines it is on, in order (`location`).
    private var tagLines: [String: [Int]] = [:]

    init(flavor: SourceKind, resolve: @escaping (String) -> String?) {
        self.flavor = flavor
        self.resolve = resolve
    }

    mutating func convert(_ markdown: String) -> String {
        var text = markdown
        protected = []
        tagLines = Self.tagLines(markdown)
        text = Patterns.replace(#"\{%-?\s*raw\s*-?%\}\n?(.*?)\n?\{%-?\s*endraw\s*-?%\}"#, in: text) { protect($0[1]) }
        text = Patterns.replace(#"\{%-?\s*comment\s*-?%\}(.*?)\{%-?\s*endcomment\s*-?%\}"#, in: text) { groups in
            protect("<!--" + groups[1].replacingOccurrences(of: "--", with: "- -") + "-->")
        }
        // Hugo's way of writing a shortcode literally: {{</* x */>}}.
        text = Patterns.replace(#"\{\{([<%])/\*(.*?)\*/([>%])\}\}"#, in: text) { protect("{{\($0[1])\($0[2])\($0[3])}}") }
        text = Patterns.replace(#"(?m)^([ \t]*)\{\{[<%]\s*highlight\s+([^\s>%]+)[^>%]*[>%]\}\}[ \t]*\n(.*?)\n?[ \t]*\{\{[<%]\s*/highlight\s*[>%]\}\}"#,
                                in: text) { groups in protect(groups[1] + MarkdownEscaping.codeBlock(groups[3], language: groups[2])) }
        text = Patterns.replace(#"(?m)^([ \t]*)\{%-?\s*highlight(?:\s+([^\s%]+))?[^%]*-?%\}[ \t]*\n?(.*?)\n?[ \t]*\{%-?\s*endhighlight\s*-?%\}"#,
                                in: text) { groups in protect(groups[1] + MarkdownEscaping.codeBlock(groups[3], language: groups[2].isEmpty ? nil : groups[2])) }
        text = protectCode(text)
        // Hugo's inline shortcodes (`{{< x.inline >}}…{{< /x.inline >}}`) hold template code, not text.
        text = Patterns.replace(#"\{\{[<%]\s*([\w-]+\.inline)\b[^>%]*[>%]\}\}.*?\{\{[<%]\s*/\s*\1\s*[>%]\}\}"#, in: text) { groups in
            warnings.append("\(location(of: groups[0].prefix { $0 != "}" } + "}}"))\(groups[1]) is template code: left out of the page")
            return ""
        }
        text = Patterns.replace(#"\{\{[<%]\s*figure\s+(.*?)\s*/?[>%]\}\}"#, in: text) { figure($0[1]) }
        text = Patterns.replace(#"\{\{[<%]\s*(rel)?ref\s+"?([^"\s>%]+)"?\s*[>%]\}\}"#, in: text) { reference($0[2], original: $0[0]) }
        text = Patterns.replace(#"\{\{[<%]\s*(youtube|vimeo|gist|tweet|x|instagram)\s+(.*?)\s*/?[>%]\}\}"#, in: text) { embed($0) }
        text = Patterns.replace(#"\{\{\s*(youtube|vimeo)\((.*?)\)\s*\}\}"#, in: text) { embed($0) }
        if flavor == .zola {
            // Themes' image shortcodes: `{{ figure(img="x.png", caption="…") }}`, `image(src=…)`, `img(path=…)`.
            text = Patterns.replace(#"\{\{\s*(figure|image|img)\((.*?)\)\s*\}\}"#, in: text) { groups in
                let attributes = WordPressContent.attributes(groups[2])
                guard attributes["src"] == nil, let source = attributes["img"] ?? attributes["path"] else { return figure(groups[2]) }
                return figure(groups[2] + " src=\"\(source)\"")
            }
            text = Patterns.replace(#"\]\((@/[^)\s#]+)(#[^)\s]*)?\)"#, in: text) { groups in
                guard let url = resolve(String(groups[1].dropFirst(2))) else {
                    warnings.append("link to \(groups[1]) is not in this import: kept as written")
                    return groups[0]
                }
                return "](" + url + groups[2] + ")"
            }
        }
        // Liquid and Nunjucks, whatever the folder was taken for (an Eleventy site reads as Hugo).
        text = Patterns.replace(#"\{\{\s*site\.(baseurl|url)\s*\}\}(?=/|\{%)"#, in: text) { _ in "" }
        text = Patterns.replace(#"\{%-?\s*(post_url|link|ref)\s+["']?([^\s%"']+)["']?\s*-?%\}"#, in: text) { reference($0[2], original: $0[0]) }
        text = Patterns.replace(#"\{\{\s*["']([^"']+)["']\s*\|\s*(relative_url|absolute_url|url)\s*\}\}"#, in: text) { $0[1] }
        // Eleventy's link to another source file: `{{ "../other/index.md" | inputPathToUrl }}`.
        text = Patterns.replace(#"\{\{-?\s*["']([^"']+)["']\s*\|\s*inputPathToUrl\s*-?\}\}"#, in: text) { reference($0[1], original: $0[0]) }
        // A tag whose first argument is an image file (`{% figure "a.png", "alt" %}…{% endfigure %}`,
        // `{% img "a.png" %}`): that image, its second argument the text, a paired tag's content kept.
        // Each piece matches one way only (a quoted string, then the rest of the tag up to `%}`,
        // then a body without another tag), so a post of unclosed tags cannot make the matcher
        // backtrack for minutes.
        let rest = #"(?:[^%\n]|%(?!\})){0,2000}"#   // up to the tag's end (a URL's `%20` included)
        let body = #"((?:[^{]|\{(?!%))*?)"#
        let image = #"\.(?:png|jpe?g|gif|svg|webp|avif)"#
        text = Patterns.replace(#"\{%-?\s*(\w+)\s+((?:"[^"\n]{0,1000}"# + image + #""|'[^'\n]{0,1000}"# + image + #"')"# + rest
                                + #")-?%\}(?:"# + body + #"\{%-?\s*end\1\s*-?%\})?"#, in: text) { groups in
            let arguments = Self.quotedArguments(groups[2])
            warnings.append("\(location(of: groups[0].prefix { $0 != "}" } + "}"))\(groups[1]) with \(arguments[0]) became an image")
            let image = "![\(MarkdownEscaping.altText(arguments.count > 1 ? arguments[1] : ""))](\(MarkdownEscaping.destination(arguments[0])))"
            let content = groups[3].trimmingCharacters(in: .whitespacesAndNewlines)
            return "\n\n" + image + "\n\n" + (content.isEmpty ? "" : content + "\n\n")
        }
        // A paired tag whose first argument is text (`{% callout "Author's note" %}…{% endcallout %}`):
        // the text in bold, then the content, so no word is lost.
        text = Patterns.replace(#"\{%-?\s*(\w+)\s+(?:"([^"\n]{0,1000})"|'([^'\n]{0,1000})')"# + rest + #"-?%\}"# + body + #"\{%-?\s*end\1\s*-?%\}"#,
                                in: text) { groups in
            let first = groups[2].isEmpty ? groups[3] : groups[2]
            guard !first.hasPrefix("http://"), !first.hasPrefix("https://") else { return groups[0] }
            warnings.append("\(location(of: groups[0].prefix { $0 != "}" } + "}"))\(groups[1]) \"\(first)\": its title and content kept")
            let title = first.isEmpty ? "" : "**" + first.replacingOccurrences(of: "*", with: "\\*") + "**\n\n"
            return "\n\n" + title + groups[4].trimmingCharacters(in: .whitespacesAndNewlines) + "\n\n"
        }
        // A tag whose first argument is a web address (a link card): that address, as a link.
        text = Patterns.replace(#"\{%-?\s*\w+\s+["'](https?://[^"'\s]+)["'][^%]*-?%\}"#, in: text) { groups in
            warnings.append("\(location(of: groups[0]))\(groups[0].replacingOccurrences(of: "\n", with: " ")) became a link")
            return "<" + groups[1] + ">"
        }
        // What is left has no Markdown equivalent: left out, and said where. (Hugo does not
        // expand `{{ … }}` in content: there it is the writer's text.)
        // A tag is short: one that does not close within 2,000 characters is not one (and an
        // unclosed one costs no more than that to look at).
        var patterns = [#"\{\{[<%].{0,2000}?[>%]\}\}"#, #"\{%.{0,2000}?%\}"#]
        if flavor != .hugo { patterns.append(#"\{\{.{0,2000}?\}\}"#) }
        for pattern in patterns {
            text = Patterns.replace(pattern, in: text) { groups in
                let flat = groups[0].replacingOccurrences(of: "\n", with: " ")
                warnings.append("\(location(of: groups[0]))\(flat) has no Markdown equivalent: left out of the page")
                return ""
            }
        }
        text = Patterns.replace(#"\n{3,}"#, in: text) { _ in "\n\n" }
        for (index, original) in protected.enumerated().reversed() {
            text = text.replacingOccurrences(of: "\u{E000}\(index)\u{E001}", with: original)
        }
        return text
    }

    /// `line N: ` of the source file for the next occurrence of `tag` outside code ("" for one
    /// written over several lines).
    private mutating func location(of tag: String) -> String {
        guard var lines = tagLines[tag], !lines.isEmpty else { return "" }
        let line = lines.removeFirst()
        tagLines[tag] = lines
        return "line \(firstLine + line - 1): "
    }

    /// Where each tag is, outside fenced code and code spans: by its text, its lines (1-based).
    static func tagLines(_ markdown: String) -> [String: [Int]] {
        var found: [String: [Int]] = [:]
        var fence: Character?
        for (index, line) in markdown.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.drop(while: { $0 == " " })
            if let marker = trimmed.first, marker == "`" || marker == "~", trimmed.prefix(3).allSatisfy({ $0 == marker }) {
                fence = fence == nil ? marker : (fence == marker ? nil : fence)
                continue
            }
            guard fence == nil else { continue }
            let prose = Patterns.replace(#"(`+)(.+?)\1"#, in: String(line)) { _ in "" }
            for groups in Patterns.matches(#"\{\{[<%].{0,2000}?[>%]\}\}|\{%.{0,2000}?%\}|\{\{.{0,2000}?\}\}"#, in: prose) {
                let tag = groups[0]
                found[tag, default: []].append(index + 1)
            }
        }
        return found
    }

    /// The quoted arguments of a tag, in order (`"a.png", 'b'` → ["a.png", "b"]).
    static func quotedArguments(_ text: String) -> [String] {
        Patterns.matches(#""([^"\n]*)"|'([^'\n]*)'"#, in: text).map { $0[1].isEmpty ? $0[2] : $0[1] }
    }

    /// The line of `text` on which its suffix `suffix` starts (1 when it is all of it).
    static func line(ofSuffix suffix: String, in text: String) -> Int {
        let prefix = text.utf8.count - suffix.utf8.count
        guard prefix > 0 else { return 1 }
        return 1 + text.utf8.prefix(prefix).count { $0 == 0x0A }
    }

    private mutating func protect(_ text: String) -> String {
        protected.append(text)
        return "\u{E000}\(protected.count - 1)\u{E001}"
    }

    /// Fenced code blocks and code spans are the writer's literal text.
    private mutating func protectCode(_ text: String) -> String {
        var output: [String] = []
        var fence: (character: Character, count: Int)?
        var block: [String] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.drop(while: { $0 == " " })
            let marker = trimmed.prefix(while: { $0 == "`" || $0 == "~" })
            if let open = fence {
                block.append(String(line))
                if marker.count >= open.count, marker.allSatisfy({ $0 == open.character }),
                   trimmed.dropFirst(marker.count).allSatisfy(\.isWhitespace) {
                    output.append(protect(block.joined(separator: "\n")))
                    block = []
                    fence = nil
                }
                continue
            }
            if line.count - trimmed.count < 4, marker.count >= 3, let first = marker.first, marker.allSatisfy({ $0 == first }) {
                fence = (first, marker.count)
                block = [String(line)]
                continue
            }
            output.append(String(line))
        }
        if !block.isEmpty { output.append(protect(block.joined(separator: "\n"))) }
        return Patterns.replace(#"(?<!`)(`+)(?!`)(.+?)(?<!`)\1(?!`)"#, in: output.joined(separator: "\n")) { protect($0[0]) }
    }

    private mutating func figure(_ arguments: String) -> String {
        let attributes = WordPressContent.attributes(arguments)
        guard let source = attributes["src"] else {
            warnings.append("figure without src has no Markdown equivalent: kept as text")
            return protect(MarkdownEscaping.codeSpan("{{< figure \(arguments) >}}", inTable: false))
        }
        let alt = attributes["alt"] ?? attributes["title"] ?? ""
        var image = "![\(MarkdownEscaping.altText(alt))](\(MarkdownEscaping.destination(source)))"
        if let link = attributes["link"] { image = "[\(image)](\(MarkdownEscaping.destination(link)))" }
        let caption = [attributes["title"], attributes["caption"]].compactMap { $0 }.filter { !$0.isEmpty && $0 != alt }
        guard !caption.isEmpty else { return "\n\n" + image + "\n\n" }
        let html = caption.map { HTMLNode.escape($0, attribute: false) }.joined(separator: " — ")
        return "\n\n<figure>\n\n\(image)\n\n<figcaption>\(html)</figcaption>\n</figure>\n\n"
    }

    private mutating func reference(_ target: String, original: String) -> String {
        let parts = target.split(separator: "#", maxSplits: 1).map(String.init)
        guard let url = resolve(parts[0]) else {
            warnings.append("\(original) points to a file that is not in this import: kept as text")
            return protect(MarkdownEscaping.codeSpan(original, inTable: false))
        }
        return url + (parts.count > 1 ? "#" + parts[1] : "")
    }

    private mutating func embed(_ groups: [String]) -> String {
        let name = groups[1]
        let attributes = WordPressContent.attributes(groups[2])
        let positional = groups[2].split(separator: " ").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "\"'")) }
            .filter { !$0.contains("=") }
        let id = attributes["id"] ?? positional.last ?? ""
        let url: String
        switch name {
        case "youtube": url = "https://www.youtube.com/watch?v=\(id)"
        case "vimeo": url = "https://vimeo.com/\(id)"
        case "gist": url = "https://gist.github.com/\(attributes["user"] ?? positional.first ?? "")/\(id)"
        case "instagram": url = "https://www.instagram.com/p/\(id)/"
        default: url = "https://twitter.com/\(attributes["user"] ?? (positional.count > 1 ? positional[0] : "i"))/status/\(id)"
        }
        let link = Embeds.link(for: url) ?? Embeds.Link(url: url, label: name)
        warnings.append(Embeds.warning(groups[0].replacingOccurrences(of: "\n", with: " "), became: link))
        return "[\(MarkdownEscaping.altText(link.label))](\(MarkdownEscaping.destination(link.url)))"
    }
}
