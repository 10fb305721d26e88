import Foundation

/// `sitemap.xml` (sitemaps.org 0.9) and `robots.txt` pointing at it.
struct SitemapRenderer {
    let model: SiteModel

    /// Every HTML page with the date its content last changed.
    func sitemap(listPaths: [(path: String, lastModified: Date?)]) -> String {
        var xml = XMLWriter()
        xml.start("urlset", ["xmlns": "http://www.sitemaps.org/schemas/sitemap/0.9"])
        for entry in listPaths {
            xml.start("url")
            xml.element("loc", model.config.absoluteURL(entry.path))
            if let date = entry.lastModified { xml.element("lastmod", model.dates.iso8601(date)) }
            xml.end()
        }
        for post in model.posts {
            xml.start("url")
            xml.element("loc", model.config.absoluteURL(post.path))
            xml.element("lastmod", model.dates.iso8601(post.lastModified))
            xml.end()
        }
        for page in model.pages {
            xml.start("url")
            xml.element("loc", model.config.absoluteURL(page.path))
            xml.end()
        }
        return xml.finish()
    }

    func robots() -> String {
        "User-agent: *\nAllow: /\n\nSitemap: \(model.config.absoluteURL("/sitemap.xml"))\n"
    }
}
