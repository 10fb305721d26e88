import Foundation

/// Reads a Ghost export (Settings → Labs → Export, `{"db":[{"data":{"posts":[…]}}]}`, or the
/// older file without `db`): posts and pages with their tags (internal `#tags` left out), feature
/// image, custom excerpt and status. The body is the stored `html`; exports that only hold the
/// editor document get it rendered from `lexical` or `mobiledoc`. Ghost's `__GHOST_URL__`
/// placeholder becomes the old site's address when known, else a root-relative path.
///
/// ```swift
/// let content = try GhostExport.read(data, timeZone: .gmt, siteURL: "https://old.example")
/// ```
enum GhostExport {
    static func read(_ data: Data, timeZone: TimeZone, siteURL: String?) throws -> SourceContent {
        guard let json = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw ImportError.unreadable("not a JSON object")
        }
        let database = (json["db"] as? [[String: Any]])?.first ?? json
        guard let tables = database["data"] as? [String: Any], let posts = tables["posts"] as? [[String: Any]] else {
            throw ImportError.unreadable("not a Ghost export (no data.posts)")
        }
        let base = (siteURL ?? settingsURL(tables)).map { $0.hasSuffix("/") ? String($0.dropLast()) : $0 }
        let tags = Dictionary((tables["tags"] as? [[String: Any]] ?? []).compactMap { tag -> (String, [String: Any])? in
            guard let id = string(tag["id"]) else { return nil }
            return (id, tag)
        }, uniquingKeysWith: { first, _ in first })
        var tagsByPost: [String: [(Int, String)]] = [:]
        for link in tables["posts_tags"] as? [[String: Any]] ?? [] {
            guard let post = string(link["post_id"]), let tagID = string(link["tag_id"]), let tag = tags[tagID],
                  let name = tag["name"] as? String, !name.hasPrefix("#"), (tag["visibility"] as? String) != "internal" else {
                continue
            }
            tagsByPost[post, default: []].append((link["sort_order"] as? Int ?? 0, name))
        }
        var content = SourceContent(kind: .ghost, items: [], baseURL: base)
        for post in posts {
            content.items.append(item(post, tags: tagsByPost, base: base, timeZone: timeZone))
        }
        if base == nil {
            content.warnings.append("the old site's address is unknown (pass --source-url): Ghost image paths stay root-relative")
        }
        return content
    }

    private static func item(_ post: [String: Any], tags: [String: [(Int, String)]], base: String?,
                             timeZone: TimeZone) -> ImportedItem {
        func placeholder(_ text: String) -> String { text.replacingOccurrences(of: "__GHOST_URL__", with: base ?? "") }
        let id = string(post["id"]) ?? "?"
        let slug = post["slug"] as? String
        var warnings: [String] = []
        var html = post["html"] as? String
        if html?.isEmpty ?? true {
            html = GhostDocuments.html(lexical: post["lexical"] as? String, mobiledoc: post["mobiledoc"] as? String,
                                       warnings: &warnings)
        }
        let isPage = post["type"] as? String == "page" || post["page"] as? Bool == true || post["page"] as? Int == 1
        let link = slug.map { (base ?? "") + "/\($0)/" }
        var item = ImportedItem(kind: isPage ? .page : .post, origin: link ?? "post \(id)", body: .html(placeholder(html ?? "")))
        item.warnings = warnings
        item.title = (post["title"] as? String).flatMap(FeedText.title)
        item.link = link
        item.slug = slug
        func date(_ key: String) -> Date? {
            if let number = post[key] as? Double { return Date(timeIntervalSince1970: number / 1000) }
            return (post[key] as? String).flatMap { DateReading.parse($0, timeZone: TimeZone(identifier: "UTC")!) }
        }
        item.date = date("published_at") ?? date("created_at")
        item.updated = date("updated_at")
        item.tags = FeedText.tags((tags[id] ?? []).sorted { $0.0 < $1.0 }.map(\.1))
        item.summary = (post["custom_excerpt"] as? String).flatMap(FeedText.summary)
        item.image = (post["feature_image"] as? String).map(placeholder)
        item.pinned = post["featured"] as? Bool == true || post["featured"] as? Int == 1
        switch post["status"] as? String ?? "published" {
        case "published": break
        case "draft": item.draft = true
        case "scheduled": item.draft = true; item.warnings.append("was scheduled on Ghost: imported as a draft")
        case let status: item.draft = true; item.warnings.append("Ghost status '\(status)': imported as a draft")
        }
        if let visibility = post["visibility"] as? String, visibility != "public" {
            let audience = visibility == "members" ? "members" : visibility == "paid" ? "paying members" : "'\(visibility)' readers"
            item.warnings.append("was for \(audience) only on Ghost; it is public once published")
        }
        return item
    }

    /// Very old exports store the site address in `settings`.
    private static func settingsURL(_ tables: [String: Any]) -> String? {
        (tables["settings"] as? [[String: Any]])?.first { $0["key"] as? String == "url" }?["value"] as? String
    }

    /// Ids are strings in Ghost 1+ and numbers before.
    private static func string(_ value: Any?) -> String? {
        if let text = value as? String { return text }
        if let number = value as? Int { return String(number) }
        return nil
    }
}
