import BlogModel
import Foundation

/// Turns the site model into HTML pages through the theme's Mustache templates.
///
/// Contexts are plain dictionaries (Mustache reads them without reflection), built here so
/// templates stay logic-less: every value a template shows is computed in one place.
struct PageRenderer: Sendable {
    let model: SiteModel
    let theme: Theme
    /// Shared by every page; built once per build.
    private var siteContext: [String: any TemplateValue]

    init(model: SiteModel, theme: Theme, year: Int) {
        self.model = model
        self.theme = theme
        let config = model.config
        let styleHash = theme.assets["style.css"].map { bytes in
            var hash = ContentHash()
            bytes.withUnsafeBufferPointer { hash.combine(bytes: $0) }
            return String(hash.hex.prefix(10))
        } ?? "0"
        let menu: [[String: any TemplateValue]] = model.menu.map { ["title": $0.title, "url": $0.path] }
        siteContext = [
            "title": config.title, "description": config.description, "author": config.author,
            "baseURL": config.baseURL, "language": config.language,
            "year": String(year), "menu": menu,
            "feeds": Self.feedLinks(prefix: "/"), "styleURL": "/assets/style.css?v=\(styleHash)",
        ]
        // Without an owner there is no creator to name: the tag is left out, not left empty.
        if let creator = config.fediverseCreator, !creator.isEmpty { siteContext["fediverseCreator"] = creator }
        // The post's `p-author h-card`: the author's name (else the blog's title) and avatar.
        siteContext["authorName"] = config.author.isEmpty ? config.title : config.author
        if let avatar = config.profile.avatar, !avatar.isEmpty {
            siteContext["authorPhoto"] = avatar.hasPrefix("http") ? avatar : config.baseURL + (avatar.hasPrefix("/") ? "" : "/") + avatar
        }
        if config.webmention.receive { siteContext["webmention"] = config.baseURL + WebmentionSettings.endpointPath }
        // The follow card: the handle readers type on their server, and a placeholder for no avatar.
        siteContext["follow"] = ["handle": model.account, "initial": DiscussionView.initial(config.title)] as [String: any TemplateValue]
        // Every page's footer offers the newsletter while it is on.
        if config.newsletter.enabled { siteContext["newsletter"] = true }
    }

    static func feedLinks(prefix: String) -> [String: any TemplateValue] {
        ["atom": "\(prefix)feed.xml", "rss": "\(prefix)rss.xml", "json": "\(prefix)feed.json"]
    }

    // MARK: pages

    func post(_ index: Int) throws -> String {
        let post = model.posts[index]
        let rendered = model.rendered.post(index)
        try ImageCheck(model: model, theme: theme).check(rendered, sourcePath: post.sourcePath)
        var full = summary(index)
        full["content"] = model.images.decorate(rendered.html)
        // Absent, not empty, when there is none: an empty string is still "true" in a Mustache section.
        if let toc = TableOfContents.html(rendered.html, setting: post.toc) { full["toc"] = toc }
        full["permalink"] = model.config.absoluteURL(post.path)
        full["tags"] = post.tags.map { ["name": $0, "url": model.tagPath($0)] }
        full["hasTags"] = !post.tags.isEmpty
        if let language = post.language { full["language"] = language }
        var page: [String: any TemplateValue] = [
            "title": post.title, "fullTitle": "\(post.title) – \(model.config.title)",
            "description": description(post: post, rendered: rendered),
            "canonical": model.config.absoluteURL(post.path), "ogType": "article",
            "image": post.image.map(model.absolute), "activityJSON": model.config.absoluteURL(post.path),
            "publishedISO": model.dates.iso8601(post.date),
            "modifiedISO": post.updated.map(model.dates.iso8601),
        ]
        // A draft (seen only in a preview) says so, is never indexed, and offers no reply form,
        // handle or follow card.
        if post.draft { page["noindex"] = true }
        var context = base(page: page)
        if post.draft { context["preview"] = ["label": "Draft"] as [String: any TemplateValue] }
        context["post"] = full
        var discussion = try model.discussionView(index).templateContext()
        // The refresh script only where comments can arrive: posts that federate.
        if model.config.comments.liveRefresh && model.config.federates(post) { discussion["live"] = true }
        context["discussion"] = discussion
        let (newer, older) = model.neighbours(of: index)
        if let newer { context["newer"] = link(newer) }
        if let older { context["older"] = link(older) }
        if let (term, position) = model.series(of: index) {
            var series: [String: any TemplateValue] = ["name": term.name, "url": term.path, "part": position + 1, "count": term.postIndices.count]
            if position > 0 { series["previous"] = link(term.postIndices[position - 1]) }
            if position + 1 < term.postIndices.count { series["next"] = link(term.postIndices[position + 1]) }
            context["series"] = series
        }
        return try theme.render(context, template: "post")
    }

    /// Page `number` of a post's older comments.
    func comments(_ index: Int, page number: Int) throws -> String {
        let post = model.posts[index]
        let view = try model.discussionView(index)
        var context = base(page: [
            "title": "Comments on \(post.title)", "fullTitle": "Comments on \(post.title), page \(number) – \(model.config.title)",
            "description": "Comments on \(post.title), page \(number) of \(view.pageCount)",
            "canonical": model.config.absoluteURL(view.path(ofPage: number)), "ogType": "website",
        ])
        context["post"] = ["title": post.title, "url": post.path]
        context["discussion"] = view.templateContext(page: number)
        return try theme.render(context, template: "comment-page")
    }

    /// A paginated list of posts (home, a category or a tag).
    func list(title: String?, heading: String?, basePath: String, indices: ArraySlice<Int>,
              pageNumber: Int, pageCount: Int, feeds: [String: any TemplateValue]?) throws -> String {
        let path = ListPaging.path(basePath: basePath, page: pageNumber)
        let siteTitle = model.config.title
        let pageTitle = title ?? siteTitle
        var fullTitle = title.map { "\($0) – \(siteTitle)" } ?? siteTitle
        if pageNumber > 1 { fullTitle = "\(pageTitle), page \(pageNumber) – \(siteTitle)" }
        // The home page: the header shows the site's title as its h1.
        let isHome = basePath == "/"
        var context = base(page: [
            "title": pageTitle, "fullTitle": fullTitle,
            "description": title.map { "Posts in \($0) on \(siteTitle)" } ?? model.config.description,
            "canonical": model.config.absoluteURL(path), "ogType": "website", "isHome": isHome,
        ])
        var list: [String: any TemplateValue] = ["posts": indices.map(summary)]
        if isHome && pageNumber == 1 { list["intro"] = true }
        if let heading { list["heading"] = heading }
        if let feeds { list["feeds"] = feeds }
        if pageCount > 1 {
            var pagination: [String: any TemplateValue] = ["current": pageNumber, "total": pageCount]
            if pageNumber > 1 { pagination["newer"] = ListPaging.path(basePath: basePath, page: pageNumber - 1) }
            if pageNumber < pageCount { pagination["older"] = ListPaging.path(basePath: basePath, page: pageNumber + 1) }
            list["pagination"] = pagination
        }
        context["list"] = list
        return try theme.render(context, template: "list")
    }

    func archive() throws -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = model.config.timeZone
        var years: [(Int, [[String: any TemplateValue]])] = []
        for post in model.posts {
            let year = calendar.component(.year, from: post.date)
            let entry = ["title": post.title, "url": post.path, "dateISO": model.dates.iso8601(post.date),
                         "dateShort": Self.shortDate(post.date, calendar: calendar)]
            if years.last?.0 == year { years[years.count - 1].1.append(entry) } else { years.append((year, [entry])) }
        }
        func terms(_ list: [Term]) -> [[String: any TemplateValue]] {
            list.map { ["name": $0.name, "url": $0.path, "count": $0.postIndices.count] }
        }
        var context = base(page: [
            "title": "Archive", "fullTitle": "Archive – \(model.config.title)",
            "description": "Every post on \(model.config.title)", "canonical": model.config.absoluteURL("/archive/"),
            "ogType": "website",
        ])
        context["archive"] = [
            "years": years.map { ["year": String($0.0), "posts": $0.1] as [String: any TemplateValue] },
            "categories": terms(model.categories), "hasCategories": !model.categories.isEmpty,
            "tags": terms(model.tags), "hasTags": !model.tags.isEmpty,
        ] as [String: any TemplateValue]
        return try theme.render(context, template: "archive")
    }

    /// How many of a tag's newest posts the tag index names.
    static let recentPerTag = 3

    /// `/tags/`: every tag with its number of posts and its newest posts, the most used first.
    func tagIndex() throws -> String {
        var context = base(page: [
            "title": "Tags", "fullTitle": "Tags – \(model.config.title)",
            "description": "Every tag on \(model.config.title)", "canonical": model.config.absoluteURL("/tags/"),
            "ogType": "website",
        ])
        let tags = model.tags.sorted { ($1.postIndices.count, $0.name.lowercased()) < ($0.postIndices.count, $1.name.lowercased()) }
        context["tags"] = [
            "list": tags.map { term -> [String: any TemplateValue] in
                let count = term.postIndices.count
                return ["name": term.name, "url": term.path, "count": count, "countLabel": count == 1 ? "1 post" : "\(count) posts",
                        "recent": term.postIndices.prefix(Self.recentPerTag).map { index -> [String: any TemplateValue] in
                            let post = model.posts[index]
                            return ["title": post.title, "url": post.path, "dateISO": model.dates.iso8601(post.date),
                                    "dateHuman": model.dates.human(post.date)]
                        }]
            },
            "hasTags": !tags.isEmpty, "count": tags.count,
        ] as [String: any TemplateValue]
        return try theme.render(context, template: "tags")
    }

    func page(_ index: Int) throws -> String {
        let page = model.pages[index]
        let rendered = model.rendered.page(index)
        try ImageCheck(model: model, theme: theme).check(rendered, sourcePath: page.sourcePath)
        var context = base(page: [
            "title": page.title, "fullTitle": "\(page.title) – \(model.config.title)",
            "description": page.summary ?? HTMLText.truncate(HTMLText.plain(rendered.excerptHTML), limit: 160),
            "canonical": model.config.absoluteURL(page.path), "ogType": "website",
        ])
        context["standalone"] = ["title": page.title, "content": model.images.decorate(rendered.html)]
        return try theme.render(context, template: "page")
    }

    /// The 404 page and the "gone" page (410) for removed posts.
    func status(template: String, title: String) throws -> String {
        let context = base(page: [
            "title": title, "fullTitle": "\(title) – \(model.config.title)", "description": title,
            "canonical": model.config.absoluteURL("/"), "ogType": "website",
        ])
        return try theme.render(context, template: template)
    }

    // MARK: contexts

    func base(page: [String: any TemplateValue]) -> [String: any TemplateValue] {
        ["site": siteContext, "page": page]
    }

    private func link(_ index: Int) -> [String: any TemplateValue] {
        ["title": model.posts[index].title, "url": model.posts[index].path]
    }

    /// What lists show of a post; the post page adds its content.
    func summary(_ index: Int) -> [String: any TemplateValue] {
        let post = model.posts[index]
        let excerpt = model.rendered.excerpt(index)
        var context: [String: any TemplateValue] = [
            "title": post.title, "url": post.path, "dateISO": model.dates.iso8601(post.date),
            "dateHuman": model.dates.human(post.date), "readingMinutes": excerpt.readingMinutes,
            "excerpt": excerpt.html, "hasMore": excerpt.hasMore,
        ]
        if let updated = post.updated {
            context["updatedISO"] = model.dates.iso8601(updated)
            context["updatedHuman"] = model.dates.human(updated)
        }
        if let summary = post.summary { context["summary"] = summary }
        if post.draft { context["draft"] = true }
        if let category = post.category { context["category"] = ["name": category, "url": model.categoryPath(category)] }
        if let image = post.image { context["image"] = image }
        return context
    }

    private func description(post: Post, rendered: RenderedMarkdown) -> String {
        post.summary ?? HTMLText.truncate(HTMLText.plain(rendered.excerptHTML), limit: 160)
    }

    private static func shortDate(_ date: Date, calendar: Calendar) -> String {
        let parts = calendar.dateComponents([.month, .day], from: date)
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        return "\(parts.day!) \(months[parts.month! - 1])"
    }
}

/// Page numbers to paths: page 1 is the list's own path, later pages live under `page/N/`.
enum ListPaging {
    static func path(basePath: String, page: Int) -> String {
        page <= 1 ? basePath : "\(basePath)page/\(page)/"
    }

    static func pageCount(items: Int, perPage: Int) -> Int { max(1, (items + perPage - 1) / perPage) }
}
