/// A node of an HTML tree: an element (its name, attributes and children), a text or a comment.
/// `parse` builds the tree from `HTMLTokenizer`'s tokens, each reader with its own options
/// (`HTMLTreeBuilder`). A class, and editable: the importer's clean-up passes (footnotes,
/// tracking pixels, embeds) change the tree in place before converting it.
public final class HTMLNode {
    public enum Kind { case element(String), text(String), comment(String) }

    public let kind: Kind
    public var attributes: [HTMLAttribute] { didSet { cachedClasses = nil } }
    public var children: [HTMLNode]

    public init(_ kind: Kind, attributes: [HTMLAttribute] = [], children: [HTMLNode] = []) {
        self.kind = kind
        self.attributes = attributes
        self.children = children
    }

    /// The element's name (lower case); "" for a text, a comment and the root `parse` returns.
    public var name: String { if case .element(let name) = kind { name } else { "" } }

    public var isElement: Bool { if case .element = kind { true } else { false } }

    public func attribute(_ name: String) -> String? { attributes.first { $0.name == name }?.value }

    public func setAttribute(_ name: String, _ value: String) {
        if let index = attributes.firstIndex(where: { $0.name == name }) {
            attributes[index].value = value
        } else {
            attributes.append(HTMLAttribute(name: name, value: value))
        }
    }

    /// At most this many of an element's class names are read (no page needs more; a hostile
    /// one would otherwise make every look at the element's classes cost its whole attribute).
    public static let maximumClasses = 256

    /// The `class` attribute's names, in order, without repeats: the first `maximumClasses`.
    /// Read once per element (until its attributes change).
    public var classes: [String] {
        if let cachedClasses { return cachedClasses }
        var found: [String] = []
        if let value = attribute("class") {
            var seen = Set<String>()
            for name in value.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" || $0 == "\u{0C}" }) {
                if found.count == Self.maximumClasses { break }
                if seen.insert(String(name)).inserted { found.append(String(name)) }
            }
        }
        cachedClasses = found
        return found
    }
    private var cachedClasses: [String]?

    public var elementChildren: [HTMLNode] { children.filter(\.isElement) }

    /// Every element below this one, in document order.
    public func descendants() -> [HTMLNode] {
        var found: [HTMLNode] = []
        func walk(_ node: HTMLNode) { for child in node.children where child.isElement { found.append(child); walk(child) } }
        walk(self)
        return found
    }

    public static let voidElements: Set<String> = ["area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta",
                                                   "param", "source", "track", "wbr"]

    /// The text as mf2's parsers read it (`textContent`, with `<script>` and `<style>` left out
    /// and, when `images` is set, an `<img>` read as its `alt`, else its resolved `src`).
    public func textContent(images: ((HTMLNode) -> String)? = nil) -> String {
        var out = ""
        func walk(_ node: HTMLNode) {
            switch node.kind {
            case .text(let text): out += text
            case .comment: return
            case .element(let name):
                if name == "script" || name == "style" || name == "template" { return }
                if name == "img", let images { out += images(node); return }
                for child in node.children { walk(child) }
            }
        }
        for child in children { walk(child) }
        return out
    }

    /// The element's content written back as HTML (for `e-*` properties; the caller sanitizes it).
    public var innerHTML: String {
        var out = ""
        for child in children { child.write(into: &out) }
        return out
    }

    private func write(into out: inout String) {
        switch kind {
        case .text(let text):
            out += Self.escape(text, attribute: false)
        case .comment(let text):
            out += "<!--" + text + "-->"
        case .element(let name):
            out += startTag
            if Self.voidElements.contains(name) { return }
            for child in children { child.write(into: &out) }
            out += endTag
        }
    }

    /// The element's start tag, its attribute values escaped and double-quoted.
    public var startTag: String {
        var tag = "<" + name
        for attribute in attributes { tag += " " + attribute.name + "=\"" + Self.escape(attribute.value, attribute: true) + "\"" }
        return tag + ">"
    }

    public var endTag: String { "</" + name + ">" }

    /// `text` escaped as HTML text or, with `attribute`, as a double-quoted attribute value
    /// (a line break in one as `&#10;`: the importer writes HTML into Markdown, where a blank
    /// line would end the HTML block). By Unicode scalar, not by character: a `"` followed by a
    /// combining mark is one Swift character but still ends an attribute value for a browser.
    public static func escape(_ text: String, attribute: Bool) -> String {
        HTMLEscape.escape(text, attribute ? .importedAttribute : .importedText)
    }
}
