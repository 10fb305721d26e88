import Foundation

/// One post or page read from a source, before it becomes a Lectern file: the neutral model
/// every source reader (RSS, Atom, WordPress, Ghost, Hugo, Jekyll, Zola) produces.
///
/// ```swift
/// var item = ImportedItem(kind: .post, origin: "https://old.example/2019/05/hello/", body: .html("<p>Hi</p>"))
/// item.title = "Hello"
/// item.link = "https://old.example/2019/05/hello/"   // slug "hello", alias /2019/05/hello/
/// ```
public struct ImportedItem: Sendable, PostMetadataCarrier {
    public enum Kind: String, Sendable, Codable {
        case post, page
    }

    public enum Body: Sendable {
        /// HTML, converted to Markdown on import.
        case html(String)
        /// Markdown as a static site generator wrote it (shortcodes still in it).
        case markdown(String)
    }

    /// A file that travels with the post (a page bundle's image).
    public struct Asset: Sendable, Equatable {
        public var source: URL
        /// Path relative to the post, as the Markdown links to it (`diagram.png`, `img/a.png`).
        public var name: String
        /// Why it is not copied (a symbolic link out of the source folder), for the report.
        public var refusal: String?

        public init(source: URL, name: String) {
            self.source = source
            self.name = name
        }
    }

    public var kind: Kind
    /// Where the item came from, for the report: its old URL, guid or file path.
    public var origin: String
    public var title: String?
    public var date: Date?
    public var updated: Date?
    /// The item's old URL (absolute or root-relative); its path gives the slug and an alias.
    public var link: String?
    /// Whether `link` was worked out by a generator's rule (Hugo `[permalinks]`, Eleventy's
    /// default, `--permalink`) rather than stated by the source (front matter `url`, a feed's
    /// `<link>`): only such a guess is dropped when the old site never had it.
    public var linkFromRule = false
    /// A slug the source states (WordPress `post_name`, front matter `slug`): used when the link
    /// gives none.
    public var slug: String?
    /// Category, tags, summary, image, draft, pinned, and the old URLs the source already
    /// redirects (Hugo `aliases`, Jekyll `redirect_from`).
    public var metadata = PostMetadata()
    /// The series the source names (Hugo's `series`, a string or a list: the first); when nil,
    /// titles like "… Part 2" may still make one.
    public var series: String?
    public var body: Body
    /// The line of its source file the body starts on (after the front matter), for warnings.
    public var bodyLine = 1
    /// The source file relative to the source folder (static site generators), for resolving
    /// cross references such as `{{< ref "x.md" >}}` and `{% post_url %}`.
    public var sourceFile: String?
    public var assets: [Asset] = []
    /// Files from the old site's static folder the post links to by root-relative path
    /// (`/images/x.png`): copied to the same path under the new site's `static/`.
    public var staticFiles: [Asset] = []
    /// References in the body to files the source ships, as written → the path the new site
    /// serves the copy at (`../img/x.png` → `/img/x.png`).
    public var fileRewrites: [String: String] = [:]
    /// Things the reader noticed that the writer should look at.
    public var warnings: [String] = []
    /// Set when the reader already knows this item is not imported (an attachment, a trashed post).
    public var skipReason: String?
    /// Medium appends an id to slugs (`title-words-3f2a1b`): drop it from the new slug.
    public var linkHasMediumID = false

    public init(kind: Kind, origin: String, body: Body) {
        self.kind = kind
        self.origin = origin
        self.body = body
    }
}

/// What a source reader returns: its items and what it noticed about the source as a whole.
struct SourceContent {
    var kind: SourceKind
    var items: [ImportedItem]
    /// The old site's address, for making relative image sources absolute.
    var baseURL: String?
    var warnings: [String] = []
    /// Files the old site served as they were, outside any post (a standalone page with its
    /// scripts): copied to the same path under `static/`.
    var files: [ImportedItem.Asset] = []
}
