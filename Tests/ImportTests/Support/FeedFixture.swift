import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// Items of a feed or export read with Foundation's parser (not the importer's reader): for
/// each `<item>`/`<entry>`, its child elements' text by name (qualified as written), plus
/// Atom's link and the inner markup of XHTML content.
final class FeedFixture: NSObject, XMLParserDelegate {
    private(set) var items: [[String: String]] = []
    private var current: [String: String]?
    private var path: [String] = []
    private var text = ""
    private var xhtmlDepth = 0

    static func items(_ url: URL) throws -> [[String: String]] {
        let reader = FeedFixture()
        let parser = XMLParser(data: try Data(contentsOf: url))
        parser.delegate = reader
        guard parser.parse() else { throw parser.parserError ?? CocoaError(.fileReadCorruptFile) }
        return reader.items
    }

    func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                attributes: [String: String] = [:]) {
        if xhtmlDepth > 0 {
            xhtmlDepth += 1
            text += "<\(name)" + attributes.filter { $0.key != "xmlns" }.map { " \($0.key)=\"\($0.value)\"" }.joined() + ">"
            return
        }
        if name == "item" || name == "entry" { current = [:] }
        if current != nil, name == "link", let href = attributes["href"], attributes["rel"] ?? "alternate" == "alternate" {
            current?["link"] = href
        }
        if current != nil, name == "content" || name == "summary" || name == "title" { current?["\(name)@type"] = attributes["type"] ?? "text" }
        path.append(name)
        text = ""
        if current != nil, (name == "content" || name == "summary"), attributes["type"] == "xhtml" { xhtmlDepth = 1 }
    }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        if xhtmlDepth > 1 {
            xhtmlDepth -= 1
            text += "</\(name)>"
            return
        }
        xhtmlDepth = 0
        path.removeLast()
        if name == "item" || name == "entry" {
            if let current { items.append(current) }
            current = nil
        } else if current != nil, path.count >= 1, ["item", "entry"].contains(path.last!) {
            let previous = current?[name]
            if previous == nil || name == "category" {
                current?[name] = (previous.map { $0 + "\n" } ?? "") + text
            }
        }
        text = ""
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        text += xhtmlDepth > 0 ? string.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;") : string
    }

    func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data) { text += String(decoding: CDATABlock, as: UTF8.self) }
}
