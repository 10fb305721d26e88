/// Content types and cache lifetimes by file extension.
enum MediaType {
    private static let types: [String: String] = [
        "html": "text/html; charset=utf-8", "htm": "text/html; charset=utf-8",
        "css": "text/css; charset=utf-8", "js": "text/javascript; charset=utf-8",
        "mjs": "text/javascript; charset=utf-8", "json": "application/json; charset=utf-8",
        "xml": "application/xml; charset=utf-8", "txt": "text/plain; charset=utf-8",
        "md": "text/markdown; charset=utf-8", "svg": "image/svg+xml; charset=utf-8",
        "png": "image/png", "jpg": "image/jpeg", "jpeg": "image/jpeg", "gif": "image/gif",
        "webp": "image/webp", "avif": "image/avif", "ico": "image/x-icon", "woff": "font/woff",
        "woff2": "font/woff2", "ttf": "font/ttf", "otf": "font/otf", "pdf": "application/pdf",
        "mp4": "video/mp4", "webm": "video/webm", "mp3": "audio/mpeg", "ogg": "audio/ogg",
        "wasm": "application/wasm", "webmanifest": "application/manifest+json; charset=utf-8",
        "map": "application/json; charset=utf-8", "zip": "application/zip",
    ]

    /// Feeds have their own types so readers recognise them.
    private static let byName: [String: String] = [
        "feed.xml": "application/atom+xml; charset=utf-8", "rss.xml": "application/rss+xml; charset=utf-8",
        "feed.json": "application/feed+json; charset=utf-8",
    ]

    static func contentType(forPath path: String) -> String {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        if let type = byName[name] { return type }
        guard let dot = name.lastIndex(of: ".") else { return "application/octet-stream" }
        return types[name[name.index(after: dot)...].lowercased()] ?? "application/octet-stream"
    }

    /// Pages and feeds change when comments arrive, so caches revalidate them (cheap: 304);
    /// theme assets carry a content hash in their URL and can be kept for a year.
    static func cacheControl(forPath path: String) -> String {
        if path.hasPrefix("assets/") { return "public, max-age=31536000, immutable" }
        let type = contentType(forPath: path)
        if type.hasPrefix("text/html") || type.contains("xml") || type.contains("json") || type.hasPrefix("text/plain") {
            return "public, no-cache"
        }
        return "public, max-age=86400"
    }
}
