import Foundation

/// One post as the writer wrote it: front matter fields plus the Markdown body.
public struct Post: Sendable, Equatable {
    /// Path relative to the site root, e.g. `content/posts/hello.md` (used in error messages).
    public var sourcePath: String
    public var title: String
    public var date: Date
    public var updated: Date?
    public var slug: String
    public var category: String?
    public var tags: [String]
    public var summary: String?
    public var draft: Bool
    public var image: String?
    public var pinned: Bool
    public var markdown: String
    /// Fingerprint of the whole source file, to skip work for unchanged posts.
    public var sourceHash: ContentHash
    /// Site path, `/2025/hello-world/`.
    public var path: String
    /// The file line where the slug (or title it came from) is set, for duplicate-slug errors.
    var slugLine: Int
    /// False when the build reused this post's parsed front matter without reading the file;
    /// the body is then read only if one of its pages is rendered again.
    var bodyIsLoaded = true
    /// Ignored front matter keys, as `file:line: …` (reported when the file is read, not from the cache).
    public var warnings: [String] = []
    /// `id:` the post's ActivityPub id (its first URL), for a file renamed since it was published.
    public var declaredID: String?
    /// `aliases:` old paths that redirect here (Hugo's name).
    public var aliases: [String] = []
    /// `federate: false` keeps the post on the site and off the fediverse.
    public var federate = true
    /// `series:` the name of the series the post belongs to, and its place in it (else by date).
    public var series: String?
    public var seriesOrder: Int?
    /// `toc:` true or false forces a table of contents on or off; nil decides by the headings.
    public var toc: Bool?

    init(sourcePath: String, title: String, date: Date, updated: Date?, slug: String, category: String?,
         tags: [String], summary: String?, draft: Bool, image: String?, pinned: Bool, markdown: String,
         sourceHash: ContentHash, path: String, slugLine: Int) {
        (self.sourcePath, self.title, self.date, self.updated, self.slug) = (sourcePath, title, date, updated, slug)
        (self.category, self.tags, self.summary, self.draft, self.image) = (category, tags, summary, draft, image)
        (self.pinned, self.markdown, self.sourceHash, self.path, self.slugLine) = (pinned, markdown, sourceHash, path, slugLine)
    }

    /// Fingerprint of what lists of posts show without the body (archive, sitemap): a body-only
    /// edit leaves it unchanged, so those pages are not rendered again.
    public var listingFingerprint: ContentHash {
        ContentHash(title, path, String(date.timeIntervalSince1970), String(updated?.timeIntervalSince1970 ?? 0),
                    category ?? "", tags.joined(separator: "\u{1F}"))
    }

    /// The folder of a page bundle (`content/posts/my-post` for `content/posts/my-post/index.md`):
    /// the files beside `index.md` are published next to the post's page.
    public var bundleFolder: String? { ContentLoader.bundleFolder(of: sourcePath) }

    /// The section folder (`notes` for `content/notes/…`); nil for `content/posts/`.
    public var section: String? { ContentLoader.section(of: sourcePath) }

    /// `updated` when set, else `date`.
    public var lastModified: Date { max(updated ?? date, date) }
}

/// A standalone page (`content/pages/about.md` → `/about/`).
public struct Page: Sendable {
    public var sourcePath: String
    public var title: String
    public var slug: String
    public var summary: String?
    public var draft: Bool
    public var markdown: String
    public var sourceHash: ContentHash
    public var path: String
    /// Listed in the site navigation when set; lower comes first.
    public var menuOrder: Int?
    /// Old paths that redirect here (301).
    public var aliases: [String] = []
    public var warnings: [String] = []
}
