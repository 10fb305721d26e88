import Foundation

/// Reads a WordPress export (WXR 1.0–1.2, "Tools → Export"): posts and pages with their
/// categories, tags, excerpt, status and featured image. Drafts, pending and private posts are
/// imported as drafts, scheduled ones with their future date (held until it); attachments, menu items, revisions and other post types are
/// listed as skipped; trashed posts and auto-drafts too.
///
/// ```swift
/// let content = try WordPressExport.read(data, timeZone: .gmt)
/// ```
enum WordPressExport {
    static func read(_ data: Data, timeZone: TimeZone) throws -> SourceContent {
        let root = try XMLTree.parse(data)
        guard let channel = root.child("channel"), channel.child("wp:wxr_version") != nil else {
            throw ImportError.unreadable("not a WordPress export (no <wp:wxr_version>)")
        }
        let utc = TimeZone(identifier: "UTC")!
        var content = WordPressContent()
        for item in channel.children("item") where item.value("wp:post_type") == "attachment" {
            guard let id = item.value("wp:post_id"), let url = item.value("wp:attachment_url") ?? item.value("guid") else {
                continue
            }
            let alt = item.children("wp:postmeta").first { $0.value("wp:meta_key") == "_wp_attachment_image_alt" }?.value("wp:meta_value")
            let attachment = WordPressContent.Attachment(url: url, alt: alt ?? "", caption: item.value("excerpt:encoded"))
            content.attachments[id] = attachment
            if let parent = item.value("wp:post_parent"), parent != "0" {
                content.attachmentsByParent[parent, default: []].append(attachment)
            }
        }
        var result = SourceContent(kind: .wordpress, items: [],
                                   baseURL: channel.value("wp:base_blog_url") ?? channel.value("link"))
        for element in channel.children("item") {
            let type = element.value("wp:post_type") ?? "post"
            let status = element.value("wp:status") ?? "publish"
            let id = element.value("wp:post_id")
            let link = element.value("link")
            var warnings: [String] = []
            let imported = type == "post" || type == "page"
            let html = imported ? content.html(from: element.child("content:encoded")?.text ?? "", postID: id, warnings: &warnings) : ""
            var item = ImportedItem(kind: type == "page" ? .page : .post, origin: link ?? "post \(id ?? "?")", body: .html(html))
            item.warnings = warnings
            item.title = FeedText.title(element.value("title"))
            item.link = link
            item.slug = element.value("wp:post_name").map { $0.removingPercentEncoding ?? $0 }
            item.date = element.value("wp:post_date_gmt").flatMap { DateReading.parse($0, timeZone: utc) }
                ?? element.value("wp:post_date").flatMap { DateReading.parse($0, timeZone: timeZone) }
                ?? element.value("pubDate").flatMap { DateReading.parse($0, timeZone: timeZone) }
            item.updated = element.value("wp:post_modified_gmt").flatMap { DateReading.parse($0, timeZone: utc) }
            let categories = element.children("category")
            // Lectern has one category a post: the first is it, the others join the tags.
            let named = categories.filter { $0.attributes["domain"] == "category" && $0.attributes["nicename"] != "uncategorized" }
                .map { FeedText.title($0.text) ?? $0.text }
            item.category = named.first
            item.tags = FeedText.tags(named.dropFirst() + categories.filter { $0.attributes["domain"] == "post_tag" }
                .map { FeedText.title($0.text) ?? $0.text })
            if named.count > 1 {
                item.warnings.append("categories \(named.dropFirst().joined(separator: ", ")) became tags (a post has one category)")
            }
            item.summary = FeedText.summary(element.value("excerpt:encoded"))
            item.pinned = element.value("wp:is_sticky") == "1"
            let meta = element.children("wp:postmeta")
            if let thumbnail = meta.first(where: { $0.value("wp:meta_key") == "_thumbnail_id" })?.value("wp:meta_value") {
                item.image = content.attachments[thumbnail]?.url
            }
            switch status {
            case "publish": break
            case "draft", "pending": item.draft = true
            case "private": item.draft = true; item.warnings.append("was private on WordPress: imported as a draft")
            case "future":
                // Held back until its date, then published and announced, as WordPress would have.
                item.warnings.append("was scheduled on WordPress: kept for its date, published and announced then")
            default: item.skipReason = "WordPress status '\(status)'"
            }
            if let password = element.value("wp:post_password"), !password.isEmpty {
                item.draft = true
                item.warnings.append("was password-protected on WordPress: imported as a draft")
            }
            switch type {
            case "post", "page": break
            case "attachment": item.skipReason = "attachment (a media file): posts keep linking to it (see --download-images)"
            default: item.skipReason = "WordPress \(type) (not a post or page)"
            }
            let comments = element.children("wp:comment").count
            if comments > 0, item.skipReason == nil {
                item.warnings.append("\(comments) comment\(comments == 1 ? "" : "s") not imported")
            }
            result.items.append(item)
        }
        return result
    }
}
