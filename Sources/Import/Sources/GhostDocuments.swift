import Foundation
import HTMLMarkup
import Site

/// Renders Ghost's editor documents to HTML for exports that lack `html`: Lexical (Ghost 5+)
/// and Mobiledoc (Ghost 1–4), with their common cards (markdown, html, code, image, gallery,
/// embed, bookmark, divider). Unknown cards are reported.
enum GhostDocuments {
    static func html(lexical: String?, mobiledoc: String?, warnings: inout [String]) -> String? {
        if let lexical, let root = object(lexical)?["root"] as? [String: Any] {
            return lexicalChildren(root, warnings: &warnings)
        }
        if let mobiledoc, let document = object(mobiledoc) {
            return Mobiledoc(document).html(warnings: &warnings)
        }
        return nil
    }

    private static func object(_ json: String) -> [String: Any]? {
        guard let data = json.data(using: .utf8) else { return nil }
        return (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
    }

    // MARK: Lexical

    private static func lexicalChildren(_ node: [String: Any], warnings: inout [String]) -> String {
        (node["children"] as? [[String: Any]] ?? []).map { lexical($0, warnings: &warnings) }.joined()
    }

    private static func lexical(_ node: [String: Any], warnings: inout [String]) -> String {
        let type = (node["type"] as? String ?? "").replacingOccurrences(of: "extended-", with: "")
        switch type {
        case "paragraph": return "<p>" + lexicalChildren(node, warnings: &warnings) + "</p>\n"
        case "heading":
            let tag = node["tag"] as? String ?? "h2"
            return "<\(tag)>" + lexicalChildren(node, warnings: &warnings) + "</\(tag)>\n"
        case "quote", "aside": return "<blockquote>" + lexicalChildren(node, warnings: &warnings) + "</blockquote>\n"
        case "list":
            let tag = node["listType"] as? String == "number" ? "ol" : "ul"
            let start = (node["start"] as? Int).map { $0 == 1 ? "" : " start=\"\($0)\"" } ?? ""
            return "<\(tag)\(start)>" + lexicalChildren(node, warnings: &warnings) + "</\(tag)>\n"
        case "listitem": return "<li>" + lexicalChildren(node, warnings: &warnings) + "</li>"
        case "link", "autolink":
            let url = HTMLNode.escape(node["url"] as? String ?? "", attribute: true)
            return "<a href=\"\(url)\">" + lexicalChildren(node, warnings: &warnings) + "</a>"
        case "linebreak": return "<br>"
        case "text", "tab":
            var html = HTMLNode.escape(node["text"] as? String ?? "\t", attribute: false)
            let format = node["format"] as? Int ?? 0
            for (bit, tag) in [(16, "code"), (1, "strong"), (2, "em"), (4, "s"), (8, "u"), (32, "sub"), (64, "sup")]
            where format & bit != 0 {
                html = "<\(tag)>\(html)</\(tag)>"
            }
            return html
        case "horizontalrule": return "<hr>\n"
        case "codeblock":
            let language = (node["language"] as? String).map { " class=\"language-\(HTMLNode.escape($0, attribute: true))\"" } ?? ""
            return "<pre><code\(language)>\(HTMLNode.escape(node["code"] as? String ?? "", attribute: false))</code></pre>\n"
        default:
            return card(type, node, warnings: &warnings)
        }
    }

    // MARK: Cards (the same payloads in both formats)

    static func card(_ name: String, _ payload: [String: Any], warnings: inout [String]) -> String {
        switch name {
        case "markdown", "card-markdown":
            return MarkdownRenderer.render(payload["markdown"] as? String ?? "").html + "\n"
        case "html":
            return (payload["html"] as? String ?? "") + "\n"
        case "code":
            let language = (payload["language"] as? String).map { " class=\"language-\(HTMLNode.escape($0, attribute: true))\"" } ?? ""
            return "<pre><code\(language)>\(HTMLNode.escape(payload["code"] as? String ?? "", attribute: false))</code></pre>\n"
        case "image":
            let caption = (payload["caption"] as? String).map { $0.isEmpty ? "" : "<figcaption>\($0)</figcaption>" } ?? ""
            let source = HTMLNode.escape(payload["src"] as? String ?? "", attribute: true)
            let alt = HTMLNode.escape(payload["alt"] as? String ?? payload["altText"] as? String ?? "", attribute: true)
            return "<figure><img src=\"\(source)\" alt=\"\(alt)\">\(caption)</figure>\n"
        case "gallery":
            let images = payload["images"] as? [[String: Any]] ?? []
            return "<p>" + images.map { image in
                let source = HTMLNode.escape(image["src"] as? String ?? "", attribute: true)
                return "<img src=\"\(source)\" alt=\"\(HTMLNode.escape(image["alt"] as? String ?? "", attribute: true))\">"
            }.joined(separator: "\n") + "</p>\n"
        case "hr", "horizontalrule":
            return "<hr>\n"
        case "embed":
            if let html = payload["html"] as? String, !html.isEmpty { return "<figure>\(html)</figure>\n" }
            let url = HTMLNode.escape(payload["url"] as? String ?? "", attribute: true)
            return "<p><a href=\"\(url)\">\(url)</a></p>\n"
        case "bookmark":
            let url = payload["url"] as? String ?? ""
            let title = (payload["metadata"] as? [String: Any])?["title"] as? String ?? url
            return "<p><a href=\"\(HTMLNode.escape(url, attribute: true))\">\(HTMLNode.escape(title, attribute: false))</a></p>\n"
        case "callout":
            return "<blockquote><p>\(payload["calloutText"] as? String ?? "")</p></blockquote>\n"
        default:
            warnings.append("Ghost card '\(name)' has no Markdown equivalent and was left out")
            return ""
        }
    }
}

/// Mobiledoc 0.3: sections of markers (text with markups opened and closed), lists, cards.
private struct Mobiledoc {
    let markups: [[Any]]
    let atoms: [[Any]]
    let cards: [[Any]]
    let sections: [[Any]]

    init(_ document: [String: Any]) {
        markups = document["markups"] as? [[Any]] ?? []
        atoms = document["atoms"] as? [[Any]] ?? []
        cards = document["cards"] as? [[Any]] ?? []
        sections = document["sections"] as? [[Any]] ?? []
    }

    func html(warnings: inout [String]) -> String {
        var html = ""
        for section in sections {
            switch section.first as? Int {
            case 1:
                let tag = (section[safe: 1] as? String ?? "p").lowercased()
                html += "<\(tag)>" + markers(section[safe: 2] as? [[Any]] ?? []) + "</\(tag)>\n"
            case 2:
                html += "<figure><img src=\"\(HTMLNode.escape(section[safe: 1] as? String ?? "", attribute: true))\" alt=\"\"></figure>\n"
            case 3:
                let tag = (section[safe: 1] as? String ?? "ul").lowercased()
                let items = section[safe: 2] as? [[[Any]]] ?? []
                html += "<\(tag)>" + items.map { "<li>" + markers($0) + "</li>" }.joined() + "</\(tag)>\n"
            case 10:
                guard let index = section[safe: 1] as? Int, let card = cards[safe: index],
                      let name = card.first as? String else { continue }
                html += GhostDocuments.card(name, card[safe: 1] as? [String: Any] ?? [:], warnings: &warnings)
            default:
                continue
            }
        }
        return html
    }

    private func markers(_ markers: [[Any]]) -> String {
        var html = ""
        var open: [String] = []
        for marker in markers {
            for index in marker[safe: 1] as? [Int] ?? [] {
                guard let markup = markups[safe: index], let tag = (markup.first as? String)?.lowercased() else { continue }
                var attributes = ""
                if let pairs = markup[safe: 1] as? [String] {
                    for pair in stride(from: 0, to: pairs.count - 1, by: 2) {
                        attributes += " \(pairs[pair])=\"\(HTMLNode.escape(pairs[pair + 1], attribute: true))\""
                    }
                }
                html += "<\(tag)\(attributes)>"
                open.append(tag)
            }
            if marker.first as? Int == 1, let index = marker[safe: 3] as? Int, let atom = atoms[safe: index] {
                html += HTMLNode.escape(atom[safe: 1] as? String ?? "", attribute: false)
            } else {
                html += HTMLNode.escape(marker[safe: 3] as? String ?? "", attribute: false)
            }
            for _ in 0..<min(marker[safe: 2] as? Int ?? 0, open.count) { html += "</\(open.removeLast())>" }
        }
        return html + open.reversed().map { "</\($0)>" }.joined()
    }
}

private extension Array {
    subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
