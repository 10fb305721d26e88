import BlogModel
import Foundation

/// The search results page, rendered when a reader asks (`/search?q=`) through the theme's
/// `search` template, with the site's navigation. The server keeps one per build and hands it
/// what the store found.
///
/// ```swift
/// let page = try SearchPage(root: siteURL)
/// let html = try page.render(SearchPage.Outcome(query: "swift", hits: hits, total: 1))
/// ```
public struct SearchPage: Sendable {
    public struct Hit: Sendable {
        public var path: String
        public var title: String
        public var published: Date
        /// Plain text with `start`…`end` around the words that matched.
        public var snippet: String
        public init(path: String, title: String, published: Date, snippet: String) {
            (self.path, self.title, self.published, self.snippet) = (path, title, published, snippet)
        }
    }

    public struct Outcome: Sendable {
        public var query: String
        public var hits: [Hit] = []
        public var total = 0
        public var page = 1
        public var perPage = 20
        /// The query was not valid search syntax and its words were searched instead.
        public var searchedWordsOnly = false
        /// Why the search did less than asked (a query too costly), shown to the reader.
        public var limitNotice: String?
        /// False when nothing was searched (or the search was stopped): no "nothing matches".
        public var searched = true
        public init(query: String, hits: [Hit] = [], total: Int = 0, page: Int = 1, perPage: Int = 20, searchedWordsOnly: Bool = false) {
            (self.query, self.hits, self.total, self.page, self.perPage) = (query, hits, total, page, perPage)
            self.searchedWordsOnly = searchedWordsOnly
        }
    }

    /// Results beyond this many are not offered (nobody reads the 1,001st, and ranking deeper costs).
    public static let maximumResults = 1000

    private let renderer: PageRenderer
    private let mark: (start: Character, end: Character)

    /// `mark` is the pair of characters the snippets put around matched words.
    public init(root: URL, mark: (start: Character, end: Character)) throws {
        let config = try SiteConfig.load(from: root)
        let theme = try Theme.load(overrideFolder: root.appendingPathComponent("theme"))
        let content = try ContentLoader(root: root, timeZone: config.timeZone).loadNavigation()
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = config.timeZone
        renderer = PageRenderer(model: SiteModel(config: config, content: content), theme: theme,
                                year: calendar.component(.year, from: Date()))
        self.mark = mark
    }

    public func render(_ outcome: Outcome) throws -> String {
        try renderer.search(outcome, snippetHTML: snippetHTML)
    }

    /// A page the server makes on request besides results (the newsletter's "check your inbox",
    /// its confirmation and unsubscribe pages), through the theme's `page` template. `html` is
    /// the server's own markup: whatever a visitor typed is escaped by the caller.
    public func notice(title: String, html: String) throws -> String {
        try renderer.notice(title: title, html: html)
    }

    /// The snippet escaped, its marks turned into `<mark>`: the text stays text. One pass over
    /// the scalars (Foundation's `replacingOccurrences` cost more than the rest of the page).
    func snippetHTML(_ snippet: String) -> String {
        var html = ""
        var text = ""
        for scalar in snippet.unicodeScalars {
            let tag = scalar == mark.start.unicodeScalars.first ? "<mark>" : scalar == mark.end.unicodeScalars.first ? "</mark>" : nil
            guard let tag else { text.unicodeScalars.append(scalar); continue }
            html += HTMLText.escape(text) + tag
            text = ""
        }
        return html + HTMLText.escape(text)
    }
}

extension PageRenderer {
    func notice(title: String, html: String) throws -> String {
        var context = base(page: [
            "title": title, "fullTitle": "\(title) – \(model.config.title)", "description": title,
            "canonical": model.config.absoluteURL("/"), "ogType": "website", "noindex": true,
        ])
        context["standalone"] = ["title": title, "content": html] as [String: any TemplateValue]
        return try theme.render(context, template: "page")
    }

    func search(_ outcome: SearchPage.Outcome, snippetHTML: (String) -> String) throws -> String {
        let siteTitle = model.config.title
        let query = outcome.query
        var context = base(page: [
            "title": "Search", "fullTitle": query.isEmpty ? "Search – \(siteTitle)" : "Search: \(query) – \(siteTitle)",
            "description": "Search \(siteTitle)", "canonical": model.config.absoluteURL("/search"), "ogType": "website",
        ])
        var search: [String: any TemplateValue] = ["query": query, "hasResults": !outcome.hits.isEmpty]
        search["results"] = outcome.hits.map { hit in
            ["url": hit.path, "title": hit.title, "dateISO": model.dates.iso8601(hit.published),
             "dateHuman": model.dates.human(hit.published), "snippet": snippetHTML(hit.snippet)]
        }
        var notices: [String] = []
        if outcome.searchedWordsOnly {
            notices.append("Search understands words, \"phrases\", prefix* and OR, AND, NOT; that query was not "
                + "one of those, so its words were searched instead.")
        }
        if let notice = outcome.limitNotice { notices.append(notice) }
        if !notices.isEmpty { search["notice"] = notices.joined(separator: " ") }
        if !query.isEmpty, outcome.searched {
            search["summary"] = switch outcome.total {
            case 0: "Nothing matches “\(query)”."
            case 1: "One post matches “\(query)”."
            case 1001...: "More than 1,000 posts match “\(query)”; the best are first."
            default: "\(outcome.total) posts match “\(query)”."
            }
        }
        let pageCount = min(ListPaging.pageCount(items: outcome.total, perPage: outcome.perPage),
                            SearchPage.maximumResults / outcome.perPage)
        if pageCount > 1 {
            // Only unreserved characters stay as they are: `&`, `=`, `+` and `#` in a query are data.
            let unreserved = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~")
            let encoded = query.addingPercentEncoding(withAllowedCharacters: unreserved) ?? ""
            func link(_ page: Int) -> String { "/search?q=\(encoded)" + (page > 1 ? "&page=\(page)" : "") }
            var pagination: [String: any TemplateValue] = ["current": outcome.page, "total": pageCount]
            if outcome.page > 1 { pagination["newer"] = link(outcome.page - 1) }
            if outcome.page < pageCount { pagination["older"] = link(outcome.page + 1) }
            search["pagination"] = pagination
        }
        context["search"] = search
        return try theme.render(context, template: "search")
    }
}
