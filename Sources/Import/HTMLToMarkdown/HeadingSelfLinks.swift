import HTMLMarkup

/// Removes the links that blog generators put inside headings to point at the heading itself
/// (markdown-it-anchor's `<a class="header-anchor" aria-hidden="true" href="#x">#</a>`,
/// Jekyll/Hugo themes' `¶`, `§` and `🔗` marks, a title wrapped whole in `<a href="#x">`).
/// Lectern makes its own heading anchors; carried over, these became a visible `##` link in
/// every heading and in the table of contents.
enum HeadingSelfLinks {
    private static let marks: Set<String> = ["", "#", "¶", "§", "🔗", "⚓", "⚓︎", "∞", "link", "permalink"]
    private static let headings: Set<String> = ["h1", "h2", "h3", "h4", "h5", "h6"]

    static func remove(in element: HTMLNode) {
        for child in element.elementChildren {
            if headings.contains(child.name) { clean(child) } else { remove(in: child) }
        }
    }

    private static func clean(_ heading: HTMLNode) {
        var index = 0
        while index < heading.children.count {
            let link = heading.children[index]
            guard link.name == "a", let href = link.attribute("href"), href.hasPrefix("#") else {
                if link.isElement { clean(link) }
                index += 1
                continue
            }
            let text = link.text().trimmingCharacters(in: .whitespacesAndNewlines)
            let marked = link.classes.contains { $0.contains("anchor") || $0.contains("permalink") || $0.contains("heading-link") }
                || link.attribute("aria-hidden") == "true"
            // Only a mark beside other words goes: a heading that is all link ("Go", "C#") keeps its words.
            var rest = heading.children
            rest.remove(at: index)
            let othersHaveWords = !HTMLNode(.element("h"), children: rest).text().allSatisfy { $0.isWhitespace }
            if othersHaveWords && (marks.contains(text.lowercased()) || (marked && text.count <= 2)) {
                heading.children.remove(at: index)   // only a mark: goes entirely
            } else {
                heading.children.replaceSubrange(index...index, with: link.children)   // the title itself: kept, unlinked
                index += link.children.count
            }
        }
    }
}
