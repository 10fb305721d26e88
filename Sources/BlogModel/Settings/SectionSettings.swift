import Foundation

/// `sections:` in `lectern.yml`: how a folder under `content/` other than `posts/` and `pages/`
/// (say `content/notes/`) is published. Every such folder is a section, configured or not: its
/// posts live under `/<folder>/<slug>/`, with list pages and feeds of their own at `/<folder>/`.
///
/// ```yaml
/// sections:
///   notes:
///     title: Notes        # the list page's heading (default: the folder name)
///     home: false         # also on the home page and in the main feeds (default: false)
///     federate: false     # sent to followers as posts are (default: false)
///     menu: 2             # listed in the site navigation, lower first
/// ```
public struct SectionSettings: Sendable, Equatable {
    public var title: String?
    public var home = false
    public var federate = false
    public var menuOrder: Int?
    public init() {}

    /// Folder names a section cannot take: the site's own paths live there.
    package static let reserved: Set<String> = ["posts", "pages", "tags", "categories", "series", "archive", "assets", "search",
                                                "page", "feed.xml", "rss.xml", "feed.json", "sitemap.xml", "robots.txt",
                                                "ap", "inbox", "outbox", "users", "well-known", "nodeinfo", "interact", "metrics",
                                                "subscribe", "unsubscribe"]
}

extension SiteConfig {
    /// The settings of a section folder (defaults when the file does not name it).
    public func section(_ folder: String) -> SectionSettings { sections[folder] ?? SectionSettings() }

    /// Whether a post goes to followers: its own `federate:`, and its section's setting.
    public func federates(_ post: Post) -> Bool {
        post.federate && (post.section.map { section($0).federate } ?? true)
    }

    /// Whether a post is on the home page and in the site's main feeds.
    public func isOnHome(_ post: Post) -> Bool {
        post.section.map { section($0).home } ?? true
    }
}

package extension YAMLFields {
    func sectionSettings() throws -> [String: SectionSettings] {
        guard let block = try nested("sections") else { return [:] }
        var sections: [String: SectionSettings] = [:]
        for name in block.keys {
            guard let fields = try block.nested(name) else { sections[name] = SectionSettings(); continue }
            guard !SectionSettings.reserved.contains(Slug.make(name)) else {
                throw block.error(name, "is a path the site uses itself; name the folder otherwise")
            }
            try fields.rejectUnknown(allowed: ["title", "home", "federate", "menu"])
            var settings = SectionSettings()
            settings.title = try fields.string("title")
            settings.home = try fields.bool("home") ?? false
            settings.federate = try fields.bool("federate") ?? false
            settings.menuOrder = try fields.int("menu")
            sections[name] = settings
        }
        return sections
    }
}
