import Foundation
import HTMLMarkup
import Site

/// Turns a WordPress post's stored content into HTML as WordPress would show it: shortcodes
/// with an HTML equivalent converted (`[code]`/`[sourcecode]`, `[caption]`, `[gallery]`,
/// `[embed]`, `[audio]`, `[video]`), others kept as text and reported, and — for classic-editor
/// content, which is stored without `<p>` — paragraphs and line breaks added (`wpautop`).
struct WordPressContent {
    /// A media file of the export, with the alt text and caption WordPress keeps for it.
    struct Attachment: Equatable {
        var url: String
        var alt: String
        var caption: String?
    }

    /// Attachments by post id, for `[gallery ids="…"]` and featured images.
    var attachments: [String: Attachment] = [:]
    /// Attachments by parent post id, for a `[gallery]` without ids.
    var attachmentsByParent: [String: [Attachment]] = [:]

    /// Shortcodes that WordPress core, Jetpack and common plugins register.
    private static let knownShortcodes: Set<String> = [
        "audio", "video", "playlist", "caption", "wp_caption", "gallery", "embed", "code", "sourcecode", "source",
        "contact-form", "contact-form-7", "youtube", "vimeo", "tweet", "googlemaps", "soundcloud", "latex", "spotify",
        "instagram", "slideshare", "gist", "recipe", "jetpack_subscription_form", "wpvideo", "archives", "polldaddy",
    ]

    private static let codeLanguages: Set<String> = ["bash", "c", "cpp", "csharp", "css", "go", "html", "java", "javascript",
                                                     "js", "json", "php", "python", "py", "ruby", "rust", "scala", "sql",
                                                     "swift", "text", "typescript", "xml", "yaml", "shell", "perl", "powershell"]

    func html(from content: String, postID: String?, warnings: inout [String]) -> String {
        var text = content.replacingOccurrences(of: "\r\n", with: "\n")
        var protected: [String] = []
        func protect(_ html: String) -> String {
            protected.append(html)
            return "\u{E000}\(protected.count - 1)\u{E001}"
        }
        // [[code]] is how WordPress writes a literal [code].
        text = Patterns.replace(#"\[\[([^\[\]]+)\]\]"#, in: text) { groups in "&#91;\(groups[1])&#93;" }
        let codeNames = (["code", "sourcecode", "source"] + Self.codeLanguages.sorted()).joined(separator: "|")
        text = Patterns.replace(#"\[(\#(codeNames))(\s[^\]]*)?\]\n?(.*?)\n?\[/\1\]"#, in: text) { groups in
            let attributes = Self.attributes(groups[2])
            var language = attributes["lang"] ?? attributes["language"] ?? attributes["brush"]
            if language == nil, Self.codeLanguages.contains(groups[1]) { language = groups[1] }
            var code = groups[3]
            // Stored escaped when written in the visual editor: decode once.
            if !code.contains("<") && !code.contains(">") { code = HTMLEntities.decode(code) }
            let classAttribute = language.map { " class=\"language-\(HTMLNode.escape($0, attribute: true))\"" } ?? ""
            return protect("<pre><code\(classAttribute)>\(HTMLNode.escape(code, attribute: false))</code></pre>")
        }
        // Block editor: a syntax highlighter block names its language in the block comment.
        text = Patterns.replace(#"<!-- wp:[a-z/-]*code (\{[^}]*\}) -->\s*<pre"#, in: text) { groups in
            guard let language = Self.jsonLanguage(groups[1]) else { return groups[0] }
            return groups[0].dropLast(4) + "<pre data-lang=\"\(HTMLNode.escape(language, attribute: true))\""
        }
        text = Patterns.replace(#"(?s)<pre[\s>].*?</pre>"#, in: text) { protect($0[0]) }
        text = Patterns.replace(#"\[caption([^\]]*)\](.*?)\[/caption\]"#, in: text) { groups in
            let attributes = Self.attributes(groups[1])
            var media = groups[2]
            var caption = attributes["caption"] ?? ""
            if let match = media.range(of: #"^\s*((<a [^>]*>)?\s*<img [^>]*>\s*(</a>)?)"#, options: .regularExpression) {
                caption = String(media[match.upperBound...]).trimmingCharacters(in: .whitespacesAndNewlines) + caption
                media = String(media[match])
            }
            let figcaption = caption.isEmpty ? "" : "<figcaption>\(caption)</figcaption>"
            return protect("<figure>\(media.trimmingCharacters(in: .whitespacesAndNewlines))\(figcaption)</figure>")
        }
        text = Patterns.replace(#"\[gallery([^\]]*)\]"#, in: text) { groups in
            let ids = Self.attributes(groups[1])["ids"].map { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } }
            let images = ids.map { $0.compactMap { attachments[$0] } } ?? postID.flatMap { attachmentsByParent[$0] } ?? []
            guard !images.isEmpty else {
                warnings.append("shortcode \(groups[0]) has no images in the export: kept as text")
                return groups[0]
            }
            if let ids, images.count < ids.count {
                let missing = ids.filter { attachments[$0] == nil }
                warnings.append("\(groups[0]): attachment\(missing.count == 1 ? "" : "s") \(missing.joined(separator: ", ")) not in the export, left out")
            }
            // A run of images, each with the alt text and caption the export keeps for it.
            return protect(images.map { image in
                let tag = "<img src=\"\(HTMLNode.escape(image.url, attribute: true))\" alt=\"\(HTMLNode.escape(image.alt, attribute: true))\">"
                guard let caption = image.caption else { return "<p>\(tag)</p>" }
                // The caption as text: markup in it (an unclosed comment) would swallow what follows.
                let text = HTMLNode.escape(HTMLToMarkdown.plainText(caption), attribute: false)
                return "<figure>\(tag)<figcaption>\(text)</figcaption></figure>"
            }.joined(separator: "\n"))
        }
        text = Patterns.replace(#"\[embed([^\]]*)\](.*?)\[/embed\]"#, in: text) { groups in
            guard let link = Embeds.link(for: groups[2]) else { return groups[0] }
            warnings.append(Embeds.warning("shortcode [embed]", became: link))
            return protect(Embeds.html(link))
        }
        // Classic editor: a provider's URL alone on a line is an embed (oEmbed) on WordPress.
        // (The block editor marks its embeds: `EmbedLinks` reads those blocks.)
        if !text.contains("<!-- wp:") { text = Patterns.replace(#"(?m)^[ \t]*(https?://[^\s<>"]+)[ \t]*$"#, in: text) { groups in
            guard Embeds.isOEmbedProvider(groups[1]), let link = Embeds.link(for: groups[1]) else { return groups[0] }
            warnings.append(Embeds.warning("the embed \(groups[1])", became: link))
            return "\n" + protect(Embeds.html(link)) + "\n"
        } }
        text = Patterns.replace(#"\[(audio|video)([^\]]*)\](?:\s*\[/\1\])?"#, in: text) { groups in
            let attributes = Self.attributes(groups[2])
            // WordPress.com writes the address bare: `[audio https://…/x.mp3]`.
            let bare = groups[2].split(separator: " ").map(String.init).first { $0.hasPrefix("http://") || $0.hasPrefix("https://") }
            let source = attributes["src"] ?? ["mp3", "m4a", "ogg", "wav", "mp4", "m4v", "webm", "ogv"].lazy.compactMap { attributes[$0] }.first
                ?? bare
            guard let source else {
                warnings.append("shortcode \(groups[0]) has no source: kept as text")
                return groups[0]
            }
            return protect("<\(groups[1]) controls src=\"\(HTMLNode.escape(source, attribute: true))\"></\(groups[1])>")
        }
        for match in Patterns.matches(#"\[(/?)([a-z][a-z0-9_-]*)((?:\s[^\]]*)?)\]"#, in: text) where match[1].isEmpty {
            let name = match[2]
            let handled: Set<String> = ["caption", "gallery", "embed", "audio", "video", "code", "sourcecode", "source"]
            guard !handled.contains(name) else { continue }
            let isShortcode = Self.knownShortcodes.contains(name) || match[3].contains("=")
                || text.contains("[/\(name)]")
            if isShortcode { warnings.append("shortcode \(match[0]) has no Markdown equivalent: kept as text") }
        }
        if !text.contains("<!-- wp:") { text = Self.autop(text) }
        for (index, html) in protected.enumerated().reversed() {
            text = text.replacingOccurrences(of: "\u{E000}\(index)\u{E001}", with: html)
        }
        return text
    }

    /// WordPress's `wpautop`, simplified: blank-line separated chunks that do not start with a
    /// block element become paragraphs; single line breaks inside them become `<br>`.
    static func autop(_ text: String) -> String {
        let blockStart = #"^\s*(<(p|div|h[1-6]|ul|ol|li|blockquote|pre|table|thead|tbody|tr|td|th|figure|hr|dl|dd|dt|section|article|aside|header|footer|address|form|iframe|video|audio|object|embed|style|script|details|nav|!--)[\s>/]|\x{E000})"#
        var chunks: [String] = []
        for chunk in text.components(separatedBy: "\n\n") {
            let trimmed = chunk.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !trimmed.isEmpty else { continue }
            if trimmed.range(of: blockStart, options: [.regularExpression, .caseInsensitive]) != nil {
                chunks.append(trimmed)
                continue
            }
            var lines = ""
            let characters = Array(trimmed)
            for (index, character) in characters.enumerated() {
                if character == "\n", index > 0, characters[index - 1] != ">", index + 1 < characters.count,
                   characters[index + 1] != "<" {
                    lines += "<br />\n"
                } else {
                    lines.append(character)
                }
            }
            chunks.append("<p>" + lines + "</p>")
        }
        return chunks.joined(separator: "\n\n")
    }

    /// `lang="rust" title='x' linenums=false` → dictionary.
    static func attributes(_ text: String) -> [String: String] {
        var result: [String: String] = [:]
        for match in Patterns.matches(#"([a-zA-Z0-9_-]+)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s\]]+))"#, in: text) {
            result[match[1].lowercased()] = [match[2], match[3], match[4]].first { !$0.isEmpty } ?? ""
        }
        return result
    }

    private static func jsonLanguage(_ json: String) -> String? {
        guard let data = json.data(using: .utf8),
              let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return nil }
        return object["language"] as? String
    }
}
