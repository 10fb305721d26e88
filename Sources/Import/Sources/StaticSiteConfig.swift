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
    /// Hugo's languages (`[languages.fr]`, `config/_default/languages.fr.toml`) and the one
    /// served without a prefix; a page in another (`index.fr.md`) was served under `/fr/`.
    var languages: Set<String> = []
    var defaultLanguage = "en"
    /// Jekyll's `exclude:` (names and globs the site never published).
    var excluded: [String] = []
    /// Set for an Eleventy project: its folders and data files.
    var eleventy: EleventyProject?
    /// Every folder whose files the old site served as they are, by the URL path it served
    /// them under (`static/` at `/` for Hugo; Eleventy's passthrough copies), searched in order.
    var staticRoots: [(folder: URL, servedAt: String)] {
        var roots = [(staticRoot, "/")]
        // Hugo and Zola serve the files in a content section at its path (`content/til/a.png` at `/til/a.png`).
        if flavor == .hugo || flavor == .zola { roots.append((contentRoot, "/")) }
        if let eleventy {
            // Not the project folder itself: it holds package.json, .env and the like, never served.
            roots = eleventy.passthrough.map { ($0.folder, $0.servedAt) } + [(eleventy.input, "/")]
        }
        // Folders blogs keep their files in whatever the generator (`public/` is Hugo's output,
        // searched last: a built site holds the files it served).
        for name in ["static", "public", "assets", "images", "img"] {
            let folder = root.appendingPathComponent(name)
            if !roots.contains(where: { $0.0.standardizedFileURL == folder.standardizedFileURL }) {
                roots.append((folder, name == "static" || name == "public" ? "/" : "/" + name))
            }
        }
        return roots
    }

    /// Whether Jekyll's `exclude:` leaves out `relative` (a path from the site folder): an
    /// entry names it, a folder holding it, or a glob matching either.
    func isExcluded(_ relative: String) -> Bool {
        let parts = relative.split(separator: "/").map(String.init)
        let prefixes = parts.indices.map { parts[...$0].joined(separator: "/") }
        return excluded.contains { entry in
            let pattern = entry.trimmingCharacters(in: CharacterSet(charactersIn: "/ "))
            return prefixes.contains { fnmatch(pattern, $0, 0) == 0 }
        }
    }

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
            config.defaultLanguage = (fields["defaultContentLanguage"] as? String)?.lowercased() ?? "en"
            config.languages = Set(((fields["languages"] as? [String: Any]) ?? [:]).keys.map { $0.lowercased() })
            let folder = root.appendingPathComponent("config/_default")
            for name in (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [] {
                if let match = Patterns.matches(#"^languages\.([A-Za-z-]+)\.(toml|ya?ml|json)$"#, in: name).first {
                    config.languages.insert(match[1].lowercased())
                } else if Patterns.matches(#"^languages\.(toml|ya?ml|json)$"#, in: name).first != nil,
                          let table = readConfig(folder.appendingPathComponent(name), config: &config) {
                    config.languages.formUnion(table.keys.map { $0.lowercased() })   // one file, a table per language
                }
            }
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
            config.excluded = (fields["exclude"] as? [Any] ?? []).compactMap { $0 as? String }
            config.timeZone = (fields["timezone"] as? String).flatMap(TimeZone.init(identifier:))
        case .zola:
            if let (fields, _) = firstConfig(root, names: ["config.toml", "zola.toml"], config: &config) {
                config.baseURL = fields["base_url"] as? String
            }
        case .eleventy:
            let project = EleventyProject.load(root)
            config.eleventy = project
            config.contentRoot = project.input
            config.staticRoot = project.input
            // Eleventy reads front-matter and file-name dates as UTC.
            config.timeZone = TimeZone(identifier: "UTC")
            config.baseURL = project.siteURL
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
