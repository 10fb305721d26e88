import BlogModel
import Foundation
import Site

/// Small text clean-ups shared by the feed and export readers.
enum FeedText {
    /// A title as text: feeds often put entity-encoded HTML in titles (`Don&#8217;t`, `<em>x</em>`).
    static func title(_ raw: String?) -> String? {
        guard let raw else { return nil }
        let looksLikeHTML = raw.range(of: #"&(#[0-9]+|#x[0-9a-fA-F]+|[a-zA-Z]+);|<[a-zA-Z/]"#, options: .regularExpression) != nil
        let text = looksLikeHTML ? HTMLToMarkdown.plainText(raw) : raw.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        return text.isEmpty ? nil : text
    }

    /// A summary from a feed's description or an excerpt: plain text, or nil when it is only the
    /// start of the post cut off (`[…]`, `...`) or a syndication footer.
    static func summary(_ raw: String?) -> String? {
        guard let raw else { return nil }
        var text = HTMLToMarkdown.plainText(raw)
        if let footer = text.range(of: "The post ", options: .backwards), text[footer.lowerBound...].contains("appeared first on") {
            text = String(text[..<footer.lowerBound]).trimmingCharacters(in: .whitespaces)
        }
        let truncated = ["[…]", "[...]", "[&hellip;]", "…", "...", "Continue reading", "Read more"].contains { text.hasSuffix($0) }
        guard !text.isEmpty, !truncated, text.count <= 500 else { return nil }
        return text
    }

    /// Tags without duplicates (by slug) and without ones Lectern cannot make a URL of.
    static func tags(_ names: [String]) -> [String] {
        var seen = Set<String>()
        return names.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
            .filter { !$0.isEmpty && !Slug.make($0).isEmpty && seen.insert(Slug.make($0)).inserted }
    }

    /// A title for an item that has none (a micro-post): its first words.
    static func fallbackTitle(body: String) -> String {
        let text = HTMLToMarkdown.plainText(body)
        return text.isEmpty ? "Untitled" : HTMLText.truncate(text, limit: 60)
    }
}
