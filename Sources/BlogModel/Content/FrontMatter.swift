import Foundation

/// Splits a Markdown source into its YAML front matter and body: the one splitter, for posts
/// and pages (`ContentParser`) and for the files of other generators (`lectern import`).
///
/// ```
/// ---
/// title: Hello
/// ---
/// Body text…
/// ```
package struct FrontMatter {
    /// The YAML between the fences (empty when the file has none).
    package let yaml: String
    /// The Markdown after the closing fence.
    package let body: String
    /// File line of the first YAML line, so YAML line 1 maps to it.
    package let yamlFirstLine: Int
    /// Whether the source opens with a fence (`---` or `+++`); without one it is all body.
    package var isFenced: Bool { yamlFirstLine == 2 }

    /// `source` has `\n` line ends (see `SourceText`); a leading byte-order mark is skipped.
    /// YAML between `---` lines, or TOML between `+++` lines (Hugo's and Zola's other form),
    /// converted to YAML that keeps every key on its line.
    package static func split(_ source: String, file: String) throws -> FrontMatter {
        var text = Substring(source)
        if text.hasPrefix("\u{FEFF}") { text = text.dropFirst() }
        let fence: String
        if text.hasPrefix("---\n") { fence = "---" } else if text.hasPrefix("+++\n") { fence = "+++" } else {
            if let typed = mistypedFence(text) {
                throw SiteError.source(file: file, line: 1,
                                       message: "front matter opens with '---' on a line of its own; this line is '\(typed)'")
            }
            return FrontMatter(yaml: "", body: String(text), yamlFirstLine: 1)
        }
        let afterOpening = text.dropFirst(4)
        var lineStart = afterOpening.startIndex
        while lineStart < afterOpening.endIndex {
            let lineEnd = afterOpening[lineStart...].firstIndex(of: "\n") ?? afterOpening.endIndex
            let line = afterOpening[lineStart..<lineEnd].trimmingCharacters(in: .whitespaces)
            if line == fence || (fence == "---" && line == "...") {
                let matter = String(afterOpening[afterOpening.startIndex..<lineStart])
                let yaml = fence == "+++" ? try TOMLFrontMatter.yaml(fromTOML: matter, file: file, firstLine: 2)
                                          : SourceText.untabbedIndentation(matter)
                let bodyStart = lineEnd < afterOpening.endIndex ? afterOpening.index(after: lineEnd) : lineEnd
                return FrontMatter(yaml: yaml, body: String(afterOpening[bodyStart...]), yamlFirstLine: 2)
            }
            lineStart = lineEnd < afterOpening.endIndex ? afterOpening.index(after: lineEnd) : lineEnd
        }
        throw SiteError.source(file: file, line: 1,
                               message: "front matter starts with '\(fence)' but has no closing '\(fence)' line")
    }

    /// A first line of dashes that is not `---` (`--`, `----`, an editor's `—`) followed by a
    /// `key: value` line: a fence mistyped, which would otherwise publish the front matter as text
    /// (or fail later as "needs a 'title'").
    static func mistypedFence(_ text: Substring) -> String? {
        let lines = text.split(separator: "\n", maxSplits: 2, omittingEmptySubsequences: false)
        guard lines.count >= 2 else { return nil }
        let first = lines[0].trimmingCharacters(in: .whitespaces)
        guard !first.isEmpty, first != "---", first.allSatisfy({ "-–—".contains($0) || $0 == " " }) else { return nil }
        return lines[1].firstMatch(of: /^[A-Za-z_][A-Za-z0-9_-]*:(\s|$)/) == nil ? nil : first
    }
}
