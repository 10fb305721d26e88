import Foundation

/// What an import did (or, with `dryRun`, would do): one entry per item of the source, with the
/// file and URL it became, its aliases, or why it was skipped, and what to look at.
/// Encodes to the JSON documented in `docs/import.md` (`lectern import --json`).
///
/// ```swift
/// let report = try await Importer(options: options).run(source: "export.xml")
/// print(report.text)                       // the human-readable summary
/// let json = try report.jsonData()         // the same as JSON
/// let newPosts = report.writtenPosts       // content/posts/… files created
/// ```
public struct ImportReport: Codable, Sendable, Equatable {
    /// Version of the JSON layout.
    public var schema = 1
    /// The SOURCE argument.
    public var source: String
    /// `rss`, `atom`, `wordpress`, `ghost`, `hugo`, `jekyll`, `zola` or `eleventy`.
    public var kind: SourceKind
    public var dryRun: Bool
    public var items: [Item] = []
    /// Warnings about the source as a whole.
    public var warnings: [String] = []
    /// Files the old site served as they were, outside any post (a standalone page and its
    /// scripts, a Jekyll folder without front matter): copied to the same path under `static/`.
    public var copied: [Image] = []
    /// The old site's URLs, when its built output or sitemap was read (`--old-site`).
    public var oldSite: OldSiteSummary?
    /// Why nothing was written: the site would not build with the imported files (the build's
    /// error, naming each file and line). A dry run reports it too.
    public var failure: String?

    public enum Outcome: String, Codable, Sendable {
        /// A post file was (or would be) written.
        case post
        /// A page file was (or would be) written.
        case page
        case skipped
    }

    public struct Item: Codable, Sendable, Equatable {
        /// The item's old URL, guid or source file.
        public var origin: String
        public var title: String
        public var outcome: Outcome
        /// The file written, relative to the site folder (`content/posts/2019-05-14-my-post.md`).
        public var file: String?
        /// Its URL on the new site (`/2019/my-post/`).
        public var url: String?
        /// Old paths that should redirect to `url`.
        public var aliases: [String] = []
        /// The URL the item had on the old site (as the source or its generator's rule states
        /// it, or as the old site's output shows it); nil when unknown.
        public var oldURL: String?
        public var draft = false
        /// Why the item was skipped.
        public var reason: String?
        /// Images downloaded or copied next to the post.
        public var images: [Image] = []
        /// Things to look at: shortcodes left as text, images that could not be fetched, …
        public var warnings: [String] = []
        /// What the conversion removed on purpose (tracking images, syndication footers).
        public var removed: [String] = []
    }

    public struct OldSiteSummary: Codable, Sendable, Equatable {
        /// The folder or sitemap read.
        public var source: String
        /// URLs it lists.
        public var urls: Int
        /// Items that found their old URL in it.
        public var matched: Int
        /// Its URLs of posts and pages that no item took (lists, tags and feeds left out).
        public var unmatched: [String]
    }

    public struct Image: Codable, Sendable, Equatable {
        /// The source as the post referred to it.
        public var from: String
        /// The file written, relative to the site folder; nil when it failed.
        public var file: String?
        /// What the post links to now.
        public var url: String?
        public var error: String?
    }

    /// Post files created (nothing when `dryRun`): what the CLI records as published without
    /// announcing.
    public var writtenPosts: [String] {
        dryRun || failure != nil ? [] : items.filter { $0.outcome == .post }.compactMap(\.file)
    }

    public var counts: (posts: Int, pages: Int, skipped: Int) {
        (items.filter { $0.outcome == .post }.count, items.filter { $0.outcome == .page }.count,
         items.filter { $0.outcome == .skipped }.count)
    }

    public func jsonData() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }

    /// One line per item, then the warnings and a summary.
    public var text: String {
        var lines: [String] = []
        for item in items {
            switch item.outcome {
            case .post, .page:
                var line = "\(item.outcome == .post ? "post" : "page")  \(item.file ?? "?")  \(item.url ?? "")"
                if item.draft { line += "  (draft)" }
                if let old = item.oldURL { line += "  was " + old }
                let more = item.aliases.filter { $0 != item.oldURL }
                if !more.isEmpty { line += "  aliases: " + more.joined(separator: ", ") }
                lines.append(line)
            case .skipped:
                lines.append("skip  \(item.origin)  \(item.reason ?? "")")
            }
            for image in item.images {
                if let error = image.error {
                    lines.append("      image \(image.from): \(error)")
                } else {
                    lines.append("      image \(image.from) → \(image.file ?? "")")
                }
            }
            for warning in item.warnings { lines.append("      warning: \(warning)") }
        }
        for file in copied {
            lines.append(file.error.map { "copy  \(file.from): \($0)" } ?? "copy  \(file.from) → \(file.file ?? "")")
        }
        for warning in warnings { lines.append("warning: \(warning)") }
        if let old = oldSite {
            lines.append("old site \(old.source): \(old.urls) URLs, \(old.matched) matched to imported items")
            for path in old.unmatched.prefix(20) { lines.append("  no item for old URL \(path)") }
            if old.unmatched.count > 20 { lines.append("  … and \(old.unmatched.count - 20) more (--json lists them all)") }
        }
        let counts = counts
        if let failure {
            lines.append("error: with these files the site would not build, so nothing was written:")
            lines.append(contentsOf: failure.split(separator: "\n").map { "  " + $0 })
        }
        let verb = failure != nil ? "would have imported" : dryRun ? "would import" : "imported"
        lines.append("\(verb) \(counts.posts) posts and \(counts.pages) pages from \(kind.rawValue) \(source); "
                     + "\(counts.skipped) skipped, \(items.reduce(0) { $0 + $1.warnings.count } + warnings.count) warnings"
                     + (dryRun ? " (dry run: nothing written)" : failure != nil ? " (nothing written)" : ""))
        return lines.joined(separator: "\n") + "\n"
    }
}

/// The kinds of SOURCE `lectern import` reads.
///
/// ```swift
/// if report.kind == .wordpress { print("from WordPress") }
/// ```
public enum SourceKind: String, Codable, Sendable, CaseIterable {
    case rss, atom, wordpress, ghost, hugo, jekyll, zola, eleventy
}
