import BlogModel
import Foundation
import Site
#if canImport(Glibc)
import Glibc
#endif

/// A fingerprint of the names, sizes, modification and change times and inodes of every source
/// (`lectern.yml`, `content/`, `theme/`, `static/`): `serve --watch` rebuilds when it changes,
/// and `lectern build` returns at once when it did not (see `BuildInputs`). Polling stats is
/// portable, cheap for a blog, and immune to editors that save by renaming. Walked with
/// `DirectoryWalk` (`readdir`, `fstatat`; see there for what Foundation's enumerator cost).
enum SourceStamp {
    static func of(_ root: URL) throws -> ContentHash {
        of(root, content: try ContentTree.walk(root: root))
    }

    /// With `content/` already walked (the build goes on to load from the same walk).
    static func of(_ root: URL, content: ContentTree) -> ContentHash {
        var hash = ContentHash()
        let config = root.appendingPathComponent(SiteConfig.fileName).path
        var info = stat()
        hash.combine(config)
        if stat(config, &info) == 0 { combine(info, into: &hash) } else { hash.combine("-") }
        combine(content.entries, folder: "content", into: &hash)
        for folder in ["theme", "static"] {
            combine(DirectoryWalk.entries(under: root.appendingPathComponent(folder).path), folder: folder, into: &hash)
        }
        return hash
    }

    private static func combine(_ entries: [DirectoryWalk.Entry], folder: String, into hash: inout ContentHash) {
        hash.combine(folder)
        for entry in entries {
            hash.combine(entry.path)
            combine(entry.info, into: &hash)
        }
    }

    /// The status fields as raw bytes: formatting them as text cost more than the walk.
    private static func combine(_ info: stat, into hash: inout ContentHash) {
        let fields: (Int, Int, Int, Int, Int, UInt) = (
            Int(info.st_size), Int(info.st_mtim.tv_sec), Int(info.st_mtim.tv_nsec),
            Int(info.st_ctim.tv_sec), Int(info.st_ctim.tv_nsec), UInt(info.st_ino))
        withUnsafeBytes(of: fields) { hash.combine(bytes: $0.bindMemory(to: UInt8.self)) }
    }
}
