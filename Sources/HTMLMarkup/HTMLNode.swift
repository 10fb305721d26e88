/// A loose element tree over `HTMLTokenizer`'s tokens (its `.sanitizer` reading, a browser's),
/// enough for reading microformats and `<link rel>`s out of a page: void elements take no
/// children, an end tag closes the nearest open element of its name (and what is open inside
/// it), a stray end tag is ignored. It does not build HTML's full tree (no foster parenting, no
/// implied `<tbody>`): what mf2 reads (classes, attributes, text) comes out the same.
public final class HTMLNode {
    public enum Kind { case element(String), text(String) }

    public let kind: Kind
    public let attributes: [HTMLAttribute]
    public private(set) var children: [HTMLNode] = []
    public private(set) weak var parent: HTMLNode?

    init(_ kind: Kind, attributes: [HTMLAttribute] = []) {
        self.kind = kind
        self.attributes = attributes
    }

    public var name: String? { if case .element(let name) = kind { return name } else { return nil } }

    public func attribute(_ name: String) -> String? { attributes.first { $0.name == name }?.value }

    /// At most this many of an element's class names are read (no page needs more; a hostile
    /// one would otherwise make every look at the element's classes cost its whole attribute).
    public static let maximumClasses = 256

    /// The `class` attribute's names, in order, without repeats: the first `maximumClasses`.
    /// Read once per element.
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

    public var elementChildren: [HTMLNode] { children.filter { $0.name != nil } }

    /// Every element below this one, in document order.
    public func descendants() -> [HTMLNode] {
        var found: [HTMLNode] = []
        func walk(_ node: HTMLNode) { for child in node.children where child.name != nil { found.append(child); walk(child) } }
        walk(self)
        return found
    }

    static let voidElements: Set<String> = ["area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta",
                                            "param", "source", "track", "wbr"]
    /// Deeper nesting is flattened into its parent: a hostile page cannot make the walks recurse without bound.
    static let maximumDepth = 256

    /// The document's root (a nameless element) with everything parsed under it. The caller
    /// bounds the input (a fetched page is at most 1 MiB).
    public static func parse(_ html: String) -> HTMLNode {
        let root = HTMLNode(.element(""))
        var open: [HTMLNode] = [root]
        // How many of each name are open: a stray end tag is known at once, not by a search of
        // everything open (a page of them under deep nesting).
        var openNames: [String: Int] = [:]
        for token in HTMLTokenizer(html, options: .sanitizer) {
            switch token {
            case .text(let text):
                open.last!.append(HTMLNode(.text(text)))
            case .startTag(let name, let attributes, _):
                let node = HTMLNode(.element(name), attributes: attributes)
                open.last!.append(node)
                if !voidElements.contains(name), open.count < maximumDepth {
                    open.append(node)
                    openNames[name, default: 0] += 1
                }
            case .endTag(let name):
                guard openNames[name, default: 0] > 0, let index = open.lastIndex(where: { $0.name == name }), index > 0 else { continue }
                for closed in open[index...] { openNames[closed.name ?? "", default: 0] -= 1 }
                open.removeSubrange(index...)
            case .comment:
                continue
            }
        }
        return root
    }

    private func append(_ child: HTMLNode) {
        child.parent = self
        children.append(child)
    }

    /// The text as mf2's parsers read it (`textContent`, with `<script>` and `<style>` left out
    /// and, when `images` is set, an `<img>` read as its `alt`, else its resolved `src`).
    public func textContent(images: ((HTMLNode) -> String)? = nil) -> String {
        var out = ""
        func walk(_ node: HTMLNode) {
            switch node.kind {
            case .text(let text): out += text
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
        case .element(let name):
            out += "<" + name
            for attribute in attributes { out += " " + attribute.name + "=\"" + Self.escape(attribute.value, attribute: true) + "\"" }
            out += ">"
            if Self.voidElements.contains(name) { return }
            for child in children { child.write(into: &out) }
            out += "</" + name + ">"
        }
    }

    static func escape(_ text: String, attribute: Bool) -> String {
        var out = ""
        out.unicodeScalars.reserveCapacity(text.unicodeScalars.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"" where attribute: out += "&quot;"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
