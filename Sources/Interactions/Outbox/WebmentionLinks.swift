import Foundation
import HTMLMarkup

/// The links of a post that get a webmention (queued by `Publisher`, sent by the Webmention module) when it is published, changed or removed: every
/// `<a href>` of its body that is http(s) and not on the blog's own host, normalized, each once.
package enum WebmentionLinks {
    /// At most this many per post: a post is the owner's, but a list of a thousand links is no
    /// reason to send a thousand requests.
    package static let maximumPerPost = 100

    package static func external(html: String, baseURL: String) -> [String] {
        let own = authority(baseURL)
        var seen = Set<String>()
        var links: [String] = []
        for node in HTMLNode.parse(html, options: .webmention).descendants() where node.name == "a" {
            guard let href = node.attribute("href"), let url = HTTPURL.parse(href), let theirs = authority(url), theirs != own else { continue }
            let link = normalized(url)
            if seen.insert(link).inserted { links.append(link) }
            if links.count == maximumPerPost { break }
        }
        return links
    }

    /// A URL compared as a reader would: scheme and host in lower case (`HTTPURL`), no fragment.
    package static func normalized(_ url: String) -> String {
        var text = HTTPURL.parse(url) ?? url
        if let cut = text.firstIndex(of: "#") { text = String(text[..<cut]) }
        return text
    }

    /// Host and port (the default one for the scheme when none is written).
    package static func authority(_ url: String) -> String? {
        guard let parts = URLComponents(string: url), let host = parts.host?.lowercased() else { return nil }
        return host + ":" + String(parts.port ?? (parts.scheme?.lowercased() == "http" ? 80 : 443))
    }
}
