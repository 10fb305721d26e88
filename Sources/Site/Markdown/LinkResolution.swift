import CCmark
import Foundation

/// An image in a Markdown body: where it points (after `LinkResolution`), the body line it is
/// on, and its alt text.
public struct MarkdownImage: Sendable, Equatable {
    public var src: String
    /// 1-based line in the Markdown body (not the file: the front matter comes first).
    public var line: Int
    public var alt: String
}

/// Relative links and images (`![](diagram.png)`, `[data](results.csv)`) resolved against the
/// page's own path, so `diagram.png` in the post at `/2025/my-post/` becomes
/// `/2025/my-post/diagram.png`: browsers would resolve it the same way, and feeds, the
/// fediverse and the image checks then see the one URL that works everywhere.
enum LinkResolution {
    /// Rewrites the document's relative URLs and lists its images, in document order.
    static func apply(_ document: OpaquePointer, basePath: String?) -> [MarkdownImage] {
        var images: [MarkdownImage] = []
        for node in CmarkNodes.all([CMARK_NODE_IMAGE.rawValue, CMARK_NODE_LINK.rawValue], in: document) {
            var url = cmark_node_get_url(node).map { String(cString: $0) } ?? ""
            if let basePath, let resolved = resolve(url, against: basePath) {
                url = resolved
                cmark_node_set_url(node, resolved)
            }
            if cmark_node_get_type(node) == CMARK_NODE_IMAGE {
                let alt = CmarkNodes.text(of: node).trimmingCharacters(in: .whitespacesAndNewlines)
                images.append(MarkdownImage(src: url, line: Int(cmark_node_get_start_line(node)), alt: alt))
            }
        }
        return images
    }

    /// `url` made root-relative when it is relative (no scheme, not `/…`, `#…` or `?…`); nil otherwise.
    static func resolve(_ url: String, against basePath: String) -> String? {
        guard let first = url.unicodeScalars.first, !"/#?".unicodeScalars.contains(first), !hasScheme(url),
              basePath.hasPrefix("/"), let base = URL(string: "http://site" + basePath),
              let resolved = URL(string: url, relativeTo: base)?.absoluteURL,
              var components = URLComponents(url: resolved, resolvingAgainstBaseURL: false) else { return nil }
        (components.scheme, components.host) = (nil, nil)
        guard let path = components.string, path.hasPrefix("/") else { return nil }
        return path
    }

    private static func hasScheme(_ url: String) -> Bool {
        for scalar in url.unicodeScalars {
            if scalar == ":" { return true }
            if scalar == "/" || scalar == "?" || scalar == "#" { return false }
        }
        return false
    }
}
