import Foundation
import HTMLMarkup

/// An XML document as a small tree, names qualified by a short namespace key (`content:encoded`,
/// `wp:post_type`, `atom:link`) whatever prefixes the file declares. Feeds and exports are read
/// whole: they are a few megabytes at most.
final class XMLTree {
    let name: String
    let attributes: [String: String]
    private(set) var children: [Child] = []

    enum Child {
        case element(XMLTree)
        case text(String)
    }

    init(name: String, attributes: [String: String]) {
        self.name = name
        self.attributes = attributes
    }

    /// Namespaces by URI, to the keys used in names; elements without one have no key.
    static let namespaces: [String: String] = [
        "http://www.w3.org/2005/Atom": "atom",
        "http://purl.org/atom/ns#": "atom",
        "http://purl.org/rss/1.0/modules/content/": "content",
        "http://purl.org/dc/elements/1.1/": "dc",
        "http://www.w3.org/1999/xhtml": "xhtml",
        "http://search.yahoo.com/mrss/": "media",
        "http://purl.org/rss/1.0/modules/slash/": "slash",
        "http://wellformedweb.org/CommentAPI/": "wfw",
        "http://purl.org/syndication/thread/1.0": "thr",
        "http://www.w3.org/2007/app": "app",
        "http://schemas.google.com/g/2005": "gd",
        "http://www.sitemaps.org/schemas/sitemap/0.9": "sitemap",
        "http://www.google.com/schemas/sitemap/0.9": "sitemap",
    ]

    static func key(forNamespace uri: String) -> String {
        if let key = namespaces[uri] { return key }
        // WXR 1.0–1.2, declared with http:// (WordPress's exporter) or https:// (the theme unit test data).
        if uri.hasPrefix("http://wordpress.org/export/") || uri.hasPrefix("https://wordpress.org/export/") {
            return uri.hasSuffix("/excerpt/") ? "excerpt" : "wp"
        }
        return uri
    }

    var elements: [XMLTree] { children.compactMap { if case .element(let element) = $0 { element } else { nil } } }

    func child(_ name: String) -> XMLTree? { elements.first { $0.name == name } }

    func children(_ name: String) -> [XMLTree] { elements.filter { $0.name == name } }

    /// All text inside, in order.
    var text: String {
        children.map { child in
            switch child {
            case .text(let text): return text
            case .element(let element): return element.text
            }
        }.joined()
    }

    /// Trimmed text of the first child named `name`, nil when absent or empty.
    func value(_ name: String) -> String? {
        guard let text = child(name)?.text.trimmingCharacters(in: .whitespacesAndNewlines), !text.isEmpty else { return nil }
        return text
    }

    /// The children written back as markup (Atom's `type="xhtml"` content), names without prefixes.
    var innerXML: String {
        children.map { child in
            switch child {
            case .text(let text): return HTMLNode.escape(text, attribute: true)
            case .element(let element):
                let local = element.name.split(separator: ":").last.map(String.init) ?? element.name
                let attributes = element.attributes.sorted { $0.key < $1.key }
                    .filter { !$0.key.hasPrefix("xmlns") }
                    .map { " \($0.key)=\"\(HTMLNode.escape($0.value, attribute: true))\"" }.joined()
                return "<\(local)\(attributes)>\(element.innerXML)</\(local)>"
            }
        }.joined()
    }

    /// Parses `data` (`XMLReader`); malformed XML throws with the line.
    static func parse(_ data: Data) throws -> XMLTree { try XMLReader.parse(data) }

    func append(element: XMLTree) { children.append(.element(element)) }

    /// Text next to text joins it, as one run between two elements; empty text (`<![CDATA[]]>`) adds nothing.
    func append(text: String) {
        guard !text.isEmpty else { return }
        if case .text(let previous)? = children.last {
            children[children.count - 1] = .text(previous + text)
        } else {
            children.append(.text(text))
        }
    }
}
