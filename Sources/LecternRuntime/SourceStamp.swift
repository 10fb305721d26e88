import Foundation
import Site
#if canImport(Glibc)
import Glibc
#endif

/// A fingerprint of the names, sizes, modification and change times of every source
/// (`lectern.yml`, `content/`, `theme/`, `static/`): `serve --watch` rebuilds when it changes,
/// and `lectern build` returns at once when it did not (see `BuildInputs`). Polling stats is
/// portable, cheap for a blog, and immune to editors that save by renaming. Walked with
/// `DirectoryWalk` (`readdir`, `fstatat`; see there for what Foundation's enumerator cost).
enum SourceStamp {
    static func of(_ root: URL) -> ContentHash {
        var hash = ContentHash()
        hash.combine(describe(root.appendingPathComponent(SiteConfig.fileName).path))
        for folder in ["content", "theme", "static"] { walk(root.appendingPathComponent(folder).path, into: &hash) }
        return hash
    }

    private static func describe(_ path: String) -> String {
        var info = stat()
        guard stat(path, &info) == 0 else { return "\(path)|-" }
        return "\(path)|\(describe(info))"
    }

    private static func describe(_ info: stat) -> String {
        "\(info.st_size)|\(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec)|\(info.st_ctim.tv_sec).\(info.st_ctim.tv_nsec)|\(info.st_ino)"
    }

    private static func walk(_ path: String, into hash: inout ContentHash) {
        for entry in DirectoryWalk.entries(under: path) { hash.combine("\(path)/\(entry.path)|\(describe(entry.info))") }
    }
}
