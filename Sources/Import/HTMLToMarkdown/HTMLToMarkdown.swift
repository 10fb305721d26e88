import HTMLMarkup

/// Converts the HTML body of a feed item or export into Markdown for a Lectern post.
///
/// Paragraphs, emphasis, links, images, lists, headings, block quotes, code blocks (with their
/// language), GFM tables and footnotes become Markdown; whatever has no lossless Markdown form
/// stays as raw HTML. Medium's tracking image and "originally published" footers are dropped.
///
/// ```swift
/// let result = HTMLToMarkdown.convert("<p>Hello <em>world</em></p><pre><code class=\"language-swift\">let x = 1</code></pre>")
/// print(result.markdown)   // "Hello *world*\n\n```swift\nlet x = 1\n```\n"
/// ```
public enum HTMLToMarkdown {
    public struct Result: Sendable, Equatable {
        public var markdown: String
        /// Every image source in the HTML, in order (before any rewriting).
        public var imageSources: [String]
        /// What the clean-up removed ("Medium tracking image", …).
        public var removed: [String]
        /// Things to look at: embeds that became links.
        public var warnings: [String] = []
    }

    /// - Parameter imageURLs: replacements for image sources (downloaded copies).
    public static func convert(_ html: String, imageURLs: [String: String] = [:]) -> Result {
        convert(html, imageURLs: imageURLs, links: LinkMap())
    }

    /// `links` points links to imported posts at their new URLs.
    static func convert(_ html: String, imageURLs: [String: String], links: LinkMap) -> Result {
        let root = HTMLNode.parse(html, options: .importer)
        var removed = FeedCleanup.run(root)
        let warnings = EmbedLinks.replace(in: root)
        removed += UnsafeMarkup.remove(in: root)
        HeadingSelfLinks.remove(in: root)
        Footnotes.rewrite(root)
        let converter = MarkdownConverter(imageURLs: imageURLs, links: links)
        let markdown = converter.document(root)
        var seen = Set<String>()
        return Result(markdown: markdown, imageSources: converter.imageSources.filter { seen.insert($0).inserted },
                      removed: removed, warnings: warnings)
    }

    /// The text of an HTML fragment, whitespace folded (for summaries and titles).
    public static func plainText(_ html: String) -> String {
        let text = HTMLNode.parse(html, options: .importer).text(spacedBlocks: true) { ["script", "style"].contains($0.name) }
        return text.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
    }
}

/// Removes what feeds add around a post that is not the post: Medium's 1×1 tracking image and
/// the "… was originally published in … on Medium" / "The post … appeared first on …" footer
/// (with the rule above it).
enum FeedCleanup {
    static func run(_ root: HTMLNode) -> [String] {
        var removed: [String] = []
        removeTrackingImages(root, removed: &removed)
        removeFooter(in: root, removed: &removed)
        return removed
    }

    private static func removeTrackingImages(_ element: HTMLNode, removed: inout [String]) {
        element.children.removeAll { image in
            guard image.name == "img" else { return false }
            let source = image.attribute("src") ?? ""
            let isPixel = image.attribute("width") == "1" && image.attribute("height") == "1"
            if isPixel || source.contains("medium.com/_/stat") {
                removed.append("tracking image \(source)")
                return true
            }
            return false
        }
        for child in element.elementChildren { removeTrackingImages(child, removed: &removed) }
    }

    private static let footerPhrases = ["was originally published in", "originally published at", "originally published on",
                                        "appeared first on"]

    private static func removeFooter(in container: HTMLNode, removed: inout [String]) {
        guard let index = container.children.lastIndex(where: isMeaningful), container.children[index].isElement else { return }
        let last = container.children[index]
        let text = last.text().lowercased()
        if ["p", "div", "footer", "em", "i", "small"].contains(last.name), text.count < 400,
           footerPhrases.contains(where: text.contains) {
            removed.append("footer \"\(HTMLToMarkdown.plainText(HTMLSerializer.html(last)))\"")
            container.children.remove(at: index)
            if let ruleIndex = container.children.lastIndex(where: isMeaningful),
               container.children[ruleIndex].name == "hr" {
                container.children.remove(at: ruleIndex)
            }
        } else if HTMLElementNames.transparent.contains(last.name) {
            removeFooter(in: last, removed: &removed)
        }
    }

    private static func isMeaningful(_ node: HTMLNode) -> Bool {
        switch node.kind {
        case .text(let text): return !text.allSatisfy(\.isWhitespace)
        case .comment: return false
        case .element: return true
        }
    }
}
