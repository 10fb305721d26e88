import Foundation
import Site
#if canImport(FoundationXML)
import FoundationXML
#endif

/// An XML document as a small tree, names qualified by a short namespace key (`content:encoded`,
/// `wp:post_type`, `atom:link`) whatever prefixes the file declares. Feeds and exports are read
/// whole: they are a few megabytes at most.
final class XMLTree {
    let name: String
    let attributes: [String: String]
    fileprivate(set) var children: [Child] = []

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
    ]

    static func key(forNamespace uri: String) -> String {
        if let key = namespaces[uri] { return key }
        if uri.hasPrefix("http://wordpress.org/export/") { return uri.hasSuffix("/excerpt/") ? "excerpt" : "wp" }
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
            case .text(let text): return Self.escape(text)
            case .element(let element):
                let local = element.name.split(separator: ":").last.map(String.init) ?? element.name
                let attributes = element.attributes.sorted { $0.key < $1.key }
                    .filter { !$0.key.hasPrefix("xmlns") }
                    .map { " \($0.key)=\"\(Self.escape($0.value))\"" }.joined()
                return "<\(local)\(attributes)>\(element.innerXML)</\(local)>"
            }
        }.joined()
    }

    private static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }

    /// Parses `data`; malformed XML throws with the parser's line and message.
    static func parse(_ data: Data) throws -> XMLTree {
        let builder = XMLTreeBuilder()
        let parser = XMLParser(data: repaired(data))
        parser.shouldProcessNamespaces = false
        parser.shouldResolveExternalEntities = false
        parser.delegate = builder
        guard parser.parse(), let root = builder.root else {
            let message = parser.parserError.map { "\($0.localizedDescription)" } ?? "not well-formed XML"
            throw ImportError.unreadable("line \(parser.lineNumber): \(message)")
        }
        if let open = builder.openElement {
            throw ImportError.unreadable("the XML ends inside <\(open)> (a truncated file?)")
        }
        return root
    }

    /// Fixes what real exports get wrong and XML parsers reject: HTML entity names (`&nbsp;`,
    /// written as numeric references instead) and control characters.
    private static func repaired(_ data: Data) -> Data {
        guard var text = String(data: data, encoding: .utf8) else { return data }
        text.unicodeScalars.removeAll { $0.value < 0x20 && $0 != "\n" && $0 != "\r" && $0 != "\t" }
        guard text.contains("&") else { return Data(text.utf8) }
        let bytes = Array(text.utf8)
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "&") {
                var end = index + 1
                while end < bytes.count, end - index < 34, (bytes[end] | 0x20 >= 97 && bytes[end] | 0x20 <= 122)
                        || (bytes[end] >= 48 && bytes[end] <= 57) {
                    end += 1
                }
                if end < bytes.count, bytes[end] == UInt8(ascii: ";"), end > index + 1 {
                    let name = String(decoding: bytes[(index + 1)..<end], as: UTF8.self)
                    if !["amp", "lt", "gt", "quot", "apos"].contains(name), let value = HTMLEntities.named[name] {
                        output += value.unicodeScalars.map { "&#\($0.value);" }.joined().utf8
                        index = end + 1
                        continue
                    }
                }
            }
            output.append(bytes[index])
            index += 1
        }
        return Data(output)
    }
}

/// Collects elements and text (CDATA included) into an `XMLTree`, resolving prefixes itself.
private final class XMLTreeBuilder: NSObject, XMLParserDelegate {
    var root: XMLTree?
    private var stack: [XMLTree] = []
    /// An element still open when the parser stopped.
    var openElement: String? { stack.last?.name }
    private var scopes: [[String: String]] = [["xml": "http://www.w3.org/XML/1998/namespace"]]

    func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                qualifiedName: String?, attributes: [String: String] = [:]) {
        var scope = scopes[scopes.count - 1]
        for (key, value) in attributes {
            if key == "xmlns" { scope[""] = value } else if key.hasPrefix("xmlns:") { scope[String(key.dropFirst(6))] = value }
        }
        scopes.append(scope)
        let parts = elementName.split(separator: ":", maxSplits: 1).map(String.init)
        let (prefix, local) = parts.count == 2 ? (parts[0], parts[1]) : ("", parts[0])
        let namespace = scope[prefix].map(XMLTree.key(forNamespace:)) ?? prefix
        let element = XMLTree(name: namespace.isEmpty ? local : "\(namespace):\(local)", attributes: attributes)
        if let parent = stack.last { parent.children.append(.element(element)) } else { root = element }
        stack.append(element)
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?) {
        stack.removeLast()
        scopes.removeLast()
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) { append(string) }

    func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data) { append(String(decoding: CDATABlock, as: UTF8.self)) }

    private func append(_ text: String) {
        guard let current = stack.last else { return }
        if case .text(let previous)? = current.children.last {
            current.children[current.children.count - 1] = .text(previous + text)
        } else {
            current.children.append(.text(text))
        }
    }
}
