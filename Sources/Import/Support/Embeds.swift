import BlogModel
import Foundation
import HTMLMarkup

/// The embeds blogs carry (YouTube, Vimeo, X/Twitter, GitHub gists, CodePen, Medium's media
/// frames), recognised by URL, each with the page to link to and a label a reader sees. Lectern
/// does not load third-party players: an imported embed becomes a link with that label (and a
/// line in the report), never an empty element.
///
/// ```swift
/// Embeds.link(for: "https://www.youtube.com/embed/dQw4w9WgXcQ")
/// // (url: "https://www.youtube.com/watch?v=dQw4w9WgXcQ", label: "Video on YouTube")
/// ```
enum Embeds {
    struct Link: Equatable {
        var url: String
        var label: String
    }

    /// The page and label for an embed or embeddable URL; nil when it is not an http(s) URL.
    static func link(for source: String) -> Link? {
        var text = source.trimmingCharacters(in: .whitespacesAndNewlines)
        if text.hasPrefix("//") { text = "https:" + text }
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased(),
              scheme == "http" || scheme == "https", var host = components.host?.lowercased(), !host.isEmpty else { return nil }
        if host.hasPrefix("www.") { host.removeFirst(4) }
        let segments = components.path.split(separator: "/").map(String.init)
        let query = Dictionary(components.queryItems?.compactMap { item in item.value.map { (item.name, $0) } } ?? [],
                               uniquingKeysWith: { first, _ in first })
        switch host {
        case "cdn.embedly.com":   // Medium's frames: the embedded page is in `src`
            return query["src"].flatMap { $0.contains("embedly.com") ? nil : link(for: $0) } ?? Link(url: text, label: "Embedded content")
        case "youtube.com", "m.youtube.com", "youtube-nocookie.com", "youtu.be":
            let id = host == "youtu.be" ? segments.first
                : segments.first == "embed" || segments.first == "shorts" || segments.first == "live" ? segments.dropFirst().first
                : query["v"]
            return id.map { Link(url: "https://www.youtube.com/watch?v=\($0)", label: "Video on YouTube") }
                ?? Link(url: text, label: "YouTube")
        case "vimeo.com", "player.vimeo.com":
            let id = segments.last { $0.allSatisfy(\.isNumber) }
            return Link(url: id.map { "https://vimeo.com/\($0)" } ?? text, label: "Video on Vimeo")
        case "twitter.com", "x.com", "mobile.twitter.com":
            return Link(url: text, label: segments.contains("status") ? "Post on X" : "X")
        case "gist.github.com":
            var path = segments
            if var last = path.last, last.hasSuffix(".js") { last.removeLast(3); path[path.count - 1] = last }
            return Link(url: "https://gist.github.com/" + path.joined(separator: "/"), label: "Code on GitHub Gist")
        case "codepen.io":
            var path = segments
            if path.count >= 3, path[1] == "embed" || path[1] == "full" || path[1] == "details" { path[1] = "pen" }
            return Link(url: "https://codepen.io/" + path.joined(separator: "/"), label: "Pen on CodePen")
        case "medium.com" where segments.first == "media":
            return Link(url: text, label: "Embedded media on Medium")
        default:
            return Link(url: text, label: "Embedded content from \(host)")
        }
    }

    /// Whether a URL alone on a line is one WordPress would have turned into an embed (oEmbed).
    static func isOEmbedProvider(_ url: String) -> Bool {
        guard let host = URLComponents(string: url)?.host?.lowercased() else { return false }
        let bare = host.hasPrefix("www.") ? String(host.dropFirst(4)) : host
        return ["youtube.com", "m.youtube.com", "youtu.be", "vimeo.com", "twitter.com", "x.com", "gist.github.com", "codepen.io",
                "soundcloud.com", "open.spotify.com", "instagram.com", "flickr.com", "tiktok.com", "slideshare.net",
                "ted.com", "dailymotion.com", "reddit.com", "tumblr.com"].contains(bare)
    }

    /// The link as HTML, in a paragraph of its own.
    static func html(_ link: Link) -> String {
        let url = HTMLNode.escape(link.url, attribute: true)
        return "<p><a href=\"\(url)\">\(HTMLNode.escape(link.label, attribute: false))</a></p>"
    }

    /// The report line for an embed that became `link`.
    static func warning(_ what: String, became link: Link) -> String {
        "\(what) became a link \"\(link.label)\" to \(link.url) (Lectern does not embed other sites' players)"
    }
}
