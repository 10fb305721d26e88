import BlogModel
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Every entry under `content/` with its status, walked once per build: the build's source stamp
/// and the loader (which files are posts, which changed since the last build) share one walk
/// instead of stat-ing each source three times.
public struct ContentTree: Sendable {
    /// Relative to `content/`, hidden ones included (the stamp sees an editor's swap file too).
    public let entries: [DirectoryWalk.Entry]

    public static let empty = ContentTree(entries: [])

    /// A folder directly under `content/` that is a symbolic link is entered as well (a writer may
    /// keep `content/posts` elsewhere); links further down are listed, not entered.
    public static func walk(root: URL) throws -> ContentTree {
        let folder = root.appendingPathComponent("content").path
        var info = stat()
        guard stat(folder, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else { return .empty }
        guard let directory = opendir(folder) else {
            throw SiteError.io(path: "content", message: "cannot list the folder: \(String(cString: strerror(errno)))")
        }
        closedir(directory)
        var entries: [DirectoryWalk.Entry] = []
        for entry in DirectoryWalk.entries(under: folder) {
            entries.append(entry)
            guard entry.isLink, entry.isFolder, !entry.isHidden, !entry.path.contains("/") else { continue }
            entries += DirectoryWalk.entries(under: folder + "/" + entry.path).map {
                DirectoryWalk.Entry(path: entry.path + "/" + $0.path, info: $0.info, isLink: $0.isLink, isHidden: $0.isHidden)
            }
        }
        return ContentTree(entries: entries)
    }

    /// The folders directly under `content/` (links to folders included), hidden ones skipped.
    var topFolders: [String] {
        entries.filter { $0.isFolder && !$0.isHidden && !$0.path.contains("/") }.map(\.path)
    }

    /// The visible regular files below `content/<folder>/`, as `content/<folder>/…` with their
    /// status, in path order.
    func files(in folder: String) -> [(path: String, info: stat)] {
        let prefix = folder + "/"
        return entries.filter { $0.isFile && !$0.isHidden && $0.path.hasBytePrefix(prefix) }
            .map { ("content/" + $0.path, $0.info) }
    }
}
