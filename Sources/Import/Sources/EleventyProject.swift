import Foundation

/// What the importer needs from an Eleventy project: its input folder, the folders that are
/// not content (includes, layouts, data, output), the folders it copies as they are, and each
/// content file's data cascade (directory and template data files in JSON, then the file's
/// own front matter).
///
/// Eleventy's configuration is JavaScript, which the importer does not run: the few settings
/// it needs (`dir.input`, `dir.output`, `addPassthroughCopy(…)`) are read from the config's
/// text, and a data file in JavaScript (`*.11tydata.js`) is named in the report, because what
/// it computes (often the permalink) cannot be known without running it.
struct EleventyProject {
    var root: URL
    var input: URL
    /// Folders under `input` that hold no pages (`_includes`, `_layouts`, `_data`, the output).
    var excluded: Set<String>
    /// Folders whose files the old site served as they are (passthrough copies), by the URL
    /// path they were served under.
    var passthrough: [(folder: URL, servedAt: String)] = []
    /// Each data file read once: every post of a folder shares its directory data.
    private let files = DataFiles()

    private final class DataFiles {
        private var read: [String: Data?] = [:]

        func contents(_ url: URL) -> Data? {
            if let known = read[url.path] { return known }
            let data = FileManager.default.contents(atPath: url.path)
            read[url.path] = data
            return data
        }
    }
    /// The site's address as its global data states it (`_data/metadata.json` `url`, the shape
    /// Eleventy's starter blog uses, or `_data/site.json`).
    var siteURL: String?

    static let configNames = [".eleventy.js", ".eleventy.cjs", ".eleventy.mjs", "eleventy.config.js", "eleventy.config.cjs",
                              "eleventy.config.mjs", "eleventy.config.ts", "eleventy.config.mts", "eleventy.config.cts"]

    /// Whether `root` is an Eleventy project: a config file, a `*.11tydata.*` file, or
    /// `@11ty/eleventy` among package.json's dependencies.
    static func isProject(_ root: URL) -> Bool {
        let manager = FileManager.default
        if configNames.contains(where: { manager.fileExists(atPath: root.appendingPathComponent($0).path) }) { return true }
        if let package = try? String(contentsOf: root.appendingPathComponent("package.json"), encoding: .utf8),
           package.contains("\"@11ty/eleventy\"") { return true }
        guard let walker = manager.enumerator(at: root, includingPropertiesForKeys: nil,
                                              options: [.skipsHiddenFiles, .skipsPackageDescendants]) else { return false }
        var seen = 0
        for case let url as URL in walker {
            if url.lastPathComponent == "node_modules" { walker.skipDescendants() }
            if url.lastPathComponent.contains(".11tydata.") { return true }
            seen += 1
            if seen > 5_000 { break }
        }
        return false
    }

    static func load(_ root: URL) -> EleventyProject {
        let config = configNames.lazy.compactMap { try? String(contentsOf: root.appendingPathComponent($0), encoding: .utf8) }.first ?? ""
        let package = (try? String(contentsOf: root.appendingPathComponent("package.json"), encoding: .utf8)) ?? ""
        func setting(_ name: String) -> String? {
            Patterns.matches(#"\b\#(name)\s*:\s*["'`]([^"'`]+)["'`]"#, in: config).first?[1]
        }
        let inputName = setting("input") ?? Patterns.matches(#"--input[= ]["']?([^\s"'&]+)"#, in: package).first?[1] ?? "."
        let input = root.appendingPathComponent(inputName).standardizedFileURL
        let outputName = setting("output") ?? Patterns.matches(#"--output[= ]["']?([^\s"'&]+)"#, in: package).first?[1] ?? "_site"
        var excluded: Set<String> = ["node_modules", "_site", outputName.trimmingCharacters(in: CharacterSet(charactersIn: "./"))]
        for (name, fallback) in [("includes", "_includes"), ("layouts", "_layouts"), ("data", "_data")] {
            excluded.insert((setting(name) ?? fallback).trimmingCharacters(in: CharacterSet(charactersIn: "./")))
        }
        var project = EleventyProject(root: root, input: input, excluded: excluded)
        let dataFolder = input.appendingPathComponent(setting("data") ?? "_data")
        for name in ["metadata", "site", "meta"] {
            for suffix in [".json", ".js", ".cjs", ".mjs"] {
                guard project.siteURL == nil,
                      let text = try? String(contentsOf: dataFolder.appendingPathComponent(name + suffix), encoding: .utf8) else { continue }
                project.siteURL = Patterns.matches(#"["']?\b(?:url|baseURL|baseUrl|siteUrl|siteURL)["']?\s*:\s*["'`](https?://[^"'`]+)["'`]"#,
                                                   in: text).first?[1]
            }
        }
        // `addPassthroughCopy("src/img")` serves src/img/x at /img/x (the input folder dropped);
        // `addPassthroughCopy({ "public": "/" })` serves public/x at /x.
        for match in Patterns.matches(#"addPassthroughCopy\(\s*["'`]([^"'`*]+)"#, in: config) {
            let folder = root.appendingPathComponent(match[1]).standardizedFileURL
            project.passthrough.append((folder, project.servedPath(of: folder)))
        }
        for match in Patterns.matches(#"addPassthroughCopy\(\s*\{([^}]*)\}"#, in: config) {
            for pair in Patterns.matches(#"["'`]([^"'`*]+)["'`]\s*:\s*["'`]([^"'`]*)["'`]"#, in: match[1]) {
                let served = "/" + pair[2].trimmingCharacters(in: CharacterSet(charactersIn: "/"))
                project.passthrough.append((root.appendingPathComponent(pair[1]).standardizedFileURL, served))
            }
        }
        return project
    }

    /// The URL path a folder under the project is served at when copied through (its path
    /// relative to the input folder, or to the project when it is outside the input).
    private func servedPath(of folder: URL) -> String {
        let path = folder.path
        for base in [input.path, root.standardizedFileURL.path] where path == base || path.hasPrefix(base + "/") {
            return "/" + String(path.dropFirst(base.count)).trimmingCharacters(in: CharacterSet(charactersIn: "/"))
        }
        return "/" + folder.lastPathComponent
    }

    /// A content file's data cascade, lowest priority first: each folder's directory data
    /// (`posts/posts.json`, `posts/posts.11tydata.json`, `posts/posts.11tydata.js`) from the
    /// input down, then the file's template data (`post.11tydata.json`). Arrays are joined and
    /// mappings merged, as Eleventy's deep data merge does; the caller merges the front matter
    /// over it. A permalink set in `eleventyComputed` comes back apart: it wins over the front
    /// matter.
    struct Cascade {
        var fields: [String: Any] = [:]
        var computedPermalink: String?
        /// Data files whose permalink the importer cannot read (JavaScript beyond the simple
        /// shapes `EleventyScriptData` reads, or JSON that does not parse).
        var unreadable: [String] = []
    }

    func data(for file: URL) -> Cascade {
        var cascade = Cascade()
        let relative = String(file.standardizedFileURL.path.dropFirst(input.path.count)).trimmingCharacters(in: CharacterSet(charactersIn: "/"))
        var folders = relative.split(separator: "/").map(String.init)
        let fileName = folders.removeLast()
        let stem = (fileName as NSString).deletingPathExtension
        var candidates: [(folder: URL, name: String)] = []
        var folder = input
        for name in folders {
            folder = folder.appendingPathComponent(name)
            candidates.append((folder, name))
        }
        candidates.append((file.deletingLastPathComponent(), stem))
        for (folder, name) in candidates {
            for suffix in [".json", ".11tydata.json"] {
                let url = folder.appendingPathComponent(name + suffix)
                guard let data = files.contents(url) else { continue }
                if let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] {
                    if let computed = object["eleventyComputed"] as? [String: Any], let permalink = computed["permalink"] as? String {
                        cascade.computedPermalink = permalink
                    }
                    cascade.fields = Self.merge(cascade.fields, object)
                } else {
                    cascade.unreadable.append(relativePath(url))
                }
            }
            for suffix in [".11tydata.js", ".11tydata.cjs", ".11tydata.mjs"] {
                let url = folder.appendingPathComponent(name + suffix)
                guard let data = files.contents(url) else { continue }
                guard let text = String(data: data, encoding: .utf8) else {
                    cascade.unreadable.append(relativePath(url))   // there, but not text: said, not skipped
                    continue
                }
                let script = EleventyScriptData(text)
                cascade.fields = Self.merge(cascade.fields, script.fields)
                switch script.permalink {
                case .none: break
                case .template(let template, let computed):
                    if computed { cascade.computedPermalink = template } else { cascade.fields["permalink"] = template }
                case .unreadable: cascade.unreadable.append(relativePath(url))
                }
            }
        }
        return cascade
    }

    func relativePath(_ url: URL) -> String {
        let base = root.standardizedFileURL.path + "/"
        let path = url.standardizedFileURL.path
        return path.hasPrefix(base) ? String(path.dropFirst(base.count)) : path
    }

    /// `over` merged into `base`: mappings merged key by key, arrays joined (without repeats),
    /// anything else replaced.
    static func merge(_ base: [String: Any], _ over: [String: Any]) -> [String: Any] {
        var result = base
        for (key, value) in over {
            switch (result[key], value) {
            case let (old as [String: Any], new as [String: Any]): result[key] = merge(old, new)
            case let (old as [Any], new as [Any]): result[key] = joined(old, new)
            case let (old as [Any], new as String) where key == "tags": result[key] = joined(old, [new])
            case let (old as String, new as [Any]) where key == "tags": result[key] = joined([old], new)
            case let (old as String, new as String) where key == "tags": result[key] = joined([old], [new])
            default: result[key] = value
            }
        }
        return result
    }

    private static func joined(_ first: [Any], _ second: [Any]) -> [Any] {
        var seen = Set<String>()
        return (first + second).filter { seen.insert(String(describing: $0)).inserted }
    }
}
