import BlogModel
import Foundation

/// One feed's scope: the whole blog or one category.
struct FeedScope {
    var title: String
    /// Where the feed's HTML counterpart lives (`/` or `/categories/essays/`); the feed files sit beside it.
    var htmlPath: String
    var indices: [Int]
}

/// Atom 1.0, RSS 2.0 and JSON Feed 1.1 documents, each with the newest `feedSize` posts and
/// their full content (links made absolute, since feed readers have no page to resolve against).
struct FeedRenderer {
    let model: SiteModel

    private var config: SiteConfig { model.config }

    private func entries(_ scope: FeedScope) -> ArraySlice<Int> { scope.indices.prefix(config.feedSize) }

    private func content(_ index: Int) -> String {
        HeadingAnchors.removingSelfLinks(model.rendered.absoluteHTML(index, baseURL: config.baseURL))
    }

    private func summaryText(_ index: Int) -> String {
        model.posts[index].summary
            ?? HTMLText.truncate(HTMLText.plain(model.rendered.excerpt(index).html), limit: 300)
    }

    /// The category, then the tags, each once (a tag that is also the category is not repeated).
    static func categories(_ post: Post) -> [String] {
        var seen = Set<String>()
        return ([post.category].compactMap { $0 } + post.tags).filter { seen.insert($0.lowercased()).inserted }
    }

    private func commentsURL(_ post: Post) -> String { config.absoluteURL(post.path) + "#comments" }
    private func commentCount(_ post: Post) -> Int { model.discussions.summaries[post.path]?.commentCount ?? 0 }

    private func updated(_ scope: FeedScope) -> Date {
        entries(scope).map { model.posts[$0].lastModified }.max() ?? Date(timeIntervalSince1970: 0)
    }

    func atom(_ scope: FeedScope) -> String {
        var xml = XMLWriter()
        xml.start("feed", ["xmlns": "http://www.w3.org/2005/Atom", "xmlns:thr": "http://purl.org/syndication/thread/1.0",
                           "xml:lang": config.language])
        xml.element("id", config.absoluteURL(scope.htmlPath))
        xml.element("title", scope.title)
        if !config.description.isEmpty { xml.element("subtitle", config.description) }
        xml.element("updated", model.dates.iso8601(updated(scope)))
        xml.element("link", nil, ["rel": "self", "type": "application/atom+xml",
                                  "href": config.absoluteURL(scope.htmlPath + "feed.xml")])
        xml.element("link", nil, ["rel": "alternate", "type": "text/html", "href": config.absoluteURL(scope.htmlPath)])
        xml.element("generator", "Lectern", ["uri": "https://github.com/lectern-blog/lectern"])
        xml.start("author")
        xml.element("name", config.author.isEmpty ? config.title : config.author)
        xml.end()
        for index in entries(scope) {
            let post = model.posts[index]
            xml.start("entry")
            xml.element("id", config.absoluteURL(post.path))
            xml.element("title", post.title)
            xml.element("link", nil, ["rel": "alternate", "type": "text/html", "href": config.absoluteURL(post.path)])
            // RFC 4685: where the comments are, and how many.
            xml.element("link", nil, ["rel": "replies", "type": "text/html", "href": commentsURL(post),
                                      "thr:count": String(commentCount(post))])
            xml.element("published", model.dates.iso8601(post.date))
            xml.element("updated", model.dates.iso8601(post.lastModified))
            for term in Self.categories(post) { xml.element("category", nil, ["term": term]) }
            xml.element("summary", summaryText(index))
            xml.element("content", content(index), ["type": "html"])
            xml.end()
        }
        return xml.finish()
    }

    func rss(_ scope: FeedScope) -> String {
        var xml = XMLWriter()
        xml.start("rss", ["version": "2.0", "xmlns:atom": "http://www.w3.org/2005/Atom",
                          "xmlns:slash": "http://purl.org/rss/1.0/modules/slash/"])
        xml.start("channel")
        xml.element("title", scope.title)
        xml.element("link", config.absoluteURL(scope.htmlPath))
        xml.element("description", config.description.isEmpty ? scope.title : config.description)
        xml.element("language", config.language)
        xml.element("lastBuildDate", model.dates.rfc822(updated(scope)))
        xml.element("generator", "Lectern")
        xml.element("atom:link", nil, ["href": config.absoluteURL(scope.htmlPath + "rss.xml"), "rel": "self",
                                       "type": "application/rss+xml"])
        for index in entries(scope) {
            let post = model.posts[index]
            xml.start("item")
            xml.element("title", post.title)
            xml.element("link", config.absoluteURL(post.path))
            xml.element("guid", config.absoluteURL(post.path), ["isPermaLink": "true"])
            xml.element("pubDate", model.dates.rfc822(post.date))
            xml.element("comments", commentsURL(post))
            xml.element("slash:comments", String(commentCount(post)))
            for term in Self.categories(post) { xml.element("category", term) }
            xml.element("description", content(index))
            xml.end()
        }
        return xml.finish()
    }

    func json(_ scope: FeedScope) throws -> String {
        let feed = JSONFeed(
            title: scope.title, home_page_url: config.absoluteURL(scope.htmlPath),
            feed_url: config.absoluteURL(scope.htmlPath + "feed.json"),
            description: config.description.isEmpty ? nil : config.description, language: config.language,
            authors: [.init(name: config.author.isEmpty ? config.title : config.author, url: config.baseURL + "/")],
            items: entries(scope).map { index in
                let post = model.posts[index]
                return JSONFeed.Item(
                    id: config.absoluteURL(post.path), url: config.absoluteURL(post.path), title: post.title,
                    content_html: content(index), summary: summaryText(index),
                    image: post.image.map(model.absolute),
                    date_published: model.dates.iso8601(post.date),
                    date_modified: post.updated.map(model.dates.iso8601),
                    tags: (post.category.map { [$0] } ?? []) + post.tags)
            })
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(feed), as: UTF8.self)
    }
}

/// JSON Feed 1.1 (https://www.jsonfeed.org/version/1.1/); field names are the spec's.
private struct JSONFeed: Encodable {
    var version = "https://jsonfeed.org/version/1.1"
    var title: String
    var home_page_url: String
    var feed_url: String
    var description: String?
    var language: String
    var authors: [Author]
    var items: [Item]

    struct Author: Encodable { var name: String; var url: String }

    struct Item: Encodable {
        var id: String
        var url: String
        var title: String
        var content_html: String
        var summary: String
        var image: String?
        var date_published: String
        var date_modified: String?
        var tags: [String]
    }
}
