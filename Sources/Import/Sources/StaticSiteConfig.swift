import BlogModel
import Foundation
import Site
import Yams

/// What the importer needs from a Hugo, Jekyll or Zola site's configuration: where content and
/// static files are, the site's address, and its permalink patterns (to know the old URLs).
struct StaticSiteConfig {
    var flavor: SourceKind
    var root: URL
    var contentRoot: URL
    /// Files served as they are (`static/`; Jekyll serves the whole site folder).
    var staticRoot: URL
    var baseURL: String?
    /// The path part of the site's address (`/blog` when it lives under one), else "".
    var basePath = ""
    /// Hugo: pattern by section; Jekyll: one pattern under "*".
    var permalinks: [String: String] = [:]
    var lowercasePaths = true
    /// The old site's own time zone (Hugo `timeZone`, Jekyll `timezone`), for dates without an offset.
    var timeZone: TimeZone?
    var warnings: [String] = []

    static func load(_ root: URL, flavor: SourceKind) -> StaticSiteConfig {
        let manager = FileManager.default
        let hasContent = manager.fileExists(atPath: root.appendingPathComponent("content").path)
        var config = StaticSiteConfig(flavor: flavor, root: root,
                                      contentRoot: hasContent && flavor != .jekyll ? root.appendingPathComponent("content") : root,
                                      staticRoot: flavor == .jekyll ? root : root.appendingPathComponent("static"))
        switch flavor {
        case .hugo:
            let names = ["hugo.toml", "hugo.yaml", "hugo.yml", "hugo.json", "config.toml", "config.yaml", "config.yml",
                         "config.json", "config/_default/hugo.toml", "config/_default/config.toml",
                         "config/_default/hugo.yaml", "config/_default/config.yaml"]
            guard let (fields, _) = firstConfig(root, names: names, config: &config) else { break }
            config.baseURL = fields["baseURL"] as? String ?? fields["baseurl"] as? String
            if let dir = fields["contentDir"] as? String { config.contentRoot = root.appendingPathComponent(dir) }
            if let dir = fields["staticDir"] as? String { config.staticRoot = root.appendingPathComponent(dir) }
            config.lowercasePaths = !(fields["disablePathToLower"] as? Bool ?? false)
            config.timeZone = (fields["timeZone"] as? String).flatMap(TimeZone.init(identifier:))
            var permalinks = fields["permalinks"] as? [String: Any] ?? [:]
            if let pages = permalinks["page"] as? [String: Any] { permalinks.merge(pages) { first, _ in first } }
            config.permalinks = permalinks.compactMapValues { $0 as? String }
            if let separate = readConfig(root.appendingPathComponent("config/_default/permalinks.toml"), config: &config) {
                config.permalinks.merge(separate.compactMapValues { $0 as? String }) { first, _ in first }
            }
        case .jekyll:
            guard let (fields, _) = firstConfig(root, names: ["_config.yml", "_config.yaml", "_config.toml"], config: &config) else {
                config.permalinks["*"] = "date"
                break
            }
            config.baseURL = fields["url"] as? String
            config.basePath = (fields["baseurl"] as? String).map { $0 == "/" ? "" : $0 } ?? ""
            config.permalinks["*"] = fields["permalink"] as? String ?? "date"
            config.timeZone = (fields["timezone"] as? String).flatMap(TimeZone.init(identifier:))
        case .zola:
            if let (fields, _) = firstConfig(root, names: ["config.toml", "zola.toml"], config: &config) {
                config.baseURL = fields["base_url"] as? String
            }
        default:
            break
        }
        if config.basePath.isEmpty, let base = config.baseURL, let path = Permalinks.path(of: base) {
            config.basePath = path.hasSuffix("/") ? String(path.dropLast()) : path
        }
        return config
    }

    private static func firstConfig(_ root: URL, names: [String], config: inout StaticSiteConfig) -> ([String: Any], String)? {
        for name in names {
            if let fields = readConfig(root.appendingPathComponent(name), config: &config) { return (fields, name) }
        }
        return nil
    }

    /// A TOML, YAML or JSON configuration file as plain values; nil when absent, a warning when it
    /// does not parse.
    static func readConfig(_ url: URL, config: inout StaticSiteConfig) -> [String: Any]? {
        guard let data = FileManager.default.contents(atPath: url.path), let text = String(data: data, encoding: .utf8) else {
            return nil
        }
        do {
            switch url.pathExtension {
            case "json":
                return try JSONSerialization.jsonObject(with: data) as? [String: Any]
            case "toml":
                let yaml = try TOMLFrontMatter.yaml(fromTOML: text, file: url.lastPathComponent, firstLine: 1)
                return try FrontMatterReader("---\n\(yaml)---\n", file: url.lastPathComponent).fields
            default:
                return try FrontMatterReader("---\n\(text)\n---\n", file: url.lastPathComponent).fields
            }
        } catch {
            config.warnings.append("\(url.lastPathComponent) does not parse (\(error)); old URLs use the defaults")
            return nil
        }
    }
}
