extension HTMLNode {
    /// How `parse` builds a tree. Two readers share it, and where they must build differently a
    /// field says so; each preset is its reader's tree from before the two trees became one.
    /// Both: void elements take no children, an end tag closes the nearest open element of its
    /// name (and what is open inside it), a stray end tag is ignored, adjacent texts are one
    /// node. Neither builds HTML's full tree (no foster parenting, no implied `<tbody>`).
    public struct Options: Sendable {
        public var tokens: HTMLTokenizer.Options
        /// Whether comments are kept (the importer's `<!-- more -->` marks the excerpt).
        public var keepsComments: Bool
        /// Whether HTML's tree rules that posts are written for apply: an open `<p>` closed by a
        /// block; `<li>`, `<dt>`/`<dd>`, `<tr>`, `<td>`/`<th>`, `<thead>`/`<tbody>`/`<tfoot>` and
        /// `<option>` closing an open one; a heading closing an open heading; `</br>` read as
        /// `<br>`; the line break right after `<pre>` or `<textarea>` dropped. Webmention's
        /// readers only look for classes, attributes and text: a loose tree serves them.
        public var impliedStructure: Bool
        /// Whether a self-closed element (`<path/>`, `<my-icon/>`) is empty, as in SVG and in
        /// themes written as XHTML, except a few of HTML's own, whose `/` browsers ignore
        /// (`<div/>` opens a div). Without it, every `/` is ignored.
        public var selfClosedElementsAreEmpty: Bool
        /// Deeper nesting is flattened into its parent: a hostile page cannot make the walks
        /// recurse without bound.
        public var maximumDepth: Int

        /// Webmention's reading (microformats and links, of remote pages and of our own posts).
        public static let webmention = Options(tokens: .sanitizer, keepsComments: false, impliedStructure: false,
                                               selfClosedElementsAreEmpty: false, maximumDepth: HTMLNode.maximumDepth)

        /// The importer's reading (old blogs' HTML, converted to Markdown).
        public static let importer = Options(tokens: .importer, keepsComments: true, impliedStructure: true,
                                             selfClosedElementsAreEmpty: true, maximumDepth: .max)
    }

    static let maximumDepth = 256

    /// Elements that start a block: they close an open `<p>` (with `impliedStructure`).
    public static let closesParagraph: Set<String> = [
        "address", "article", "aside", "blockquote", "details", "dialog", "div", "dl", "fieldset", "figcaption", "figure",
        "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6", "header", "hgroup", "hr", "main", "menu", "nav", "ol", "p",
        "pre", "section", "table", "ul",
    ]

    /// The document's root (a nameless element) with everything parsed under it. The caller
    /// bounds the input (a fetched page is at most 1 MiB).
    public static func parse(_ html: String, options: Options) -> HTMLNode {
        var builder = HTMLTreeBuilder(options: options)
        for token in HTMLTokenizer(html, options: options.tokens) { builder.add(token) }
        return builder.finish()
    }
}

/// `HTMLNode.parse`'s work, one token at a time.
struct HTMLTreeBuilder {
    let options: HTMLNode.Options
    private let root: HTMLNode
    private var open: [HTMLNode]
    /// How many of each name are open: a stray end tag is known at once, not by a search of
    /// everything open (a page of them under deep nesting).
    private var openNames: [String: Int] = [:]
    /// Text not yet in the tree: it goes in when the tree next changes, so texts split by what
    /// changes nothing (a stray end tag, a dropped comment) are one node, built in linear time.
    private var text = ""
    private var dropsNewline = false

    init(options: HTMLNode.Options) {
        self.options = options
        let root = HTMLNode(.element(""))
        self.root = root
        open = [root]
    }

    mutating func add(_ token: HTMLTokenizer.Token) {
        let afterPre = dropsNewline
        dropsNewline = false
        switch token {
        case .text(var more):
            if afterPre {
                // "\r\n" is one `Character`: one `removeFirst` drops the whole line break.
                if more.hasPrefix("\r\n") || more.hasPrefix("\n") { more.removeFirst() }
            }
            text += more
        case .comment(let comment):
            if options.keepsComments { append(HTMLNode(.comment(comment))) }
        case let .startTag(name, attributes, selfClosing):
            flushText()
            if options.impliedStructure { closeImplied(by: name) }
            let element = HTMLNode(.element(name), attributes: attributes)
            append(element)
            let empty = HTMLNode.voidElements.contains(name)
                || (selfClosing && options.selfClosedElementsAreEmpty && !Self.slashIgnored.contains(name))
            guard !empty, open.count < options.maximumDepth else { return }
            open.append(element)
            openNames[name, default: 0] += 1
            dropsNewline = options.impliedStructure && (name == "pre" || name == "textarea")
        case .endTag(let name):
            if name == "br", options.impliedStructure {
                append(HTMLNode(.element("br")))
            } else if openNames[name, default: 0] > 0, let index = open.lastIndex(where: { $0.name == name }) {
                flushText()
                close(from: index)
            }
        }
    }

    mutating func finish() -> HTMLNode {
        flushText()
        return root
    }

    private mutating func append(_ node: HTMLNode) {
        flushText()
        open[open.count - 1].children.append(node)
    }

    private mutating func flushText() {
        guard !text.isEmpty else { return }
        open[open.count - 1].children.append(HTMLNode(.text(text)))
        text = ""
    }

    private mutating func close(from index: Int) {
        for closed in open[index...] { openNames[closed.name, default: 0] -= 1 }
        open.removeSubrange(index...)
    }

    /// HTML elements a `/>` does not close (with `selfClosedElementsAreEmpty`).
    private static let slashIgnored: Set<String> = ["div", "span", "p", "a", "script", "iframe", "video", "audio", "textarea",
                                                    "title", "style"]
    /// Where the search for an element a start tag implicitly closes stops.
    private static let scopeBoundaries: Set<String> = ["table", "td", "th", "caption", "button", "object", "template",
                                                       "marquee", "applet"]
    private static let headings: Set<String> = ["h1", "h2", "h3", "h4", "h5", "h6"]

    private mutating func closeImplied(by name: String) {
        if HTMLNode.closesParagraph.contains(name) { closeNearest(["p"], stoppingAt: Self.scopeBoundaries) }
        switch name {
        case "li": closeNearest(["li"], stoppingAt: Self.scopeBoundaries.union(["ul", "ol"]))
        case "dt", "dd": closeNearest(["dt", "dd"], stoppingAt: Self.scopeBoundaries.union(["dl"]))
        case "tr": closeNearest(["tr"], stoppingAt: ["table"])
        case "td", "th": closeNearest(["td", "th"], stoppingAt: ["tr", "table"])
        case "thead", "tbody", "tfoot": closeNearest(["thead", "tbody", "tfoot"], stoppingAt: ["table"])
        case "option": closeNearest(["option"], stoppingAt: ["select"])
        case "h1", "h2", "h3", "h4", "h5", "h6":
            if Self.headings.contains(open[open.count - 1].name) { close(from: open.count - 1) }
        default: break
        }
    }

    private mutating func closeNearest(_ names: Set<String>, stoppingAt boundaries: Set<String>) {
        for index in open.indices.reversed() {
            if names.contains(open[index].name) { close(from: index); return }
            if boundaries.contains(open[index].name) { return }
        }
    }
}
