import HTMLMarkup

/// One block of the Markdown output.
struct MarkdownBlock {
    enum Kind: Equatable { case paragraph, heading, list(ordered: Bool, alternate: Bool), code, quote, html, rule, table }
    var text: String
    var kind: Kind
}

/// Turns a parsed (and cleaned) HTML tree into Markdown: each construct with a lossless Markdown
/// form becomes it, anything else is written back as raw HTML.
final class MarkdownConverter {
    /// Image sources as found, and what to write instead (downloaded copies).
    let imageURLs: [String: String]
    let links: LinkMap
    var imageSources: [String] = []
    /// Wrappers around the element being converted (a highlighter's `<div class="language-x">`).
    var wrappers: [HTMLNode] = []

    init(imageURLs: [String: String], links: LinkMap) {
        self.imageURLs = imageURLs
        self.links = links
    }

    func document(_ root: HTMLNode) -> String {
        let text = Self.join(blocks(root.children), tight: false)
        return text.isEmpty ? "" : text + "\n"
    }

    // MARK: Blocks

    func blocks(_ nodes: [HTMLNode]) -> [MarkdownBlock] {
        var result: [MarkdownBlock] = []
        var run = InlineWriter(inTable: false)
        func flush() {
            let text = run.finish().text
            if !text.isEmpty { result.append(MarkdownBlock(text: MarkdownEscaping.lineStarts(text), kind: .paragraph)) }
            run = InlineWriter(inTable: false)
        }
        for (index, node) in nodes.enumerated() {
            switch node.kind {
            case .text(let text):
                run.text(text, next: nextCharacter(nodes, after: index, outer: nil))
            case .comment(let text):
                if Self.isMoreMarker(text) {
                    flush()
                    result.append(MarkdownBlock(text: "<!-- more -->", kind: .html))
                }
            case .element:
                if isBlock(node) {
                    flush()
                    result += block(node, previous: result.last)
                } else {
                    inline(node, into: &run, next: nextCharacter(nodes, after: index, outer: nil), context: InlineContext())
                }
            }
        }
        flush()
        return result
    }

    func block(_ element: HTMLNode, previous: MarkdownBlock?) -> [MarkdownBlock] {
        switch element.name {
        case "p", "li", "dd", "dt", "figcaption", "caption", "thead", "tbody", "tfoot", "tr", "td", "th", "legend", "summary":
            return blocks(element.children)
        case "h1", "h2", "h3", "h4", "h5", "h6":
            return heading(element).map { [$0] } ?? []
        case "ul", "ol":
            var alternate = false
            if case .list(let ordered, let previousAlternate)? = previous?.kind, ordered == (element.name == "ol") {
                alternate = !previousAlternate
            }
            return list(element, alternate: alternate).map { [$0] } ?? []
        case "pre":
            return [codeBlock(element)]
        case "blockquote":
            let inner = Self.join(blocks(element.children), tight: false)
            guard !inner.isEmpty else { return [] }
            let quoted = inner.split(separator: "\n", omittingEmptySubsequences: false)
                .map { $0.isEmpty ? ">" : "> " + $0 }.joined(separator: "\n")
            return [MarkdownBlock(text: quoted, kind: .quote)]
        case "hr":
            return [MarkdownBlock(text: "---", kind: .rule)]
        case "table":
            return [table(element)]
        case "figure":
            return figure(element)
        case Footnotes.definitionsName:
            return footnoteDefinitions(element)
        case "a":
            return [rawBlock(element)]
        default:
            if HTMLElementNames.transparent.contains(element.name) {
                wrappers.append(element)
                defer { wrappers.removeLast() }
                return blocks(element.children)
            }
            return [rawBlock(element)]
        }
    }

    func isBlock(_ element: HTMLNode) -> Bool {
        if HTMLElementNames.block.contains(element.name) || element.name == Footnotes.definitionsName { return true }
        if HTMLElementNames.transparent.contains(element.name) || element.name == "a" {
            return element.descendants().contains { HTMLElementNames.block.contains($0.name) }
        }
        return false
    }

    func heading(_ element: HTMLNode) -> MarkdownBlock? {
        var writer = InlineWriter(inTable: false)
        var context = InlineContext()
        context.inHeading = true
        inline(element.children, into: &writer, next: nil, context: context)
        var text = writer.finish().text
        guard !text.isEmpty else { return nil }
        // A trailing run of "#" would be read as the heading's closing sequence.
        if text.hasSuffix("#") { text = String(text.dropLast()) + "\\#" }
        let level = Int(String(element.name.dropFirst())) ?? 2
        return MarkdownBlock(text: String(repeating: "#", count: level) + " " + text, kind: .heading)
    }

    func list(_ element: HTMLNode, alternate: Bool) -> MarkdownBlock? {
        let ordered = element.name == "ol"
        var items: [[HTMLNode]] = []
        for child in element.children {
            switch child.kind {
            case .element("li"):
                items.append(child.children)
            case .text(let text) where text.allSatisfy(\.isWhitespace):
                continue
            case .comment:
                continue
            default:
                // A list nested without its <li> (common in hand-written HTML) belongs to the item before.
                if items.isEmpty { items.append([child]) } else { items[items.count - 1].append(child) }
            }
        }
        guard !items.isEmpty else { return nil }
        let loose = element.elementChildren.contains { $0.name == "li" && $0.elementChildren.contains { $0.name == "p" } }
        let start = min(max(Int(element.attribute("start") ?? "") ?? 1, 0), 999_999_000)
        var rendered: [String] = []
        for (offset, nodes) in items.enumerated() {
            let marker = ordered ? "\(start + offset)" + (alternate ? ")" : ".") : (alternate ? "*" : "-")
            let body = Self.join(blocks(nodes), tight: !loose)
            let indent = String(repeating: " ", count: marker.count + 1)
            let lines = body.split(separator: "\n", omittingEmptySubsequences: false)
            var text = body.isEmpty ? marker : marker + " " + lines[0]
            for line in lines.dropFirst() { text += "\n" + (line.isEmpty ? "" : indent + line) }
            rendered.append(text)
        }
        return MarkdownBlock(text: rendered.joined(separator: loose ? "\n\n" : "\n"),
                             kind: .list(ordered: ordered, alternate: alternate))
    }

    func codeBlock(_ pre: HTMLNode) -> MarkdownBlock {
        let elements = pre.elementChildren
        let onlyCode = elements.count == 1 && elements[0].name == "code"
            && pre.children.allSatisfy { if case .text(let text) = $0.kind { text.allSatisfy(\.isWhitespace) } else { true } }
        let code = onlyCode ? elements[0] : nil
        let language = CodeLanguage.detect(pre: pre, code: code, wrappers: wrappers.suffix(3).reversed())
        let text = Self.codeText(code ?? pre).replacingOccurrences(of: "\r\n", with: "\n")
        return MarkdownBlock(text: MarkdownEscaping.codeBlock(text, language: language), kind: .code)
    }

    /// The code as written: text verbatim, `<br>` as a line break, line-number gutters skipped.
    static func codeText(_ element: HTMLNode) -> String {
        let gutters: Set<String> = ["ln", "lnt", "linenos", "line-number", "line-numbers", "gutter"]
        return element.text { $0.classes.contains(where: gutters.contains) }
    }

    func figure(_ figure: HTMLNode) -> [MarkdownBlock] {
        let caption = figure.elementChildren.first { $0.name == "figcaption" }
        let content = figure.children.filter { node in
            switch node.kind {
            case .element: return node !== caption
            case .text(let text): return !text.allSatisfy(\.isWhitespace)
            case .comment: return false
            }
        }
        let contentElements = content.filter(\.isElement)
        let isImageOnly = !contentElements.isEmpty && !contentElements.contains(where: isBlock)
            && contentElements.contains { $0.name == "img" || $0.descendants().contains { $0.name == "img" } }
        if isImageOnly {
            let image = blocks(content)
            guard let caption, !caption.isBlank else { return image }
            let captionHTML = caption.startTag + inlineHTML(caption) + "</figcaption>\n</figure>"
            return [MarkdownBlock(text: figure.startTag, kind: .html)] + image
                + [MarkdownBlock(text: captionHTML, kind: .html)]
        }
        if contentElements.contains(where: { ["pre", "blockquote", "table"].contains($0.name) }) {
            return blocks(content) + (caption.map { blocks($0.children) } ?? [])
        }
        return [rawBlock(figure)]
    }

    /// Caption content as HTML on one line, images in it following the download map.
    func inlineHTML(_ element: HTMLNode) -> String {
        for image in element.descendants() where image.name == "img" { rewriteImage(image) }
        return HTMLSerializer.html(children: element).replacingOccurrences(of: "\n", with: " ")
    }

    func footnoteDefinitions(_ element: HTMLNode) -> [MarkdownBlock] {
        element.elementChildren.map { definition in
            let label = definition.attribute("label") ?? "1"
            let body = Self.join(blocks(definition.children), tight: false)
            let lines = body.split(separator: "\n", omittingEmptySubsequences: false)
            var text = "[^\(label)]:" + (lines.first.map { $0.isEmpty ? "" : " " + $0 } ?? "")
            for line in lines.dropFirst() { text += "\n" + (line.isEmpty ? "" : "    " + line) }
            return MarkdownBlock(text: text, kind: .paragraph)
        }
    }

    /// An element kept as HTML. Elements that cannot start a Markdown HTML block mid-document
    /// (CommonMark condition 7) get their start tag on a line of its own.
    func rawBlock(_ element: HTMLNode) -> MarkdownBlock {
        for image in [element] + element.descendants() where image.name == "img" { rewriteImage(image) }
        var html = HTMLSerializer.html(element)
        let literal: Set<String> = ["script", "style", "pre", "textarea"]
        if !HTMLElementNames.markdownBlockTags.contains(element.name), !literal.contains(element.name),
           !HTMLNode.voidElements.contains(element.name) {
            let start = element.startTag
            html = start + "\n" + html.dropFirst(start.count)
        }
        return MarkdownBlock(text: html, kind: .html)
    }

    // MARK: Helpers

    /// The first character that will follow `nodes[index]` in the output, as far as emphasis
    /// delimiters care (markup characters count as punctuation).
    func nextCharacter(_ nodes: [HTMLNode], after index: Int, outer: Character?) -> Character? {
        for node in nodes[(index + 1)...] {
            switch node.kind {
            case .text(let text):
                if let first = text.first { return first }
            case .comment:
                continue
            case .element(let name):
                if isBlock(node) || name == "br" { return "\n" }
                if HTMLElementNames.transparent.contains(name) {
                    if let first = nextCharacter(node.children, after: -1, outer: nil) { return first }
                    continue
                }
                return "<"  // every other inline element starts with markup punctuation
            }
        }
        return outer
    }

    static func isPunctuation(_ character: Character) -> Bool {
        character.isPunctuation || character.isSymbol || (character.isASCII && !character.isLetter && !character.isNumber
            && !character.isWhitespace)
    }

    static func isMoreMarker(_ comment: String) -> Bool {
        comment.trimmingCharacters(in: .whitespaces).lowercased().hasPrefix("more")
    }

    /// Blocks separated by blank lines; in tight list items a nested list or a code block follows
    /// its paragraph directly.
    static func join(_ blocks: [MarkdownBlock], tight: Bool) -> String {
        var text = ""
        for (index, block) in blocks.enumerated() {
            if index > 0 {
                var direct = false
                if tight, case .list = block.kind { direct = true }
                if tight, block.kind == .code { direct = true }
                text += direct ? "\n" : "\n\n"
            }
            text += block.text
        }
        return text
    }
}
