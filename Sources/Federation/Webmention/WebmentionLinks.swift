import Foundation
import HTMLMarkup

/// The links of a post that get a webmention when it is published, changed or removed: every
/// `<a href>` of its body that is http(s) and not on the blog's own host, normalized, each once.
enum WebmentionLinks {
    /// At most this many per post: a post is the owner's, but a list of a thousand links is no
    /// reason to send a thousand requests.
    static let maximumPerPost = 100

    static func external(html: String, baseURL: String) -> [String] {
        let own = authority(baseURL)
        var seen = Set<String>()
        var links: [String] = []
        for node in HTMLNode.parse(html).descendants() where node.name == "a" {
            guard let href = node.attribute("href"), let url = WebURL.parse(href), let theirs = authority(url), theirs != own else { continue }
            let link = WebmentionSource.normalized(url)
            if seen.insert(link).inserted { links.append(link) }
            if links.count == maximumPerPost { break }
        }
        return links
    }

    /// Host and port (the default one for the scheme when none is written).
    static func authority(_ url: String) -> String? {
        guard let parts = URLComponents(string: url), let host = parts.host?.lowercased() else { return nil }
        return host + ":" + String(parts.port ?? (parts.scheme?.lowercased() == "http" ? 80 : 443))
    }
}
