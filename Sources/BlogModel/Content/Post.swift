import Foundation

/// One post as the writer wrote it: front matter fields plus the Markdown body.
///
/// A value with its fields behind one reference, copied on write: a build copies every post
/// several times over (the parse cache, the loader's lists, filters, sorts, per-tag lists), and
/// copying thirteen strings and arrays field by field retained and released each one, 3 ms of
/// a one-post rebuild of 1,000 posts (`perf`: value-witness copies and destroys of `Post`). The
/// fields sit behind a pointer, so reading one costs no exclusivity check.
public struct Post: Sendable, Equatable {
    /// The stored fields, documented at their accessors below.
    struct Fields: Sendable, Equatable {
        var sourcePath: String {
            didSet { (section, bundleFolder) = Self.folders(of: sourcePath) }
        }
        /// Derived from `sourcePath` once: list pages and the plan ask for them for every post,
        /// several times a build (0.7 ms of a one-post rebuild split paths again each time).
        private(set) var section: String?
        private(set) var bundleFolder: String?
        var title: String
        var date: Date
        var updated: Date?
        var slug: String
        var category: String?
        var tags: [String]
        var summary: String?
        var draft: Bool
        var image: String?
        var pinned: Bool
        var markdown: String
        var sourceHash: ContentHash
        var path: String
        var slugLine: Int
        var bodyIsLoaded = true
        var warnings: [String] = []
        var declaredID: String?
        var aliases: [String] = []
        var federate = true
        var series: String?
        var seriesOrder: Int?
        var toc: Bool?
        var language: String?

        init(sourcePath: String, title: String, date: Date, updated: Date?, slug: String, category: String?,
             tags: [String], summary: String?, draft: Bool, image: String?, pinned: Bool, markdown: String,
             sourceHash: ContentHash, path: String, slugLine: Int) {
            (self.sourcePath, self.title, self.date, self.updated, self.slug) = (sourcePath, title, date, updated, slug)
            (self.category, self.tags, self.summary, self.draft, self.image) = (category, tags, summary, draft, image)
            (self.pinned, self.markdown, self.sourceHash, self.path, self.slugLine) = (pinned, markdown, sourceHash, path, slugLine)
            (section, bundleFolder) = Self.folders(of: sourcePath)
        }

        private static func folders(of sourcePath: String) -> (String?, String?) {
            (ContentPaths.section(of: sourcePath), ContentPaths.bundleFolder(of: sourcePath))
        }
    }

    /// Owns the fields; changed only while a single `Post` holds it.
    private final class Storage: @unchecked Sendable {
        let fields: UnsafeMutablePointer<Fields>
        init(_ fields: Fields) {
            self.fields = .allocate(capacity: 1)
            self.fields.initialize(to: fields)
        }
        deinit {
            fields.deinitialize(count: 1)
            fields.deallocate()
        }
    }

    private var storage: Storage

    private var fields: UnsafeMutablePointer<Fields> { storage.fields }

    /// The fields to change, made this post's own first if another copy shares them.
    private mutating func edit() -> UnsafeMutablePointer<Fields> {
        if !isKnownUniquelyReferenced(&storage) { storage = Storage(storage.fields.pointee) }
        return storage.fields
    }

    public static func == (a: Post, b: Post) -> Bool { a.storage === b.storage || a.fields.pointee == b.fields.pointee }

    /// Path relative to the site root, e.g. `content/posts/hello.md` (used in error messages).
    public var sourcePath: String { get { fields.pointee.sourcePath } set { edit().pointee.sourcePath = newValue } }
    public var title: String { get { fields.pointee.title } set { edit().pointee.title = newValue } }
    public var date: Date { get { fields.pointee.date } set { edit().pointee.date = newValue } }
    public var updated: Date? { get { fields.pointee.updated } set { edit().pointee.updated = newValue } }
    public var slug: String { get { fields.pointee.slug } set { edit().pointee.slug = newValue } }
    public var category: String? { get { fields.pointee.category } set { edit().pointee.category = newValue } }
    public var tags: [String] { get { fields.pointee.tags } set { edit().pointee.tags = newValue } }
    public var summary: String? { get { fields.pointee.summary } set { edit().pointee.summary = newValue } }
    public var draft: Bool { get { fields.pointee.draft } set { edit().pointee.draft = newValue } }
    public var image: String? { get { fields.pointee.image } set { edit().pointee.image = newValue } }
    public var pinned: Bool { get { fields.pointee.pinned } set { edit().pointee.pinned = newValue } }
    public var markdown: String { get { fields.pointee.markdown } set { edit().pointee.markdown = newValue } }
    /// Fingerprint of the whole source file, to skip work for unchanged posts.
    public var sourceHash: ContentHash { get { fields.pointee.sourceHash } set { edit().pointee.sourceHash = newValue } }
    /// Site path, `/2025/hello-world/`.
    public var path: String { get { fields.pointee.path } set { edit().pointee.path = newValue } }
    /// The file line where the slug (or title it came from) is set, for duplicate-slug errors.
    package var slugLine: Int { get { fields.pointee.slugLine } set { edit().pointee.slugLine = newValue } }
    /// False when the build reused this post's parsed front matter without reading the file;
    /// the body is then read only if one of its pages is rendered again.
    package var bodyIsLoaded: Bool { get { fields.pointee.bodyIsLoaded } set { edit().pointee.bodyIsLoaded = newValue } }
    /// Ignored front matter keys, as `file:line: …` (reported when the file is read, not from the cache).
    public var warnings: [String] { get { fields.pointee.warnings } set { edit().pointee.warnings = newValue } }
    /// `id:` the post's ActivityPub id (its first URL), for a file renamed since it was published.
    public var declaredID: String? { get { fields.pointee.declaredID } set { edit().pointee.declaredID = newValue } }
    /// `aliases:` old paths that redirect here (Hugo's name).
    public var aliases: [String] { get { fields.pointee.aliases } set { edit().pointee.aliases = newValue } }
    /// `federate: false` keeps the post on the site and off the fediverse.
    public var federate: Bool { get { fields.pointee.federate } set { edit().pointee.federate = newValue } }
    /// `series:` the name of the series the post belongs to, and its place in it (else by date).
    public var series: String? { get { fields.pointee.series } set { edit().pointee.series = newValue } }
    public var seriesOrder: Int? { get { fields.pointee.seriesOrder } set { edit().pointee.seriesOrder = newValue } }
    /// `toc:` true or false forces a table of contents on or off; nil decides by the headings.
    public var toc: Bool? { get { fields.pointee.toc } set { edit().pointee.toc = newValue } }
    /// `lang:` (a BCP 47 tag such as `de` or `pt-BR`) when the post is not in the site's language.
    public var language: String? { get { fields.pointee.language } set { edit().pointee.language = newValue } }

    package init(sourcePath: String, title: String, date: Date, updated: Date?, slug: String, category: String?,
         tags: [String], summary: String?, draft: Bool, image: String?, pinned: Bool, markdown: String,
         sourceHash: ContentHash, path: String, slugLine: Int) {
        storage = Storage(Fields(sourcePath: sourcePath, title: title, date: date, updated: updated, slug: slug,
                                 category: category, tags: tags, summary: summary, draft: draft, image: image, pinned: pinned,
                                 markdown: markdown, sourceHash: sourceHash, path: path, slugLine: slugLine))
    }

    /// Fingerprint of what lists of posts show without the body (archive, sitemap): a body-only
    /// edit leaves it unchanged, so those pages are not rendered again.
    public var listingFingerprint: ContentHash {
        var hash = ContentHash(title, path)
        hash.combine(date.timeIntervalSince1970)
        hash.combine(updated?.timeIntervalSince1970 ?? 0)
        hash.combine(category ?? "")
        hash.combine(tags, separator: 0x1F)
        return hash
    }

    /// The folder of a page bundle (`content/posts/my-post` for `content/posts/my-post/index.md`):
    /// the files beside `index.md` are published next to the post's page.
    public var bundleFolder: String? { fields.pointee.bundleFolder }

    /// The section folder (`notes` for `content/notes/…`); nil for `content/posts/`.
    public var section: String? { fields.pointee.section }

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

    public init(sourcePath: String, title: String, slug: String, summary: String?, draft: Bool, markdown: String,
                sourceHash: ContentHash, path: String, menuOrder: Int?) {
        (self.sourcePath, self.title, self.slug, self.summary, self.draft) = (sourcePath, title, slug, summary, draft)
        (self.markdown, self.sourceHash, self.path, self.menuOrder) = (markdown, sourceHash, path, menuOrder)
    }
}
