import ActivityStreams
import BlogModel
import Dates
import Foundation
import HTMLMarkup
import Storage

/// A reply as received → the comment the store keeps, in one place (GoToSocial's `typeutils`).
/// Everything that will be shown is made safe here: HTML through the allowlist sanitizer, every
/// URL through `HTTPURL`, names and titles cleaned; attachments, polls and quotes become small
/// JSON values the page renders with its own markup.
package enum CommentConversion {
    /// What a reply says, ready to store.
    struct Content: Equatable {
        var html: String
        var summary: String?
        var sensitive: Bool
        var language: String?
        var kind: String
        var title: String?
        var attachments: [CommentAttachment]
        var poll: CommentPoll?
        var quoteURL: String?

        /// Nothing to show: no text, no title, no attachment, no poll, no quote.
        var isEmpty: Bool {
            HTMLText.plain(html).isEmpty && title == nil && attachments.isEmpty && poll == nil && quoteURL == nil
        }
    }

    /// The content of `note`; `language` picks from `contentMap` when there is no `content`.
    static func content(of note: APObject, language: String) -> Content {
        let kind = note.kind ?? .note
        let raw = note.content ?? note.contentMap[language] ?? note.contentMap.keys.sorted().first.map { note.contentMap[$0]! } ?? ""
        var html = HTMLSanitizer.sanitize(raw)
        var title: String?
        // An Article, Page, Event… is shown by its title and summary, with a link to the original.
        if kind != .note && kind != .question && kind != .comment {
            title = note.name.map { DisplayText.name($0, limit: 300) }.flatMap { $0.isEmpty ? nil : $0 }
            if let summary = note.summary, kind != .note, !HTMLSanitizer.text(summary).isEmpty, html.isEmpty || kind == .article || kind == .page {
                html = HTMLSanitizer.sanitize(summary.contains("<") ? summary : "<p>\(HTMLText.escape(summary))</p>")
            }
        }
        let warning = kind == .note || kind == .question || kind == .comment
            ? note.summary.map(HTMLSanitizer.text).flatMap { $0.isEmpty ? nil : DisplayText.name($0, limit: 500) } : nil
        let poll = note.pollOptions.isEmpty ? nil : CommentPoll(
            options: note.pollOptions.prefix(20).map { CommentPoll.Option(name: DisplayText.name($0.name, limit: 200), votes: max(0, $0.votes)) },
            multiple: note.multipleChoice, closed: note.closed != nil)
        return Content(html: html, summary: warning, sensitive: note.sensitive, language: Self.language(note),
                       kind: kind.rawValue, title: title, attachments: attachments(note), poll: poll,
                       quoteURL: quote(note))
    }

    /// Attachments that point somewhere safe to link to, at most eight, with their alt text.
    static func attachments(_ note: APObject) -> [CommentAttachment] {
        note.attachment.prefix(8).compactMap { attachment in
            let links = attachment.url
            let chosen = links.first { ($0.mediaType ?? attachment.mediaType ?? "").hasPrefix("video/") } ?? links.first
            guard let href = chosen?.href, let url = HTTPURL.parse(href) else { return nil }
            let mediaType = chosen?.mediaType ?? attachment.mediaType
            return CommentAttachment(url: url, name: attachment.name.map { DisplayText.name($0, limit: 1500) }.flatMap { $0.isEmpty ? nil : $0 },
                                     kind: CommentAttachment.kind(type: attachment.type, mediaType: mediaType),
                                     width: attachment.width, height: attachment.height)
        }
    }

    /// The quoted post: `quote`/`quoteUrl`/`_misskey_quote`, or a FEP-e232 `Link` tag marked as a quote.
    static func quote(_ note: APObject) -> String? {
        if let quote = note.quote.flatMap(HTTPURL.parse) { return quote }
        let quoteTag = note.tag.first { tag in
            tag.type == "Link" && (tag.mediaType ?? "").contains("activity") && (tag.name ?? "").hasPrefix("RE:")
        } ?? note.tag.first { $0.type == "Link" && ($0.mediaType ?? "").contains("activitystreams") }
        return quoteTag?.href.flatMap(HTTPURL.parse)
    }

    /// The language of the content (the `contentMap` key, when there is one).
    static func language(_ note: APObject) -> String? { note.contentMap.keys.sorted().first }

    /// The note's page on its server (`url` may be a string, a Link, or an array of them).
    static func webURL(_ note: APObject) -> String? {
        let html = note.url.first { ($0.mediaType ?? "").hasPrefix("text/html") }
        return (html ?? note.url.first).flatMap { HTTPURL.parse($0.href) }
    }

    /// Public (to: Public), unlisted (cc: Public), or nil for followers-only and direct. The
    /// object's addressing decides; the activity's when the object has none.
    static func visibility(note: APObject, activity: APObject?) -> CommentRecord.Visibility? {
        let source = note.audience.isEmpty ? (activity ?? note) : note
        if source.to.contains(where: APObject.isPublic) { return .public }
        if source.cc.contains(where: APObject.isPublic) { return .unlisted }
        return nil
    }

    /// An RFC 3339 `published` or `updated`; nil for anything else.
    static func date(_ text: String?) -> Date? {
        text.flatMap(RFC3339.secondsSince1970).map(Date.init(timeIntervalSince1970:))
    }

    /// The record for `note`, a reply by `authorID` to `postPath` (under `parentID`).
    package static func record(_ note: APObject, id: String, authorID: String, postPath: String, parentID: String?,
                       visibility: CommentRecord.Visibility, state: CommentRecord.State, language: String, now: Date) -> CommentRecord {
        let content = content(of: note, language: language)
        var record = CommentRecord(id: id, postPath: postPath, parentID: parentID, authorID: authorID,
                                   url: webURL(note) ?? HTTPURL.parse(id), contentHTML: content.html, summary: content.summary,
                                   sensitive: content.sensitive, language: content.language, visibility: visibility, state: state,
                                   publishedAt: date(note.published) ?? now, updatedAt: date(note.updated), receivedAt: now)
        record.kind = content.kind
        record.title = content.title
        record.attachments = content.attachments.isEmpty ? nil : CommentAttachment.encode(content.attachments)
        record.poll = content.poll.flatMap { try? String(decoding: JSONEncoder().encode($0), as: UTF8.self) }
        record.quoteURL = content.quoteURL
        return record
    }
}
