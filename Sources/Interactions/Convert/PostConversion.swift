import ActivityPub
import ActivityStreams
import BlogModel
import Foundation
import HTMLMarkup
import Storage

/// A post as other servers get it: an `Article` (FEP-b2b8: title, plain-text summary, link, full
/// text, a `preview`) or a `Note` (title, summary and link as a short post, with its images),
/// whichever the post was first federated as. It encodes as the document itself.
enum FederatedPost: ActivityObject {
    case article(ArticleDocument)
    case note(NoteDocument)

    var objectID: String? { id }
    var id: String {
        switch self {
        case .article(let article): return article.id
        case .note(let note): return note.id
        }
    }
    var published: String {
        switch self {
        case .article(let article): return article.published
        case .note(let note): return note.published
        }
    }

    /// For embedding in an activity or a collection: no `@context` of its own.
    var embedded: FederatedPost {
        switch self {
        case .article(var article): article.context = nil; return .article(article)
        case .note(var note): note.context = nil; return .note(note)
        }
    }

    func encode(to encoder: any Encoder) throws {
        switch self {
        case .article(let article): try article.encode(to: encoder)
        case .note(let note): try note.encode(to: encoder)
        }
    }
}

/// Posts (as written, as recorded) → the documents other servers get, in one place (GoToSocial's
/// `typeutils`): the Article or Note, its Create, and the fingerprint of what followers see.
struct PostConversion {
    let config: SiteConfig
    let urls: FederationURLs
    /// At most this many images go with a post (Mastodon shows four).
    static let maximumImages = 4

    /// The post as it federates; `reactions` fill the like and share counts.
    func document(post: Post, rendered: FederatedBody, record: PostRecord, likes: Int = 0, shares: Int = 0) -> FederatedPost {
        record.apType == "Note" ? .note(note(post: post, rendered: rendered, record: record, likes: likes, shares: shares))
                                : .article(article(post: post, rendered: rendered, record: record, likes: likes, shares: shares))
    }

    /// The Article as it federates: `canonicalArticle` with its title, summary and text under
    /// the post's language (`shownByRealServers`).
    func article(post: Post, rendered: FederatedBody, record: PostRecord, likes: Int = 0, shares: Int = 0) -> ArticleDocument {
        let article = canonicalArticle(post: post, rendered: rendered, record: record, likes: likes, shares: shares)
        return Self.shownByRealServers(article, language: language(of: post))
    }

    /// The post's language: its `lang:`, else the site's.
    func language(of post: Post) -> String? {
        let language = post.language ?? config.language
        return language.isEmpty ? nil : language
    }

    /// FEP-b2b8's Article: `name` the title, `summary` the plain-text summary, `content` the text.
    /// What followers see is fingerprinted from this form, so a change of how it is dressed for
    /// other servers sends no Update.
    func canonicalArticle(post: Post, rendered: FederatedBody, record: PostRecord, likes: Int = 0, shares: Int = 0) -> ArticleDocument {
        let url = config.absoluteURL(post.path)
        let summary = plainSummary(post: post, rendered: rendered)
        var article = ArticleDocument(
            id: record.apID, name: post.title, summary: summary,
            content: Self.federatedHTML(rendered.html, baseURL: config.baseURL), url: url,
            attributedTo: urls.actor, published: ASDate.format(post.date),
            updated: Self.updated(post: post, record: record).map(ASDate.format),
            to: [AS.publicAddress], cc: [urls.followers], tag: hashtags(post),
            attachment: images(post: post, rendered: rendered), replies: urls.replies(forPostPath: post.path))
        article.likes = CountCollection(id: urls.likes(forPostPath: post.path), totalItems: likes)
        article.shares = CountCollection(id: urls.shares(forPostPath: post.path), totalItems: shares)
        article.image = post.image.map { ImageObject(url: urls.absolute($0), mediaType: MediaTypes.image($0), name: post.title) }
        article.threadContext = urls.context(forPostPath: post.path)
        article.interactionPolicy = interactionPolicy
        var preview = NoteDocument(id: record.apID + "#preview", attributedTo: urls.actor, published: article.published,
                                   to: [AS.publicAddress], cc: [urls.followers], content: teaser(post: post, summary: summary, url: url))
        preview.url = url
        article.preview = preview
        return article
    }

    /// The title, summary and text as the servers people read on show them, read from their
    /// code and measured on a real GoToSocial (docs/activitypub.md):
    /// - GoToSocial makes a plain `summary` — else a plain `name` — the status's content warning,
    ///   and shows `content`; Misskey makes a plain `summary` the content warning too.
    /// - Mastodon shows an Article as its title (`name`, else `nameMap`), its summary (`summary`,
    ///   else `summaryMap`) and its link, and takes the language from `contentMap`.
    /// So title and summary go under the language only (`nameMap`, `summaryMap`: the same values
    /// in JSON-LD), which Mastodon reads and the others do not take for a warning, and `content`
    /// opens with the linked title, so every server shows the title, then the text, behind no
    /// warning the writer did not ask for. `contentMap` repeats `content`: GoToSocial takes the
    /// language only from a `contentMap` entry equal to `content`.
    static func shownByRealServers(_ article: ArticleDocument, language: String?) -> ArticleDocument {
        guard let language, let title = article.name else { return article }
        var article = article
        article.name = nil
        article.nameMap = [language: title]
        if let summary = article.summary {
            article.summary = nil
            article.summaryMap = [language: summary]
        }
        let link = HTMLText.escape(article.url)
        article.content = "<p><strong><a href=\"\(link)\">\(HTMLText.escape(title))</a></strong></p>" + article.content
        article.contentMap = [language: article.content]
        if let content = article.preview?.content { article.preview?.contentMap = [language: content] }
        return article
    }

    /// The post as a short Note: its title, summary and link, hashtags, and up to four images.
    func note(post: Post, rendered: FederatedBody, record: PostRecord, likes: Int = 0, shares: Int = 0) -> NoteDocument {
        let url = config.absoluteURL(post.path)
        let tags = hashtags(post)
        var content = teaser(post: post, summary: plainSummary(post: post, rendered: rendered), url: url)
        if !tags.isEmpty {
            content += "<p>" + tags.map { tag in
                "<a href=\"\(HTMLText.escape(tag.href))\" class=\"mention hashtag\" rel=\"tag\">#<span>\(HTMLText.escape(String(tag.name.dropFirst())))</span></a>"
            }.joined(separator: " ") + "</p>"
        }
        var note = NoteDocument(id: record.apID, attributedTo: urls.actor, published: ASDate.format(post.date),
                                to: [AS.publicAddress], cc: [urls.followers], content: content)
        note.context = AS.objectContext
        note.updated = Self.updated(post: post, record: record).map(ASDate.format)
        note.url = url
        note.tag = tags.map { NoteDocument.Tag(type: "Hashtag", href: $0.href, name: $0.name) }
        note.attachment = images(post: post, rendered: rendered)
        note.contentMap = language(of: post).map { [$0: content] }
        note.replies = urls.replies(forPostPath: post.path)
        note.contextCollection = urls.context(forPostPath: post.path)
        note.likes = CountCollection(id: urls.likes(forPostPath: post.path), totalItems: likes)
        note.shares = CountCollection(id: urls.shares(forPostPath: post.path), totalItems: shares)
        note.interactionPolicy = interactionPolicy
        return note
    }

    func create(_ post: FederatedPost) -> Activity<FederatedPost> {
        var create = Activity(id: post.id + "#create", type: .create, actor: urls.actor, published: post.published,
                              to: [AS.publicAddress], cc: [urls.followers], object: post.embedded)
        create.context = nil
        return create
    }

    /// A fingerprint of what followers see of a post: its Article without what the store decides
    /// (id, dates) or what changes without the writer (counts), white space folded. An edit that
    /// leaves it unchanged (re-wrapping a paragraph, a front matter key that is not shown) sends
    /// no Update. The same for posts federated as Notes: they show a part of the same.
    func visibleFingerprint(post: Post, rendered: FederatedBody) -> String {
        let probe = PostRecord(path: post.path, apID: "", title: post.title, contentHash: "", publishedAt: post.date)
        var article = canonicalArticle(post: post, rendered: rendered, record: probe)
        article.context = nil
        article.published = ""
        article.updated = nil
        article.preview = nil
        article.content = Self.foldingWhitespace(article.content)
        var encoded = (try? ASEncoder.encode(article)).map { String(decoding: $0, as: UTF8.self) } ?? post.sourceHash.hex
        // The blog's own address is not the writer's edit: a new `baseURL` (a local site going
        // live) changes every link and id, and must not count each post as updated.
        encoded = encoded.replacingOccurrences(of: config.baseURL + "/", with: "/")
        return ContentHash(Self.fingerprintVersion, encoded).hex
    }

    /// Changed whenever what `visibleFingerprint` shows of a post changes, so that every stored
    /// fingerprint is made again (`fingerprintSettings`). Fingerprints stored by the version
    /// before (`legacyFingerprintVersion`) are restated without an Update (`CurrentPost`).
    static let fingerprintVersion = "visible-3"
    static let legacyFingerprintVersion = "visible-2"

    /// The settings a post's fingerprint depends on besides its source and path: stored with
    /// each fingerprint (`PostRecord.fingerprintSource`), so that a change of them makes every
    /// fingerprint again and nothing else does.
    var fingerprintSettings: String { fingerprintSettings(version: Self.fingerprintVersion) }

    /// What `fingerprintSettings` was under the previous way of computing fingerprints.
    var legacyFingerprintSettings: String { fingerprintSettings(version: Self.legacyFingerprintVersion) }

    private func fingerprintSettings(version: String) -> String {
        ContentHash(version, config.baseURL, config.language, urls.actor, urls.followers,
                    String(describing: config.federation.quotePolicy), config.federation.postsAs).hex
    }

    // MARK: parts

    /// The post's own summary, else its excerpt, as plain text (FEP-b2b8; Mastodon shows it as text).
    func plainSummary(post: Post, rendered: FederatedBody) -> String? {
        let text = post.summary.map { HTMLText.plain(HTMLText.escape($0)) } ?? HTMLText.plain(rendered.excerptHTML)
        let summary = HTMLText.truncate(text, limit: 500)
        return summary.isEmpty ? nil : summary
    }

    /// Title (linked), summary, link: what a timeline shows.
    func teaser(post: Post, summary: String?, url: String) -> String {
        let link = HTMLText.escape(url)
        var html = "<p><strong><a href=\"\(link)\">\(HTMLText.escape(post.title))</a></strong></p>"
        if let summary { html += "<p>\(HTMLText.escape(summary))</p>" }
        return html + "<p><a href=\"\(link)\">\(link)</a></p>"
    }

    func hashtags(_ post: Post) -> [Hashtag] {
        post.tags.map { Hashtag(href: config.absoluteURL("/tags/\(Slug.make($0))/"), name: "#\(Self.hashtagName($0))") }
    }

    /// The front matter `image`, then the images in the text, at most four, with their alt text.
    func images(post: Post, rendered: FederatedBody) -> [ImageObject] {
        var images: [ImageObject] = []
        var seen = Set<String>()
        if let image = post.image { images.append(ImageObject(url: urls.absolute(image), mediaType: MediaTypes.image(image), name: post.title)) }
        for (src, alt) in Self.imageTags(rendered.html) where images.count < Self.maximumImages {
            let url = urls.absolute(src)
            guard url.hasPrefix("https://") || url.hasPrefix("http://"), seen.insert(url).inserted, !images.contains(where: { $0.url == url }) else { continue }
            images.append(ImageObject(url: url, mediaType: MediaTypes.image(src), name: alt.isEmpty ? nil : alt))
        }
        return Array(images.prefix(Self.maximumImages))
    }

    /// `src` and `alt` of each `<img>` in rendered Markdown (which writes `src` before `alt`).
    static func imageTags(_ html: String) -> [(src: String, alt: String)] {
        var found: [(String, String)] = []
        var rest = Substring(html)
        while let start = rest.range(of: "<img ") {
            let tagEnd = rest[start.upperBound...].firstIndex(of: ">") ?? rest.endIndex
            let tag = rest[start.upperBound..<tagEnd]
            func attribute(_ name: String) -> String? {
                guard let open = tag.range(of: " \(name)=\"") ?? (tag.hasPrefix("\(name)=\"") ? tag.range(of: "\(name)=\"") : nil),
                      let close = tag[open.upperBound...].firstIndex(of: "\"") else { return nil }
                return HTMLEntities.decode(tag[open.upperBound..<close])
            }
            if let src = attribute("src") { found.append((src, attribute("alt") ?? "")) }
            rest = rest[tagEnd...]
        }
        return found
    }

    var interactionPolicy: InteractionPolicy {
        InteractionPolicy(canQuote: urls.approvalRule(config.federation.quotePolicy))
    }

    /// The later of the front matter's `updated` and the last change the store saw: Mastodon
    /// ignores an Update whose `updated` is not newer than what it has.
    static func updated(post: Post, record: PostRecord) -> Date? {
        switch (post.updated, record.updatedAt) {
        case (let written?, let seen?): return max(written, seen)
        case (let written, let seen): return written ?? seen
        }
    }

    /// Post HTML as other servers should get it: rendered for federation (no heading self-links,
    /// no highlighting spans, which other servers strip), without the more marker, links absolute.
    static func federatedHTML(_ html: String, baseURL: String) -> String {
        HTMLText.absolutizeLinks(html.replacingOccurrences(of: "<!-- more -->\n", with: ""), baseURL: baseURL)
    }

    /// Runs of white space as one space, except inside `<pre>`: how a reader's browser shows them.
    static func foldingWhitespace(_ html: String) -> String {
        var output = ""
        output.reserveCapacity(html.utf8.count)
        var rest = Substring(html)
        while !rest.isEmpty {
            let pre = rest.range(of: "<pre")
            let text = rest[..<(pre?.lowerBound ?? rest.endIndex)]
            output += text.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "\r" }).joined(separator: " ")
            guard let pre else { break }
            let end = rest[pre.lowerBound...].range(of: "</pre>")?.upperBound ?? rest.endIndex
            output += rest[pre.lowerBound..<end]
            rest = rest[end...]
        }
        return output
    }

    /// Mastodon hashtags are letters, digits and underscores: "Swift UI" → "SwiftUI".
    static func hashtagName(_ tag: String) -> String {
        String(tag.unicodeScalars.filter { CharacterSet.alphanumerics.contains($0) || $0 == "_" }.map(Character.init))
    }
}
