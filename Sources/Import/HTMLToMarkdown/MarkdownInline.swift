import HTMLMarkup

/// Inline content: emphasis, code spans, links, images, line breaks and the inline HTML kept.
extension MarkdownConverter {
    struct InlineContext {
        var inTable = false
        var inHeading = false
        var inLink = false
        var open: Set<String> = []
    }

    func inline(_ nodes: [HTMLNode], into writer: inout InlineWriter, next outer: Character?, context: InlineContext) {
        for (index, node) in nodes.enumerated() {
            let next = nextCharacter(nodes, after: index, outer: outer)
            switch node.kind {
            case .text(let text): writer.text(text, next: next)
            case .comment: break
            case .element: inline(node, into: &writer, next: next, context: context)
            }
        }
    }

    func inline(_ element: HTMLNode, into writer: inout InlineWriter, next: Character?, context: InlineContext) {
        switch element.name {
        case "br":
            if context.inTable { writer.markup("<br>") } else if context.inHeading { writer.space() } else { writer.lineBreak() }
        case "em", "i":
            emphasis(element, marker: "*", tag: "em", into: &writer, next: next, context: context)
        case "strong", "b":
            emphasis(element, marker: "**", tag: "strong", into: &writer, next: next, context: context)
        case "del", "s", "strike":
            emphasis(element, marker: "~~", tag: "del", into: &writer, next: next, context: context)
        case "code", "tt":
            code(element, into: &writer, context: context)
        case "a":
            link(element, into: &writer, next: next, context: context)
        case "img":
            if let markdown = image(element) { writer.markup(markdown) }
        case Footnotes.referenceName:
            writer.markup("[^\(element.attribute("label") ?? "1")]")
        default:
            if HTMLElementNames.transparent.contains(element.name) {
                inline(element.children, into: &writer, next: next, context: context)
            } else if HTMLElementNames.rawInline.contains(element.name) {
                writer.markup(element.startTag)
                inline(element.children, into: &writer, next: "<", context: context)
                writer.close(element.endTag)
            } else if HTMLElementNames.block.contains(element.name) {
                // Block content where only inline content fits (a cell, a heading): keep its words.
                writer.space()
                inline(element.children, into: &writer, next: " ", context: context)
                writer.space()
            } else {
                for image in [element] + element.descendants() where image.name == "img" { rewriteImage(image) }
                writer.markup(HTMLSerializer.html(element).replacingOccurrences(of: "\n", with: " "))
            }
        }
    }

    func emphasis(_ element: HTMLNode, marker: String, tag: String, into writer: inout InlineWriter,
                          next: Character?, context: InlineContext) {
        guard !context.open.contains(marker) else {
            inline(element.children, into: &writer, next: next, context: context)
            return
        }
        var inner = InlineWriter(inTable: writer.inTable)
        var innerContext = context
        innerContext.open.insert(marker)
        inline(element.children, into: &inner, next: marker.first, context: innerContext)
        let (leading, core, trailing) = inner.finish()
        if leading { writer.space() }
        guard let first = core.first, let last = core.last else {
            if trailing { writer.space() }
            return
        }
        let before = writer.lastCharacter
        let canOpen = !Self.isPunctuation(first) || before == nil || before!.isWhitespace || Self.isPunctuation(before!)
        let canClose = !Self.isPunctuation(last) || next == nil || next!.isWhitespace || Self.isPunctuation(next!)
        let flanks = !first.isWhitespace && !last.isWhitespace && canOpen && canClose && !core.hasSuffix("\\")
        writer.markup(flanks ? marker : "<\(tag)>")
        writer.close(core)
        writer.close(flanks ? marker : "</\(tag)>")
        if trailing { writer.space() }
    }

    func code(_ element: HTMLNode, into writer: inout InlineWriter, context: InlineContext) {
        let plain: Set<String> = ["span", "b", "i", "em", "strong", "br", "font", "mark"]
        if element.descendants().contains(where: { !plain.contains($0.name) }) {
            writer.markup(HTMLSerializer.html(element).replacingOccurrences(of: "\n", with: " "))
            return
        }
        let text = element.text()
        guard !text.isEmpty else { return }
        if text.allSatisfy(\.isWhitespace) { writer.space(); return }
        writer.markup(MarkdownEscaping.codeSpan(text, inTable: context.inTable))
    }

    func link(_ element: HTMLNode, into writer: inout InlineWriter, next: Character?, context: InlineContext) {
        guard let href = element.attribute("href").map({ links.url(for: $0) ?? $0 }), !context.inLink else {
            if element.attribute("id") != nil || element.attribute("name") != nil, !context.inLink {
                writer.markup(element.startTag)
                inline(element.children, into: &writer, next: "<", context: context)
                writer.close("</a>")
            } else {
                inline(element.children, into: &writer, next: next, context: context)
            }
            return
        }
        var inner = InlineWriter(inTable: writer.inTable)
        var innerContext = context
        innerContext.inLink = true
        inline(element.children, into: &inner, next: "]", context: innerContext)
        let (leading, core, trailing) = inner.finish()
        if leading { writer.space() }
        if !core.isEmpty {
            let visible = element.text().trimmingCharacters(in: .whitespacesAndNewlines)
            let isAutolink = visible == href && (href.hasPrefix("https://") || href.hasPrefix("http://"))
                && !href.contains(where: { " <>\\`".contains($0) }) && !element.descendants().contains { $0.name == "img" }
            if isAutolink {
                writer.markup("<" + href + ">")
            } else {
                writer.markup("[" + core + "](" + MarkdownEscaping.destination(href)
                              + MarkdownEscaping.title(element.attribute("title")) + ")")
            }
        }
        if trailing { writer.space() }
    }

    func image(_ element: HTMLNode) -> String? {
        guard let source = Self.imageSource(element) else { return nil }
        imageSources.append(source)
        let url = imageURLs[source] ?? source
        return "![" + MarkdownEscaping.altText(element.attribute("alt") ?? "") + "](" + MarkdownEscaping.destination(url)
            + MarkdownEscaping.title(element.attribute("title")) + ")"
    }

    /// For images left as HTML: record the source and point `src` at the downloaded copy.
    func rewriteImage(_ element: HTMLNode) {
        guard let source = Self.imageSource(element) else { return }
        imageSources.append(source)
        element.setAttribute("src", imageURLs[source] ?? source)
    }

    /// `src`, or the real source of a lazy-loaded image whose `src` is a placeholder.
    static func imageSource(_ element: HTMLNode) -> String? {
        let source = element.attribute("src")?.trimmingCharacters(in: .whitespaces) ?? ""
        if source.isEmpty || source.hasPrefix("data:") {
            for name in ["data-src", "data-lazy-src", "data-original"] {
                if let lazy = element.attribute(name)?.trimmingCharacters(in: .whitespaces), !lazy.isEmpty { return lazy }
            }
        }
        return source.isEmpty ? nil : source
    }
}
