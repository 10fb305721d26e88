import Foundation
import HTMLMarkup

/// Reads an Atom 1.0 feed (or a Blogger export, which is one): each `<entry>` is a post, its
/// body `<content>` of `type` text, html or xhtml (else `<summary>`), its URL the alternate
/// `<link>`, its date `<published>` (else `<updated>`), its tags the `<category>` terms. Blogger's
/// settings, template and comment entries are skipped; `app:draft` marks drafts.
///
/// ```swift
/// let content = try AtomFeed.read(data, timeZone: .gmt)
/// ```
enum AtomFeed {
    private static let kindScheme = "http://schemas.google.com/g/2005#kind"

    static func read(_ data: Data, timeZone: TimeZone) throws -> SourceContent {
        let root = try XMLTree.parse(data)
        guard root.name == "atom:feed" else { throw ImportError.unreadable("not an Atom feed (no <feed>)") }
        let siteLink = alternateLink(root)
        var content = SourceContent(kind: .atom, items: [], baseURL: siteLink)
        for entry in root.children("atom:entry") {
            content.items.append(item(entry, timeZone: timeZone))
        }
        return content
    }

    private static func item(_ entry: XMLTree, timeZone: TimeZone) -> ImportedItem {
        let contentElement = entry.child("atom:content")
        let summaryElement = entry.child("atom:summary")
        let body = contentElement.flatMap(html(of:)) ?? summaryElement.flatMap(html(of:)) ?? ""
        let link = alternateLink(entry)
        var item = ImportedItem(kind: .post, origin: link ?? entry.value("atom:id") ?? "entry", body: .html(body))
        item.title = entry.child("atom:title").flatMap(html(of:)).flatMap(FeedText.title)
        item.link = link
        let published = entry.value("atom:published").flatMap { DateReading.parse($0, timeZone: timeZone) }
        let updated = entry.value("atom:updated").flatMap { DateReading.parse($0, timeZone: timeZone) }
        item.date = published ?? updated
        item.updated = published == nil ? nil : updated
        var tags: [String] = []
        for category in entry.children("atom:category") {
            if category.attributes["scheme"] == kindScheme {
                let kind = category.attributes["term"] ?? ""
                if kind.hasSuffix("#page") { item.kind = .page }
                if !kind.hasSuffix("#post") && !kind.hasSuffix("#page") {
                    item.skipReason = "Blogger \(kind.split(separator: "#").last ?? "entry") entry, not a post"
                }
                continue
            }
            if let term = category.attributes["label"] ?? category.attributes["term"] { tags.append(term) }
        }
        item.tags = FeedText.tags(tags)
        if contentElement != nil { item.summary = summaryElement.flatMap(html(of:)).flatMap(FeedText.summary) }
        let draft = entry.child("app:control")?.value("app:draft")
        item.draft = draft?.lowercased() == "yes"
        if let source = contentElement?.attributes["src"], body.isEmpty {
            item.skipReason = "the content is elsewhere (\(source)); only its link is in the feed"
        }
        return item
    }

    /// The HTML of a text construct: `type="html"` is escaped HTML, `xhtml` is markup inside a
    /// `<div>`, `text` (the default) is plain text.
    private static func html(of element: XMLTree) -> String? {
        switch element.attributes["type"] ?? "text" {
        case "html", "text/html":
            return element.text
        case "xhtml", "application/xhtml+xml":
            let div = element.elements.first { $0.name.hasSuffix("div") }
            return (div ?? element).innerXML
        default:
            let text = element.text
            return text.components(separatedBy: "\n\n").map { "<p>" + HTMLNode.escape($0, attribute: false) + "</p>" }
                .joined(separator: "\n")
        }
    }

    private static func alternateLink(_ element: XMLTree) -> String? {
        let links = element.children("atom:link")
        let alternate = links.first { ($0.attributes["rel"] ?? "alternate") == "alternate" && $0.attributes["type"].map { $0.contains("html") } ?? true }
        return alternate?.attributes["href"]
    }
}
