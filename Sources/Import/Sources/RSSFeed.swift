import Foundation

/// Reads an RSS 2.0 feed: each `<item>` is a post, its body `content:encoded` (or `description`),
/// its date `pubDate` (or `dc:date`), its tags the `<category>` elements. Medium's feeds (their
/// `<generator>`, or medium.com links) get Medium's id removed from slugs.
///
/// ```swift
/// let content = try RSSFeed.read(data, timeZone: .gmt)
/// ```
enum RSSFeed {
    static func read(_ data: Data, timeZone: TimeZone) throws -> SourceContent {
        let root = try XMLTree.parse(data)
        guard root.name == "rss" || root.name == "rdf:RDF" || root.name.hasSuffix(":RDF"),
              let channel = root.child("channel") else {
            throw ImportError.unreadable("not an RSS feed (no <rss><channel>)")
        }
        let generator = channel.value("generator") ?? ""
        let siteLink = channel.value("link")
        let isMedium = generator.lowercased().contains("medium") || (siteLink ?? "").contains("medium.com")
        // RSS 1.0 puts its items next to the channel.
        let items = channel.children("item") + root.children("item")
        var content = SourceContent(kind: .rss, items: [], baseURL: siteLink)
        for element in items {
            content.items.append(item(element, timeZone: timeZone, isMedium: isMedium))
        }
        return content
    }

    private static func item(_ element: XMLTree, timeZone: TimeZone, isMedium: Bool) -> ImportedItem {
        let encoded = element.child("content:encoded")?.text
        let description = element.child("description")?.text
        let html = encoded ?? description ?? ""
        let guid = element.child("guid")
        let guidIsLink = guid?.attributes["isPermaLink"] != "false" && (guid?.text.hasPrefix("http") ?? false)
        let link = element.value("link") ?? element.child("atom:link")?.attributes["href"]
            ?? (guidIsLink ? guid?.text.trimmingCharacters(in: .whitespaces) : nil)
        var item = ImportedItem(kind: .post, origin: link ?? guid?.text ?? element.value("title") ?? "item", body: .html(html))
        item.title = FeedText.title(element.value("title"))
        item.link = link
        item.linkHasMediumID = isMedium || (link ?? "").contains("medium.com")
        item.date = (element.value("pubDate") ?? element.value("dc:date")).flatMap { DateReading.parse($0, timeZone: timeZone) }
        item.updated = (element.value("atom:updated") ?? element.value("dc:modified"))
            .flatMap { DateReading.parse($0, timeZone: timeZone) }
        item.tags = FeedText.tags(element.children("category").map(\.text) + element.children("dc:subject").map(\.text))
        if encoded != nil { item.summary = FeedText.summary(description) }
        item.image = element.child("media:thumbnail")?.attributes["url"]
            ?? element.children("media:content").first { $0.attributes["medium"] == "image" }?.attributes["url"]
        return item
    }
}
