import Foundation

/// New URLs of imported files, for `{{< ref >}}`, `{% post_url %}` and Zola's `@/` links:
/// looked up by path (with or without the content folder and extension) or by file name.
struct CrossReferences: Sendable {
    private var byPath: [String: String] = [:]
    private var byName: [String: [String]] = [:]

    init(plans: [ImportPlanner.Plan]) {
        for plan in plans {
            guard let file = plan.item.sourceFile else { continue }
            for key in Self.keys(file) { byPath[key] = plan.url }
            byName[Self.name(file), default: []].append(plan.url)
        }
    }

    func url(for reference: String) -> String? {
        let cleaned = reference.trimmingCharacters(in: CharacterSet(charactersIn: "\"' "))
        if let url = byPath[Self.normalize(cleaned)] { return url }
        let candidates = byName[Self.name(cleaned)] ?? []
        return candidates.count == 1 ? candidates[0] : nil
    }

    private static func keys(_ file: String) -> [String] {
        var parts = normalize(file).split(separator: "/").map(String.init)
        var keys: [String] = []
        while !parts.isEmpty {
            keys.append(parts.joined(separator: "/"))
            parts.removeFirst()
        }
        return keys
    }

    /// `/content/posts/x/index.md` → `content/posts/x`; `_posts/2019-05-14-x.markdown` → `_posts/2019-05-14-x`.
    private static func normalize(_ path: String) -> String {
        var text = path.hasPrefix("/") ? String(path.dropFirst()) : path
        // A path relative to the referring file (`../other/index.md`): matched by what follows.
        while text.hasPrefix("../") || text.hasPrefix("./") { text = String(text.drop { $0 == "." }.dropFirst()) }
        if text.hasSuffix("/") { text.removeLast() }
        for ext in [".md", ".markdown", ".html"] where text.hasSuffix(ext) { text = String(text.dropLast(ext.count)) }
        for index in ["/index", "/_index"] where text.hasSuffix(index) { text = String(text.dropLast(index.count)) }
        return text
    }

    private static func name(_ path: String) -> String {
        normalize(path).split(separator: "/").last.map(String.init) ?? path
    }
}
