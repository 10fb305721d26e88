import BlogModel
import CCmark
import Foundation

/// A post body rendered to HTML, with what pages and feeds derive from it.
public struct RenderedMarkdown: Sendable, Equatable {
    public var html: String
    /// The text before `<!-- more -->`, else the first paragraph.
    public var excerptHTML: String
    /// Whether the excerpt stops before the end of the post (a "read more" link is useful).
    public var hasMore: Bool
    public var wordCount: Int
    /// The body's images, their URLs resolved as the page shows them.
    public var images: [MarkdownImage] = []

    /// Minutes at 225 words per minute, at least one.
    public var readingMinutes: Int { excerpt.readingMinutes }

    /// What a list or a feed shows of the post.
    public var excerpt: Excerpt { Excerpt(html: excerptHTML, hasMore: hasMore, wordCount: wordCount) }
}

/// The part of a rendered post that lists and feeds show: kept between builds (`PostCache`), so
/// a list page of unchanged posts needs none of them read or rendered again.
public struct Excerpt: Sendable, Equatable {
    /// One read from the parse cache stays the cache file's bytes until a page asks for it: a
    /// one-post rebuild of 1,000 posts shows a few dozen, and decoding them all was a third of
    /// reading the cache (8 of 25 million instructions, callgrind).
    public var html: String {
        get { stored?.text ?? decoded }
        set { (decoded, stored) = (newValue, nil) }
    }
    public var hasMore: Bool
    public var wordCount: Int
    private var decoded: String
    /// The HTML as the parse cache holds it, when it was read from there.
    private(set) var stored: StoredText?

    public init(html: String, hasMore: Bool, wordCount: Int) {
        (decoded, stored, self.hasMore, self.wordCount) = (html, nil, hasMore, wordCount)
    }

    init(stored: StoredText, hasMore: Bool, wordCount: Int) {
        (decoded, self.stored, self.hasMore, self.wordCount) = ("", stored, hasMore, wordCount)
    }

    public static func == (left: Excerpt, right: Excerpt) -> Bool {
        left.hasMore == right.hasMore && left.wordCount == right.wordCount && left.html == right.html
    }

    /// Minutes at 225 words per minute, at least one.
    public var readingMinutes: Int { max(1, Int((Double(wordCount) / 225).rounded(.up))) }
}

/// GitHub-flavoured Markdown through cmark-gfm: tables, strikethrough, autolinks, task lists,
/// footnotes, smart punctuation, and an `id` plus a self-link on every heading.
///
/// Raw HTML in posts is kept: posts are written by the blog's owner, not by the network.
public enum MarkdownRenderer {
    private static let options: Int32 = CMARK_OPT_FOOTNOTES | CMARK_OPT_SMART | CMARK_OPT_UNSAFE
        | CMARK_OPT_VALIDATE_UTF8
    private static let extensionNames = ["table", "strikethrough", "autolink", "tasklist"]
    private static let registered: Bool = {
        cmark_gfm_core_extensions_ensure_registered()
        return true
    }()
    static let moreMarker = "<!-- more -->"

    /// What the HTML is for: a page of the site (heading anchors, highlighted code), or other
    /// servers (`federation`: plain headings and code, which Mastodon and friends keep).
    public enum Purpose: Sendable { case site, federation }

    /// A post body as other servers get it (`FederatedBody.Renderer`, handed to the protocol side).
    public static func federatedBody(_ markdown: String) -> FederatedBody {
        let rendered = render(markdown, for: .federation)
        return FederatedBody(html: rendered.html, excerptHTML: rendered.excerptHTML)
    }

    /// `basePath` is the page's own path (`/2025/my-post/`): relative links and images resolve against it.
    public static func render(_ markdown: String, basePath: String? = nil, for purpose: Purpose = .site) -> RenderedMarkdown {
        precondition(registered)
        let (before, hasMarker) = splitAtMoreMarker(markdown)
        return withDocument(markdown) { document, extensions in
            let images = LinkResolution.apply(document, basePath: basePath)
            let html = renderHTML(document, extensions, purpose: purpose)
            let words = countWords(document)
            var excerpt: String
            var hasMore = hasMarker
            if hasMarker {
                excerpt = withDocument(before) { document, extensions in
                    _ = LinkResolution.apply(document, basePath: basePath)
                    return renderHTML(document, extensions, purpose: purpose)
                }
            } else if let paragraph = firstParagraph(document) {
                let node = paragraph
                excerpt = renderNode(node, extensions)
                hasMore = cmark_node_next(node) != nil
            } else {
                excerpt = ""
            }
            excerpt = FootnoteStripper.strip(excerpt)
            return RenderedMarkdown(html: html, excerptHTML: excerpt, hasMore: hasMore, wordCount: words, images: images)
        }
    }

    /// The text a reader sees (what search indexes): the body rendered as other servers get it
    /// (no highlighting), read by the one plain-text reading (`HTMLText.plain`): code kept, links
    /// reduced to their text, footnote marks and strikethrough as the page shows them.
    public static func plainText(_ markdown: String) -> String {
        HTMLText.plain(render(markdown, for: .federation).html)
    }

    /// cmark-gfm keeps the syntax extensions' special characters in one process-wide table: attaching
    /// an extension adds them, finishing a parse removes them. Parses on different threads would
    /// strip each other's `~` and `|` mid-parse, so parsing (not rendering) is serialized.
    private static let parserLock = NSLock()

    private static func withDocument<R>(_ markdown: String,
                                        _ body: (OpaquePointer, UnsafeMutablePointer<cmark_llist>?) -> R) -> R {
        parserLock.lock()
        let parser = cmark_parser_new(options)!
        for name in extensionNames {
            if let ext = cmark_find_syntax_extension(name) { cmark_parser_attach_syntax_extension(parser, ext) }
        }
        var markdown = markdown
        markdown.withUTF8 { bytes in
            bytes.withMemoryRebound(to: CChar.self) { cmark_parser_feed(parser, $0.baseAddress, $0.count) }
        }
        let document = cmark_parser_finish(parser)!
        parserLock.unlock()
        defer {
            cmark_node_free(document)
            parserLock.withLock { cmark_parser_free(parser) }
        }
        return body(document, cmark_parser_get_syntax_extensions(parser))
    }

    private static func renderHTML(_ document: OpaquePointer, _ extensions: UnsafeMutablePointer<cmark_llist>?,
                                   purpose: Purpose) -> String {
        guard purpose == .site else { return renderNode(document, extensions) }
        CodeBlocks.highlight(document)
        HeadingAnchors.insertMarkers(document)
        return TaskListLabels.label(HeadingAnchors.applyMarkers(renderNode(document, extensions)))
    }

    private static func renderNode(_ node: OpaquePointer, _ extensions: UnsafeMutablePointer<cmark_llist>?) -> String {
        guard let raw = cmark_render_html(node, options, extensions) else { return "" }
        defer { free(raw) }
        return String(cString: raw)
    }

    private static func firstParagraph(_ document: OpaquePointer) -> OpaquePointer? {
        var node = cmark_node_first_child(document)
        while let current = node {
            if cmark_node_get_type(current) == CMARK_NODE_PARAGRAPH { return current }
            node = cmark_node_next(current)
        }
        return nil
    }

    private static func countWords(_ document: OpaquePointer) -> Int {
        guard let raw = cmark_render_plaintext(document, 0, 0) else { return 0 }
        defer { free(raw) }
        var count = 0
        var inWord = false
        var pointer = raw
        while pointer.pointee != 0 {
            let byte = UInt8(bitPattern: pointer.pointee)
            let isSpace = byte == 32 || byte == 10 || byte == 9 || byte == 13
            if !isSpace && !inWord { count += 1 }
            inWord = !isSpace
            pointer += 1
        }
        return count
    }

    /// The Markdown before a line that holds only the more marker (`<!--more-->` also works).
    static func splitAtMoreMarker(_ markdown: String) -> (String, Bool) {
        let bytes = Array(markdown.utf8)
        var lineStart = 0
        // Scan bytes, not Characters: this runs on every post of every build.
        while lineStart < bytes.count {
            var lineEnd = lineStart
            while lineEnd < bytes.count, bytes[lineEnd] != 10 { lineEnd += 1 }
            if isMoreMarker(bytes[lineStart..<lineEnd]) {
                return (String(decoding: bytes[..<lineStart], as: UTF8.self), true)
            }
            lineStart = lineEnd + 1
        }
        return (markdown, false)
    }

    private static let markerBytes = Array("<!--more-->".utf8)

    private static func isMoreMarker(_ line: ArraySlice<UInt8>) -> Bool {
        guard line.count >= markerBytes.count, line.count < 40 else { return false }
        var index = 0
        for byte in line where byte != 32 && byte != 9 && byte != 13 {
            guard index < markerBytes.count, byte | (byte >= 65 && byte <= 90 ? 32 : 0) == markerBytes[index] else {
                return false
            }
            index += 1
        }
        return index == markerBytes.count
    }
}

/// The cmark-gfm library version in use.
public enum MarkdownVersion {
    public static var string: String { String(cString: cmark_version_string()) }
}
