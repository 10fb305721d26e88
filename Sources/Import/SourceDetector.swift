import Foundation

/// Tells what kind of SOURCE `lectern import` was given, from its content rather than its name:
/// a folder is an Eleventy project (its config file, `*.11tydata.*` files or the package),
/// a Jekyll (`_config.yml`, `_posts/`), Zola (`config.toml` with `base_url`) or Hugo site
/// (anything else with Markdown content); a file is a Ghost export (JSON with `db` or
/// `data.posts`), a WordPress export (`wp:wxr_version`), an Atom feed (`<feed`) or an RSS feed.
///
/// ```swift
/// let kind = try SourceDetector.kind(of: URL(fileURLWithPath: "export.xml"))   // .wordpress
/// ```
public enum SourceDetector {
    public static func kind(of url: URL) throws -> SourceKind {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder) else {
            throw ImportError.missing(url.path)
        }
        if isFolder.boolValue { return folderKind(url) }
        guard let data = FileManager.default.contents(atPath: url.path) else { throw ImportError.missing(url.path) }
        return try kind(of: data, name: url.lastPathComponent)
    }

    public static func kind(of data: Data, name: String) throws -> SourceKind {
        let head = String(decoding: data.prefix(8192), as: UTF8.self)
        let start = head.drop(while: { $0.isWhitespace || $0 == "\u{FEFF}" })
        if start.hasPrefix("{") {
            if head.contains("\"db\"") || head.contains("\"posts\"") || head.contains("\"data\"") { return .ghost }
            throw ImportError.unknownKind("\(name) is JSON but not a Ghost export")
        }
        guard start.hasPrefix("<") else { throw ImportError.unknownKind("\(name) is neither XML, JSON nor a folder") }
        if head.contains("wp:wxr_version") || head.contains("wordpress.org/export/") { return .wordpress }
        if let feed = head.range(of: "<feed"), head.range(of: "<rss").map({ feed.lowerBound < $0.lowerBound }) ?? true,
           head.contains("http://www.w3.org/2005/Atom") || head.contains("purl.org/atom") {
            return .atom
        }
        if head.contains("<rss") || head.contains("<rdf:RDF") || head.contains("<channel") { return .rss }
        throw ImportError.unknownKind("\(name) is XML but neither RSS, Atom nor a WordPress export")
    }

    static func folderKind(_ url: URL) -> SourceKind {
        let manager = FileManager.default
        func exists(_ name: String) -> Bool { manager.fileExists(atPath: url.appendingPathComponent(name).path) }
        if EleventyProject.isProject(url) { return .eleventy }
        if exists("_config.yml") || exists("_config.yaml") || exists("_posts") { return .jekyll }
        for name in ["config.toml", "zola.toml"] where exists(name) {
            let text = (try? String(contentsOf: url.appendingPathComponent(name), encoding: .utf8)) ?? ""
            if text.range(of: #"(?m)^\s*base_url\s*="#, options: .regularExpression) != nil { return .zola }
        }
        return .hugo
    }
}
