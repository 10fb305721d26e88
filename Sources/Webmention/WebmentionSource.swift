import BlogModel
import Foundation
import HTMLMarkup
import Interactions

/// A webmention's source page as read for its target: whether it links to it, and what it says
/// about it (microformats2: the page's h-entry and its author). Pure: the page is already fetched.
///
/// - An h-entry whose `like-of` names the target is a like, `repost-of` a repost; any other
///   h-entry (a reply, `in-reply-to`, or a post that mentions the target) is a comment with its
///   `content` (else `summary`, else `name`).
/// - A page without an h-entry is a comment that says only "mentioned at <source>".
/// - The author: the entry's `author` (an h-card, or a name or URL), else the page's
///   representative h-card, else the source's host.
struct WebmentionSource: Equatable, Sendable {
    enum Kind: Equatable, Sendable { case reply, mention, like, repost }
    struct Author: Equatable, Sendable {
        var name: String
        var url: String?
        var photo: String?
    }

    var kind: Kind
    var author: Author
    /// Unsanitized: the comment path sanitizes it (as it does a fediverse reply's).
    var contentHTML: String
    var published: String?
    var updated: String?
    /// The entry's own URLs (its explicit `u-url`s, normalized): the verifier requires the
    /// source to be one of them when there are any.
    var entryURLs: [String] = []

    /// nil when the page does not link to `target` (no `href`/`src` equal to it after normalization).
    static func read(html: String, source: String, target: String) -> WebmentionSource? {
        let root = HTMLNode.parse(html, options: .webmention)
        guard links(root, base: source, to: target) else { return nil }
        let items = Microformats.parse(html, base: source)
        let author = representativeCard(items, source: source)
        guard let entry = mainEntry(items, source: source) else {
            let link = HTMLText.escape(source)
            return WebmentionSource(kind: .mention, author: author ?? hostAuthor(source),
                                    contentHTML: "<p>mentioned at <a href=\"\(link)\">\(HTMLText.escape(source))</a></p>",
                                    published: nil, updated: nil)
        }
        let kind: Kind
        if names(entry, "like-of", target) { kind = .like }
        else if names(entry, "repost-of", target) { kind = .repost }
        else if names(entry, "in-reply-to", target) { kind = .reply }
        else { kind = .mention }
        var content = ""
        if case .html(let html, _)? = entry.properties["content"]?.first { content = html }
        else if let text = entry.text("content") ?? entry.text("summary") ?? entry.text("name") {
            content = "<p>" + HTMLText.escape(text) + "</p>"
        }
        let urls = entry.implied.contains("url") ? [] : entry.properties["url", default: []].map { WebmentionLinks.normalized($0.text) }
        return WebmentionSource(kind: kind, author: entryAuthor(entry, source: source) ?? author ?? hostAuthor(source),
                                contentHTML: content, published: entry.text("published"), updated: entry.text("updated"),
                                entryURLs: urls)
    }

    // MARK: links

    /// Elements whose URL attribute counts as a link (the spec's `<a href>`, `<img src>`, `<video src>`…).
    static let linkAttributes: [String: String] = ["a": "href", "area": "href", "link": "href", "img": "src", "video": "src",
                                                   "audio": "src", "source": "src", "iframe": "src", "blockquote": "cite",
                                                   "q": "cite", "ins": "cite", "del": "cite", "object": "data"]

    static func links(_ root: HTMLNode, base: String, to target: String) -> Bool {
        let wanted = WebmentionLinks.normalized(target)
        var baseURL = URL(string: base)
        let nodes = root.descendants()
        // As a browser resolves them: against the page's `<base href>` when it has one.
        if let href = nodes.first(where: { $0.name == "base" && $0.attribute("href") != nil })?.attribute("href"),
           let resolved = URL(string: href.trimmingCharacters(in: .whitespacesAndNewlines), relativeTo: baseURL) {
            baseURL = resolved.absoluteURL
        }
        for node in nodes {
            guard let attribute = linkAttributes[node.name], let value = node.attribute(attribute) else { continue }
            let resolved = URL(string: value.trimmingCharacters(in: .whitespacesAndNewlines), relativeTo: baseURL)?.absoluteString ?? value
            if WebmentionLinks.normalized(resolved) == wanted { return true }
        }
        return false
    }

    // MARK: microformats

    /// The entry the page is about: an h-entry whose `url` is the source, else the first h-entry
    /// (at the top, or inside an h-feed).
    static func mainEntry(_ items: [Microformats.Item], source: String) -> Microformats.Item? {
        var entries: [Microformats.Item] = []
        for item in items {
            if item.has("h-entry") { entries.append(item) }
            if item.has("h-feed") { entries += item.children.filter { $0.has("h-entry") } }
        }
        let wanted = WebmentionLinks.normalized(source)
        return entries.first { entry in entry.properties["url", default: []].contains { WebmentionLinks.normalized($0.text) == wanted } } ?? entries.first
    }

    /// Whether one of `property`'s values (a URL, or an h-cite's `url`) is `target`.
    static func names(_ entry: Microformats.Item, _ property: String, _ target: String) -> Bool {
        let wanted = WebmentionLinks.normalized(target)
        for value in entry.properties[property, default: []] {
            var urls = [value.text]
            if case .item(let cited) = value { urls += cited.properties["url", default: []].map(\.text) }
            if urls.contains(where: { WebmentionLinks.normalized($0) == wanted }) { return true }
        }
        return false
    }

    static func entryAuthor(_ entry: Microformats.Item, source: String) -> Author? {
        guard let value = entry.properties["author"]?.first else { return nil }
        if case .item(let card) = value { return author(card) }
        let text = value.text.trimmingCharacters(in: .whitespacesAndNewlines)
        if let url = HTTPURL.parse(text), text.hasPrefix("http") { return Author(name: HostDisplay.host(of: url), url: url, photo: nil) }
        return text.isEmpty ? nil : Author(name: text, url: nil, photo: nil)
    }

    /// The page's representative h-card: one whose `url` is the source, else the only top-level h-card.
    static func representativeCard(_ items: [Microformats.Item], source: String) -> Author? {
        let cards = items.filter { $0.has("h-card") }
        let wanted = WebmentionLinks.normalized(source)
        if let card = cards.first(where: { $0.properties["url", default: []].contains { WebmentionLinks.normalized($0.text) == wanted } }) {
            return author(card)
        }
        return cards.count == 1 ? author(cards[0]) : nil
    }

    static func author(_ card: Microformats.Item) -> Author {
        let url = card.text("url").flatMap(HTTPURL.parse)
        var photo: String?
        if let value = card.properties["photo"]?.first { photo = HTTPURL.parse(value.text) }
        let name = card.text("name")?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        return Author(name: name.isEmpty ? (url.map(HostDisplay.host(of:)) ?? "someone") : name, url: url, photo: photo)
    }

    static func hostAuthor(_ source: String) -> Author {
        let origin = URLComponents(string: source).flatMap { parts -> String? in
            guard let scheme = parts.scheme, let host = parts.host else { return nil }
            return scheme + "://" + host + (parts.port.map { ":\($0)" } ?? "") + "/"
        }
        return Author(name: HostDisplay.host(of: source), url: origin, photo: nil)
    }
}

/// A URL's host for display (a name when nothing better is known).
enum HostDisplay {
    static func host(of url: String) -> String { URLComponents(string: url)?.host ?? url }
}
