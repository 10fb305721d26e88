import BlogModel
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
    init(staticFolder: URL, posts: [Post], root: URL) {
        for (relative, file) in Self.walk(staticFolder, skipMarkdown: false) { byPath["/" + relative] = file }
        for post in posts {
            guard let folder = post.bundleFolder else { continue }
            for (relative, file) in Self.walk(root.appendingPathComponent(folder), skipMarkdown: true) {
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
    private static func walk(_ folder: URL, skipMarkdown: Bool) -> [(String, File)] {
        DirectoryWalk.entries(under: folder.path, hidden: false).compactMap { entry in
            guard entry.isFile, !(skipMarkdown && entry.path.hasSuffix(".md")) else { return nil }
            let modified = Double(entry.info.st_mtim.tv_sec) + Double(entry.info.st_mtim.tv_nsec) / 1e9
            return (entry.path, File(url: folder.appendingPathComponent(entry.path), stamp: "\(entry.info.st_size)|\(modified)"))
        }
    }
}
