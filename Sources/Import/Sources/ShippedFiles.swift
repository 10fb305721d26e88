import Foundation
import Site

/// The files a post in a site folder links that the folder itself ships — images, PDFs,
/// downloads — so they move in with the post instead of pointing at the old site:
///
/// - root-relative (`/images/x.png`, `src="/img/x.png"` in a shortcode), looked for in each
///   folder the old site served as is (`StaticSiteConfig.staticRoots`);
/// - absolute on the old site's own address (`https://old.example/img/x.png`), the same way;
/// - relative (`img/x.png`, `../assets/x.png`), next to the post's source file.
///
/// Each is copied to the same path under the new site's `static/` and the post's reference
/// rewritten to that path. A reference to a file the source lacks is reported.
struct ShippedFiles {
    var files: [ImportedItem.Asset] = []
    /// A reference as the post writes it → the path the new site serves the copy at.
    var rewrites: [String: String] = [:]
    var missing: [String] = []

    /// Extensions of pages rather than files: a link to one is a link, not a download.
    private static let pageExtensions: Set<String> = ["", "html", "htm", "php", "asp", "aspx", "md", "markdown", "xml"]
    /// What a link (not an image) may name to be a file to copy: a link to `example.org` is
    /// a mistyped address, not a file.
    private static let fileExtensions: Set<String> = [
        "png", "jpg", "jpeg", "gif", "svg", "webp", "avif", "ico", "bmp", "tif", "tiff", "pdf", "txt", "csv", "zip", "gz", "tgz",
        "bz2", "xz", "7z", "tar", "mp3", "m4a", "ogg", "oga", "wav", "flac", "mp4", "m4v", "webm", "mov", "ogv", "epub",
        "doc", "docx", "odt", "ppt", "pptx", "odp", "key", "xls", "xlsx", "ods", "json", "vtt", "srt", "ics", "vcf", "asc", "pub",
    ]

    static func find(body source: String, image: String?, file: URL, config: StaticSiteConfig, boundary: SourceBoundary,
                     bundle: Bool) -> ShippedFiles {
        var found = ShippedFiles()
        let body = Patterns.replace(#"\{\{\s*site\.(baseurl|url)\s*\}\}"#, in: source) { _ in "" }
        // Markdown images the source lacks are reported by `MissingImages`, with what became of them.
        let images = Patterns.matches(#"!\[[^\]]*\]\(\s*<?([^)\s>]+)"#, in: body).map { $0[1] }
            // and the image a template tag names (`{% figure "a.png", "alt" %}`), which becomes one
            + Patterns.matches(#"\{%-?\s*\w+\s+["']([^"'\n]+\.(?:png|jpe?g|gif|svg|webp|avif))["']"#, in: body).map { $0[1] }
        var references = images
        references += Patterns.matches(#"\bsrc\s*=\s*["']([^"']+)["']"#, in: body).map { $0[1] }
        // Links and reference definitions to files (a PDF, an archive): pages are links.
        // Reference definitions (`[x]: /a.png`) are read with the images: `MissingImages` reports theirs.
        let definitions = Patterns.matches(#"(?m)^ {0,3}\[[^\]\n]+\]:[ \t]*<?([^>\s]+)"#, in: body).map { $0[1] }
        let links = Patterns.matches(#"(?<!!)\]\(\s*<?([^)\s>]+)"#, in: body).map { $0[1] } + definitions
            + Patterns.matches(#"\bhref\s*=\s*["']([^"']+)["']"#, in: body).map { $0[1] }
        references += links.filter { fileExtensions.contains(Self.fileExtension($0)) }
        if let image { references.append(image) }
        var seen = Set<String>()
        for reference in references where seen.insert(reference).inserted {
            guard let (candidates, served) = locations(of: reference, file: file, config: config, bundle: bundle) else { continue }
            guard let url = candidates.first(where: { FileManager.default.fileExists(atPath: $0.path) && !isFolder($0) }) else {
                if !images.contains(reference) && !definitions.contains(reference) { found.missing.append(reference) }
                continue
            }
            let name = served(url)
            // Lectern's own theme files are at /assets/: a blog's file there would clash with them.
            if name.hasPrefix("assets/"), Theme.embeddedFiles[String(name.dropFirst("assets/".count))] != nil {
                found.missing.append(reference)
                continue
            }
            var asset = ImportedItem.Asset(source: url, name: name)
            asset.refusal = boundary.refusal(url)
            if !found.files.contains(where: { $0.name == name }) { found.files.append(asset) }
            // The link names the copy as a URL path (a space is %20), its query and fragment kept.
            let encoded = "/" + (name.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? name)
            let suffix = reference.firstIndex(where: { $0 == "?" || $0 == "#" }).map { String(reference[$0...]) } ?? ""
            if encoded + suffix != reference { found.rewrites[reference] = encoded + suffix }
        }
        return found
    }

    /// Where a reference's file may be in the source, and the path (from the site's root,
    /// without the leading `/`) it gets on the new site; nil for what names no file of the old
    /// site (another site, a page, a fragment, a template expression, a bundle's own file).
    private static func locations(of reference: String, file: URL, config: StaticSiteConfig,
                                  bundle: Bool) -> ([URL], (URL) -> String)? {
        var path = reference.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
        path = path.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
        guard !path.isEmpty, !path.contains("{{"), !path.contains("{%"), !path.hasPrefix("//") else { return nil }
        if UnsafeMarkup.scheme(of: path) != nil {
            guard let base = config.baseURL, let own = ownPath(path, base: base) else { return nil }
            path = own
        }
        path = path.removingPercentEncoding ?? path
        if path.hasPrefix("/") {
            var relative = String(path.dropFirst())
            if !config.basePath.isEmpty, path.hasPrefix(config.basePath + "/") {
                relative = String(path.dropFirst(config.basePath.count + 1))
            }
            guard !relative.isEmpty, !relative.split(separator: "/").contains("..") else { return nil }
            var candidates: [URL] = []
            for (folder, servedAt) in config.staticRoots {
                let prefix = servedAt == "/" ? "" : String(servedAt.dropFirst()) + "/"
                guard prefix.isEmpty || relative.hasPrefix(prefix) else { continue }
                candidates.append(folder.appendingPathComponent(String(relative.dropFirst(prefix.count))))
            }
            return (candidates, { _ in relative })
        }
        // A bundle's relative files travel with it already.
        guard !bundle, !pageExtensions.contains(fileExtension(path)) else { return nil }
        let target = file.deletingLastPathComponent().appendingPathComponent(path).standardizedFileURL
        let root = config.root.standardizedFileURL.path + "/"
        guard target.path.hasPrefix(root) else { return nil }
        let content = config.contentRoot.standardizedFileURL.path + "/"
        let base = target.path.hasPrefix(content) ? content : root
        return ([target], { _ in String(target.path.dropFirst(base.count)) })
    }

    /// The path of an absolute URL on the old site's own address, else nil.
    private static func ownPath(_ url: String, base: String) -> String? {
        func hostAndPath(_ text: String) -> (String, String)? {
            guard let range = text.range(of: "://") else { return nil }
            let rest = text[range.upperBound...]
            let slash = rest.firstIndex(of: "/") ?? rest.endIndex
            return (rest[..<slash].lowercased().replacingOccurrences(of: "www.", with: ""), String(rest[slash...]))
        }
        guard let (host, path) = hostAndPath(url), let (baseHost, _) = hostAndPath(base), host == baseHost else { return nil }
        return path.isEmpty ? nil : path
    }

    private static func fileExtension(_ reference: String) -> String {
        let path = reference.split(whereSeparator: { $0 == "?" || $0 == "#" }).first.map(String.init) ?? ""
        guard !path.hasSuffix("/"), let last = path.split(separator: "/").last, let dot = last.lastIndex(of: ".") else { return "" }
        return last[last.index(after: dot)...].lowercased()
    }

    private static func isFolder(_ url: URL) -> Bool {
        (try? url.resourceValues(forKeys: [.isDirectoryKey]).isDirectory) == true
    }
}
