import Foundation
import Synchronization

/// What readers can ask the blog for, found as a crawler finds it: the sitemap's pages (posts
/// and lists apart) and the assets the home page links to. Remembers each URL's last `ETag`, so
/// a returning reader's request carries `If-None-Match`.
final class SiteCatalog: Sendable {
    let posts: [String]
    let lists: [String]
    let assets: [String]
    private let etags = Mutex<[String: String]>([:])

    init(posts: [String], lists: [String], assets: [String]) {
        (self.posts, self.lists, self.assets) = (posts, lists, assets)
    }

    static func load(baseURL: String) async throws -> SiteCatalog {
        let sitemap = String(decoding: try await Net.get(baseURL + "/sitemap.xml", accept: "application/xml").body, as: UTF8.self)
        let locations = matches(#"<loc>([^<]+)</loc>"#, in: sitemap).map { $0.replacingOccurrences(of: "&amp;", with: "&") }
        let posts = locations.filter { $0.contains("/soak-") }
        let lists = locations.filter { !$0.contains("/soak-") }
        let home = String(decoding: try await Net.get(baseURL + "/").body, as: UTF8.self)
        let linked = matches(#"(?:href|src)="(/[^"]+\.(?:css|js|svg|png|ico|xml|json))""#, in: home)
        let assets = Array(Set(linked.map { baseURL + $0 })).sorted()
        guard posts.count >= 10, !assets.isEmpty else {
            throw SoakError("the site lists \(posts.count) posts and \(assets.count) assets; expected the generated ones")
        }
        return SiteCatalog(posts: posts, lists: lists, assets: assets)
    }

    /// The sitemap's URL ending in `suffix` (a post just published).
    static func url(endingIn suffix: String, baseURL: String) async throws -> String? {
        let sitemap = String(decoding: try await Net.get(baseURL + "/sitemap.xml", accept: "application/xml").body, as: UTF8.self)
        return matches(#"<loc>([^<]+)</loc>"#, in: sitemap).first { $0.hasSuffix(suffix) }
    }

    static func matches(_ pattern: String, in text: String) -> [String] {
        let expression = try! NSRegularExpression(pattern: pattern)
        return expression.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap {
            Range($0.range(at: 1), in: text).map { String(text[$0]) }
        }
    }

    func etag(_ url: String) -> String? { etags.withLock { $0[url] } }
    func remember(_ url: String, etag: String?) {
        guard let etag else { return }
        etags.withLock { $0[url] = etag }
    }
}
