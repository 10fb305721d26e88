import HTMLMarkup

/// What the converter needs to know about element names (void elements and those that close a
/// `<p>` are the tree's: `HTMLNode`).
enum HTMLElementNames {
    /// Containers whose content is converted as if they were not there (their attributes are
    /// presentation from the old theme): `<div class="entry">`, `<span style="…">`.
    static let transparent: Set<String> = ["div", "section", "article", "header", "footer", "main", "nav", "aside",
                                           "center", "hgroup", "span", "font", "body", "html", "tbody", "address",
                                           "picture"]

    /// Block-level elements kept as raw HTML blocks.
    static let rawBlock: Set<String> = ["iframe", "video", "audio", "object", "embed", "svg", "canvas", "math", "script",
                                        "noscript", "style", "form", "details", "dl", "dialog", "fieldset", "menu",
                                        "template", "textarea", "select", "button"]

    /// Everything that is converted or kept at block level.
    static let block: Set<String> = HTMLNode.closesParagraph.union(rawBlock)
        .union(["li", "table", "tr", "td", "th", "thead", "tfoot", "tbody", "caption"])

    /// Inline elements kept as raw HTML tags around converted content.
    static let rawInline: Set<String> = ["sup", "sub", "mark", "u", "ins", "small", "big", "abbr", "acronym", "q",
                                         "time", "kbd", "samp", "var", "dfn", "bdi", "bdo", "ruby", "rt", "rp", "cite",
                                         "data", "meter", "progress", "output", "label", "wbr", "nobr", "blink"]

    /// CommonMark's HTML block start condition 6: these may start an HTML block anywhere.
    static let markdownBlockTags: Set<String> = [
        "address", "article", "aside", "base", "basefont", "blockquote", "body", "caption", "center", "col", "colgroup",
        "dd", "details", "dialog", "dir", "div", "dl", "dt", "fieldset", "figcaption", "figure", "footer", "form", "frame",
        "frameset", "h1", "h2", "h3", "h4", "h5", "h6", "head", "header", "hr", "html", "iframe", "legend", "li", "link",
        "main", "menu", "menuitem", "nav", "noframes", "ol", "optgroup", "option", "p", "param", "search", "section",
        "summary", "table", "tbody", "td", "tfoot", "th", "thead", "title", "tr", "track", "ul",
    ]
}
