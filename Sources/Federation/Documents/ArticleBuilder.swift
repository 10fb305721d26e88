import ActivityStreams
import Foundation
import Site
import Store

/// Turns a post (as written) and its record (as federated) into an `Article`.
struct ArticleBuilder {
    let config: SiteConfig
    let urls: FederationURLs

    func article(post: Post, rendered: RenderedMarkdown, record: PostRecord, withContext: Bool = true) -> ArticleDocument {
        var article = ArticleDocument(
            id: record.apID, name: post.title, summary: post.summary.map(HTMLText.escape),
            content: Self.federatedHTML(rendered.html, baseURL: config.baseURL), url: config.absoluteURL(post.path),
            attributedTo: urls.actor, published: ASDate.format(post.date), updated: Self.updated(post: post, record: record).map(ASDate.format),
            to: [AS.publicAddress], cc: [urls.followers],
            tag: post.tags.map { Hashtag(href: config.absoluteURL("/tags/\(Slug.make($0))/"), name: "#\(Self.hashtagName($0))") },
            attachment: post.image.map { [ImageObject(url: urls.absolute($0), mediaType: MediaTypes.image($0), name: post.title)] } ?? [],
            replies: urls.replies(forPostPath: post.path))
        if !withContext { article.context = nil }
        return article
    }

    /// A fingerprint of what followers see of a post: its Article without what the store decides
    /// (id, dates) or what changes without the writer (reaction counts). An edit that leaves it
    /// unchanged (whitespace, a front matter key that is not shown) sends no Update.
    func visibleFingerprint(post: Post, rendered: RenderedMarkdown) -> String {
        let probe = PostRecord(path: post.path, apID: "", title: post.title, contentHash: "", publishedAt: post.date)
        var article = article(post: post, rendered: rendered, record: probe, withContext: false)
        article.published = ""
        article.updated = nil
        article.content = Self.foldingWhitespace(article.content)
        let encoded = (try? ASEncoder.encode(article)).map { String(decoding: $0, as: UTF8.self) } ?? post.sourceHash.hex
        return ContentHash("visible-1", encoded).hex
    }

    /// Runs of white space as one space, except inside `<pre>`: how a reader's browser shows
    /// them, so re-wrapping a paragraph is not a change anyone sees.
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

    /// The later of the front matter's `updated` and the last change the store saw: Mastodon
    /// ignores an Update whose `updated` is not newer than what it has.
    static func updated(post: Post, record: PostRecord) -> Date? {
        switch (post.updated, record.updatedAt) {
        case (let written?, let seen?): return max(written, seen)
        case (let written, let seen): return written ?? seen
        }
    }

    func create(_ article: ArticleDocument) -> CreateActivity {
        var object = article
        object.context = nil
        return CreateActivity(id: article.id + "#create", actor: urls.actor, published: article.published,
                              to: article.to, cc: article.cc, object: object)
    }

    /// Post HTML as other servers should get it: rendered for federation (no heading self-links,
    /// no highlighting spans, which other servers strip), without the more marker, links absolute.
    static func federatedHTML(_ html: String, baseURL: String) -> String {
        HTMLText.absolutizeLinks(html.replacingOccurrences(of: "<!-- more -->\n", with: ""), baseURL: baseURL)
    }

    /// Mastodon hashtags are letters, digits and underscores: "Swift UI" → "SwiftUI".
    static func hashtagName(_ tag: String) -> String {
        String(tag.unicodeScalars.filter { CharacterSet.alphanumerics.contains($0) || $0 == "_" }.map(Character.init))
    }
}
