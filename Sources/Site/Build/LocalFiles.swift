import Foundation

/// Files a build copies as they are: everything under `static/`, and the files beside a post in
/// its page bundle (`content/posts/my-post/index.md` + `diagram.png` → `/2025/my-post/diagram.png`).
/// Keyed by site path (`/images/a.png`), which is also how pages point at them.
struct LocalFiles: Sendable {
    struct File: Sendable {
        let url: URL
        /// Size and modification time: they stand in for the content in fingerprints.
        let stamp: String
    }

    private(set) var byPath: [String: File] = [:]

    init() {}

    /// `static/` at the site root, plus each bundled post's folder.
    init(staticFolder: URL, posts: [Post], root: URL) throws {
        for (relative, file) in try Self.walk(staticFolder, skipMarkdown: false) { byPath["/" + relative] = file }
        for post in posts {
            guard let folder = post.bundleFolder else { continue }
            for (relative, file) in try Self.walk(root.appendingPathComponent(folder), skipMarkdown: true) {
                byPath[post.path + relative] = file
            }
        }
    }

    /// The file at a site path as a page refers to it (`/a%20b.png?v=2` finds `/a b.png`).
    func file(at src: String) -> File? {
        guard src.hasPrefix("/"), !src.hasPrefix("//") else { return nil }
        let path = String(src.split(separator: "?", maxSplits: 1).first ?? "").split(separator: "#", maxSplits: 1).first ?? ""
        return byPath[path.removingPercentEncoding ?? String(path)]
    }

    /// Regular files below `folder` (hidden ones skipped), by path relative to it, sorted.
    private static func walk(_ folder: URL, skipMarkdown: Bool) throws -> [(String, File)] {
        let keys: [URLResourceKey] = [.isRegularFileKey, .fileSizeKey, .contentModificationDateKey]
        guard let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: keys,
                                                          options: [.skipsHiddenFiles]) else { return [] }
        let prefix = folder.standardizedFileURL.path + "/"
        var files: [(String, File)] = []
        for case let url as URL in walker where !(skipMarkdown && url.pathExtension == "md") {
            let values = try url.resourceValues(forKeys: Set(keys))
            guard values.isRegularFile == true else { continue }
            let relative = String(url.standardizedFileURL.path.dropFirst(prefix.count))
            let stamp = "\(values.fileSize ?? 0)|\(values.contentModificationDate?.timeIntervalSince1970 ?? 0)"
            files.append((relative, File(url: url, stamp: stamp)))
        }
        return files.sorted { $0.0 < $1.0 }
    }
}
