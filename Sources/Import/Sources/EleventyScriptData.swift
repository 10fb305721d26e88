import Foundation

/// The few values an Eleventy data file in JavaScript (`posts.11tydata.js`) states in shapes
/// that can be read without running it: `tags` and `layout` as literals, and a `permalink` given
/// as a template string or as an arrow function returning a template literal over
/// `data.page.fileSlug`, `data.page.filePathStem` or the page's own data:
///
/// ```js
/// module.exports = { tags: ["posts"], eleventyComputed: { permalink: (data) => `/blog/${data.page.fileSlug}/` } };
/// ```
///
/// The importer does not run JavaScript from a folder someone hands it; any other permalink
/// (a function with statements, a call) is reported as unreadable rather than guessed.
struct EleventyScriptData {
    enum Permalink {
        case none
        /// A Nunjucks-style template, and whether it sits under `eleventyComputed`.
        case template(String, computed: Bool)
        case unreadable
    }

    var fields: [String: Any] = [:]
    var permalink = Permalink.none

    init(_ text: String) {
        // Whole-line comments out (`Patterns` lets `.` cross lines, so the class stops at one).
        let source = Patterns.replace(#"(?m)^[ \t]*//[^\n]*"#, in: text) { _ in "" }
        if let list = Patterns.matches(#"\btags\s*:\s*\[([^\]]*)\]"#, in: source).first {
            fields["tags"] = Patterns.matches(#"["'`]([^"'`]+)["'`]"#, in: list[1]).map { $0[1] }
        } else if let tag = Patterns.matches(#"\btags\s*:\s*["'`]([^"'`]+)["'`]"#, in: source).first {
            fields["tags"] = [tag[1]]
        }
        if let layout = Patterns.matches(#"\blayout\s*:\s*["'`]([^"'`]+)["'`]"#, in: source).first { fields["layout"] = layout[1] }
        guard let key = source.range(of: #"\bpermalink\s*[:(]"#, options: .regularExpression) else { return }
        // Computed only when the key sits inside `eleventyComputed: { … }` (its brace still open).
        var computed = false
        if let open = source[..<key.lowerBound].range(of: "eleventyComputed", options: .backwards) {
            let between = source[open.upperBound..<key.lowerBound]
            computed = between.filter { $0 == "{" }.count > between.filter { $0 == "}" }.count
        }
        let rest = String(source[key.lowerBound...])
        if let literal = Patterns.matches(#"^permalink\s*:\s*(["'])(.*?)\1\s*[,}\n]"#, in: rest).first {
            permalink = .template(literal[2], computed: computed)
        } else if let literal = Patterns.matches(#"^permalink\s*:\s*false\b"#, in: rest).first, !literal.isEmpty {
            fields["permalink"] = false
        } else if let arrow = Patterns.matches(#"^permalink\s*:\s*(?:\(\s*(\w+)\s*\)|(\w+))\s*=>\s*`([^`]*)`"#, in: rest).first {
            let name = arrow[1].isEmpty ? arrow[2] : arrow[1]
            permalink = Self.template(fromLiteral: arrow[3], parameter: name).map { .template($0, computed: computed) } ?? .unreadable
        } else {
            permalink = .unreadable
        }
    }

    /// `/blog/${data.page.fileSlug}/` → `/blog/{{ page.fileSlug }}/`; nil when a `${…}` is more
    /// than a property path of the parameter.
    static func template(fromLiteral literal: String, parameter: String) -> String? {
        var failed = false
        let converted = Patterns.replace(#"\$\{\s*([^}]*?)\s*\}"#, in: literal) { groups in
            let path = groups[1]
            guard path.hasPrefix(parameter + "."),
                  Patterns.matches(#"^[A-Za-z_][\w.]*$"#, in: path).first != nil else {
                failed = true
                return ""
            }
            return "{{ " + path.dropFirst(parameter.count + 1) + " }}"
        }
        return failed ? nil : converted
    }
}
