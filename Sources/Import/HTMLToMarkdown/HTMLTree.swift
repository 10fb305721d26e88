import HTMLMarkup

/// A node of a parsed HTML fragment.
enum HTMLNode {
    case element(HTMLElement)
    case text(String)
    case comment(String)

    var element: HTMLElement? {
        if case .element(let element) = self { return element }
        return nil
    }
}

/// An element and its children. A class: clean-up passes (footnotes, tracking pixels) edit the
/// tree in place before it is converted.
final class HTMLElement {
    var name: String
    var attributes: [HTMLAttribute]
    var children: [HTMLNode] = []

    init(name: String, attributes: [HTMLAttribute] = [], children: [HTMLNode] = []) {
        self.name = name
        self.attributes = attributes
        self.children = children
    }

    func attribute(_ name: String) -> String? { attributes.first { $0.name == name }?.value }

    func setAttribute(_ name: String, _ value: String) {
        if let index = attributes.firstIndex(where: { $0.name == name }) {
            attributes[index].value = value
        } else {
            attributes.append(HTMLAttribute(name: name, value: value))
        }
    }

    var classes: [String] {
        (attribute("class") ?? "").split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }).map(String.init)
    }

    var childElements: [HTMLElement] { children.compactMap(\.element) }

    /// Every element below this one, depth first, in document order.
    var descendants: [HTMLElement] {
        var result: [HTMLElement] = []
        func walk(_ element: HTMLElement) {
            for child in element.childElements {
                result.append(child)
                walk(child)
            }
        }
        walk(self)
        return result
    }

    /// The text a reader sees (no whitespace folding), `<br>` as a line break.
    var textContent: String { text() }

    /// The text inside, in order: `<br>` as a line break, the elements `skip` picks left out,
    /// and with `spacedBlocks` a space around each block element (so words do not run together).
    func text(spacedBlocks: Bool = false, skip: (HTMLElement) -> Bool = { _ in false }) -> String {
        var text = ""
        func walk(_ element: HTMLElement) {
            for child in element.children {
                guard case .element(let inner) = child else {
                    if case .text(let value) = child { text += value }
                    continue
                }
                if inner.name == "br" { text += "\n"; continue }
                if skip(inner) { continue }
                let spaced = spacedBlocks && HTMLElementNames.block.contains(inner.name)
                if spaced { text += " " }
                walk(inner)
                if spaced { text += " " }
            }
        }
        walk(self)
        return text
    }

    /// Whether only whitespace text (and comments) is inside.
    var isBlank: Bool {
        children.allSatisfy { node in
            switch node {
            case .text(let text): return text.allSatisfy(\.isWhitespace)
            case .comment: return true
            case .element: return false
            }
        }
    }
}

/// Builds a tree from tokens with the HTML rules that matter for posts: void elements, an open
/// `<p>` closed by a block, `<li>`/`<dt>`/`<dd>`/`<tr>`/`<td>` closing their open siblings, end
/// tags closing everything opened inside them, stray end tags ignored, and the line break right
/// after `<pre>` dropped.
enum HTMLTreeBuilder {
    static func parse(_ html: String) -> HTMLElement {
        let root = HTMLElement(name: "#root")
        var stack: [HTMLElement] = [root]
        var dropNextNewline = false
        for token in HTMLTokenizer(html, options: .importer) {
            switch token {
            case .text(var text):
                if dropNextNewline {
                    dropNextNewline = false
                    if text.hasPrefix("\r\n") { text.removeFirst(2) } else if text.hasPrefix("\n") { text.removeFirst() }
                }
                guard !text.isEmpty else { continue }
                let current = stack[stack.count - 1]
                if case .text(let previous)? = current.children.last {
                    current.children[current.children.count - 1] = .text(previous + text)
                } else {
                    current.children.append(.text(text))
                }
            case .comment(let text):
                dropNextNewline = false
                stack[stack.count - 1].children.append(.comment(text))
            case let .startTag(name, attributes, selfClosing):
                dropNextNewline = false
                closeImplied(by: name, stack: &stack)
                let element = HTMLElement(name: name, attributes: attributes)
                stack[stack.count - 1].children.append(.element(element))
                if !HTMLElementNames.void.contains(name) && !(selfClosing && isForeignOrVoidLike(name)) {
                    stack.append(element)
                    dropNextNewline = name == "pre" || name == "textarea"
                }
            case .endTag(let name):
                dropNextNewline = false
                if name == "br" {
                    stack[stack.count - 1].children.append(.element(HTMLElement(name: "br")))
                } else if let index = stack.lastIndex(where: { $0.name == name }), index > 0 {
                    stack.removeSubrange(index...)
                }
            }
        }
        return root
    }

    /// `<div/>` is not self-closing in HTML, but SVG's `<path/>` and custom elements written as
    /// XHTML are: treat a self-closed non-HTML element as empty.
    private static func isForeignOrVoidLike(_ name: String) -> Bool {
        !["div", "span", "p", "a", "script", "iframe", "video", "audio", "textarea", "title", "style"].contains(name)
    }

    private static let scopeBoundaries: Set<String> = ["table", "td", "th", "caption", "button", "object", "template",
                                                       "#root", "marquee", "applet"]

    private static func closeImplied(by name: String, stack: inout [HTMLElement]) {
        if HTMLElementNames.closesParagraph.contains(name) {
            closeNearest(["p"], stoppingAt: scopeBoundaries, stack: &stack)
        }
        switch name {
        case "li":
            closeNearest(["li"], stoppingAt: scopeBoundaries.union(["ul", "ol"]), stack: &stack)
        case "dt", "dd":
            closeNearest(["dt", "dd"], stoppingAt: scopeBoundaries.union(["dl"]), stack: &stack)
        case "tr":
            closeNearest(["tr"], stoppingAt: ["table", "#root"], stack: &stack)
        case "td", "th":
            closeNearest(["td", "th"], stoppingAt: ["tr", "table", "#root"], stack: &stack)
        case "thead", "tbody", "tfoot":
            closeNearest(["thead", "tbody", "tfoot"], stoppingAt: ["table", "#root"], stack: &stack)
        case "h1", "h2", "h3", "h4", "h5", "h6":
            if let last = stack.last, ["h1", "h2", "h3", "h4", "h5", "h6"].contains(last.name) { stack.removeLast() }
        case "option":
            closeNearest(["option"], stoppingAt: ["select", "#root"], stack: &stack)
        default:
            break
        }
    }

    private static func closeNearest(_ names: Set<String>, stoppingAt boundaries: Set<String>, stack: inout [HTMLElement]) {
        for index in stack.indices.reversed() {
            let element = stack[index]
            if names.contains(element.name) {
                stack.removeSubrange(index...)
                return
            }
            if boundaries.contains(element.name) { return }
        }
    }
}
