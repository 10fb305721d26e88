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
    /// `rss`, `atom`, `wordpress`, `ghost`, `hugo`, `jekyll` or `zola`.
    public var kind: SourceKind
    public var dryRun: Bool
    public var items: [Item] = []
    /// Warnings about the source as a whole.
    public var warnings: [String] = []
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
                if !item.aliases.isEmpty { line += "  aliases: " + item.aliases.joined(separator: ", ") }
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
        for warning in warnings { lines.append("warning: \(warning)") }
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
    case rss, atom, wordpress, ghost, hugo, jekyll, zola
}
