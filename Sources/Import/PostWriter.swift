import BlogModel
import Foundation
import Site

/// Writes the text of an imported post or page: YAML front matter that Lectern's content
/// loader reads back exactly (every value quoted as it needs), a blank line, the Markdown.
/// Posts are named `YYYY-MM-DD-slug.md` (the date in the site's time zone).
///
/// ```swift
/// let writer = PostWriter(timeZone: TimeZone(identifier: "UTC")!)
/// let text = writer.post(PostWriter.Fields(title: "Hello: world", date: Date(), slug: "hello"), body: "Hi.\n")
/// // ---\ntitle: "Hello: world"\ndate: 2025-06-01T09:30:00+00:00\nslug: hello\n---\n\nHi.\n
/// ```
public struct PostWriter: Sendable {
    /// The front matter of one file.
    public struct Fields: Sendable, Equatable, PostMetadataCarrier {
        public var title: String
        public var date: Date?
        public var updated: Date?
        public var slug: String
        /// Category, tags, summary, image, draft, pinned, aliases.
        public var metadata = PostMetadata()
        /// The series the post is part of, and its number in it.
        public var series: String?
        public var seriesOrder: Int?

        public init(title: String, date: Date? = nil, slug: String) {
            self.title = title
            self.date = date
            self.slug = slug
        }
    }

    public let timeZone: TimeZone
    private let stamp: DateFormatter
    private let day: DateFormatter

    public init(timeZone: TimeZone) {
        self.timeZone = timeZone
        stamp = DateFormatter()
        stamp.locale = Locale(identifier: "en_US_POSIX")
        stamp.timeZone = timeZone
        stamp.dateFormat = "yyyy-MM-dd'T'HH:mm:ssxxx"
        day = DateFormatter()
        day.locale = Locale(identifier: "en_US_POSIX")
        day.timeZone = timeZone
        day.dateFormat = "yyyy-MM-dd"
    }

    /// A post: every field Lectern knows, in the order `lectern new` writes them.
    public func post(_ fields: Fields, body: String) -> String {
        var lines = ["title: " + YAMLScalar.string(fields.title)]
        if let date = fields.date { lines.append("date: " + stamp.string(from: date)) }
        if let updated = fields.updated { lines.append("updated: " + stamp.string(from: updated)) }
        lines += common(fields)
        if let series = fields.series {
            lines.append("series: " + YAMLScalar.string(series))
            if let order = fields.seriesOrder { lines.append("seriesOrder: \(order)") }
        }
        return document(lines, body: body)
    }

    /// A standalone page: only the keys pages have (no dates or taxonomies).
    public func page(_ fields: Fields, body: String) -> String {
        var page = fields
        page.category = nil
        page.tags = []
        page.image = nil
        page.pinned = false
        page.series = nil
        return document(["title: " + YAMLScalar.string(fields.title)] + common(page), body: body)
    }

    private func common(_ fields: Fields) -> [String] {
        var lines = ["slug: " + YAMLScalar.string(fields.slug)]
        if let category = fields.category { lines.append("category: " + YAMLScalar.string(category)) }
        if !fields.tags.isEmpty { lines.append("tags: " + YAMLScalar.list(fields.tags)) }
        if let summary = fields.summary, !summary.isEmpty { lines.append("summary: " + YAMLScalar.string(summary)) }
        if let image = fields.image { lines.append("image: " + YAMLScalar.string(image)) }
        if fields.draft { lines.append("draft: true") }
        if fields.pinned { lines.append("pinned: true") }
        if !fields.aliases.isEmpty { lines.append("aliases: " + YAMLScalar.list(fields.aliases)) }
        return lines
    }

    private func document(_ lines: [String], body: String) -> String {
        let trimmed = body.trimmingCharacters(in: .newlines)
        return "---\n" + lines.joined(separator: "\n") + "\n---\n\n" + trimmed + (trimmed.isEmpty ? "" : "\n")
    }

    /// `2019-05-14-my-post.md`
    public func postFileName(date: Date, slug: String) -> String { "\(day.string(from: date))-\(slug).md" }

    /// The year of `date` in the site's time zone (the `/YYYY/` of post URLs).
    public func year(of date: Date) -> Int {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        return calendar.component(.year, from: date)
    }
}
