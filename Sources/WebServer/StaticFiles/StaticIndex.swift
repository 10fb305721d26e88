import BlogModel
import Dates
import Foundation
import Parallel
import HTTPSignatures
import Hummingbird
import Site
#if canImport(Glibc)
import Glibc
#endif

/// The whole built site in memory, keyed by its path relative to `public/`.
///
/// Requests are answered by exact lookup in this index, never by joining a request path onto
/// the file system, so `..`, encoded separators and symlinks cannot reach outside `public/`.
struct StaticIndex: Sendable {
    /// Files larger than this are streamed from disk instead of kept in memory.
    static let memoryLimit = 8 * 1024 * 1024

    /// Files read from disk at each request instead of kept in memory: a post's older pages of
    /// comments (`/2025/hello/comments/3/`) and the comments JSON (`/comments/2025/hello.json`,
    /// polled, and answered 304 from memory). They grow with every comment the blog ever had;
    /// the pages readers mostly open (the post with its newest comments) stay in memory, so the
    /// server's memory does not grow with the blog's history.
    static func isKeptOnDisk(_ relative: String) -> Bool {
        if relative.hasPrefix("comments/") { return relative.hasSuffix(".json") }
        guard relative.hasSuffix("/index.html"), let range = relative.range(of: "/comments/", options: .backwards) else { return false }
        let page = relative[range.upperBound...].dropLast("/index.html".count)
        return !page.isEmpty && page.allSatisfy(\.isASCII) && page.allSatisfy(\.isNumber)
    }

    private(set) var files: [String: StaticFile] = [:]
    /// Size and modification time of each file (and `.gz` twin) as loaded, so a reload after a
    /// small rebuild reads only the files that changed.
    private(set) var stamps: [String: FileStamp] = [:]
    /// The `Link` field its pages were given.
    private(set) var pageLink: String?

    struct FileStamp: Equatable, Sendable {
        let size: Int
        let modified: Double
    }

    init() {}

    subscript(path: String) -> StaticFile? { files[path] }

    var count: Int { files.count }

    /// Bytes of bodies and gzip twins kept in memory.
    var heldBytes: Int { files.values.reduce(0) { $0 + ($1.body?.readableBytes ?? 0) + ($1.gzip?.readableBytes ?? 0) } }

    /// Reads every file under `folder`, skipping dot-files and anything that resolves outside it.
    /// A `name.gz` is kept as the compressed twin of `name`, and is not served on its own.
    /// Files whose stamp (and whose twin's stamp) match `previous` are taken from it unread.
    /// With `liveReload`, every `.html` page gets its script (`LiveReload.inject`), is kept in
    /// memory, and is served without its gzip twin, whose bytes lack it.
    /// `pageLink` is a `Link` field every `.html` page carries (the webmention endpoint).
    static func load(from folder: URL, reusing previous: StaticIndex? = nil, liveReload: Bool = false,
                     pageLink: String? = nil) throws -> StaticIndex {
        var index = StaticIndex()
        index.pageLink = pageLink
        let root = folder.resolvingSymlinksInPath().standardizedFileURL.path
        var compressed: [String: ByteBuffer] = [:]
        var compressedOnDisk: [String: (path: String, size: Int)] = [:]
        var entries: [(String, String, Date, Int)] = []
        // `readdir` and `fstatat` (`DirectoryWalk`, what builds stamp sources with): listing the
        // 1,000-post site through `FileManager`'s enumerator and `URL.resourceValues` was 22 % of a
        // restart's CPU (perf, bench/start), all of it before the first answer.
        // What lies on another file system (a folder mounted inside public/) is left out, as
        // FileManager's walk (FTS_XDEV) left it out.
        var rootInfo = stat()
        let device = stat(root, &rootInfo) == 0 ? rootInfo.st_dev : nil
        for entry in DirectoryWalk.entries(under: root, hidden: false)
        where entry.isFile && (entry.isLink || device == nil || entry.info.st_dev == device) {
            var path = root + "/" + entry.path
            if entry.isLink {
                // Only a link needs resolving, and checking that it stays inside public/.
                path = URL(fileURLWithPath: path).resolvingSymlinksInPath().standardizedFileURL.path
                guard path.hasPrefix(root + "/") else { continue }
            }
            let relative = entry.path
            let modified = Double(entry.info.st_mtim.tv_sec) + Double(entry.info.st_mtim.tv_nsec) / 1_000_000_000
            let stamp = FileStamp(size: Int(entry.info.st_size), modified: modified)
            index.stamps[relative] = stamp
            if relative.hasSuffix(".gz") {
                let original = String(relative.dropLast(3))
                if isKeptOnDisk(original) {
                    compressedOnDisk[original] = (path, stamp.size)
                } else if previous?.stamps[relative] == stamp, let kept = previous?.files[original]?.gzip {
                    compressed[original] = kept
                } else if let data = FileManager.default.contents(atPath: path) {
                    compressed[original] = ByteBuffer(bytes: data)
                }
                continue
            }
            entries.append((relative, path, Date(timeIntervalSince1970: modified), stamp.size))
        }
        // Read and hashed on every core: the files of a 1,000-post blog were a third of a
        // restart's time read one after another.
        let made = ParallelMap.map(entries) { relative, path, modified, size -> StaticFile? in
            if let previous, previous.pageLink == pageLink, let kept = previous.files[relative],
               previous.stamps[relative] == index.stamps[relative],
               previous.stamps[relative + ".gz"] == index.stamps[relative + ".gz"] {
                return kept
            }
            var body: ByteBuffer?
            var hash = ContentHash()
            let injected = liveReload && relative.hasSuffix(".html")
            if (size <= memoryLimit && !isKeptOnDisk(relative)) || injected {
                guard var data = FileManager.default.contents(atPath: path) else { return nil }
                if injected { data = Data(LiveReload.inject(into: Array(data))) }
                data.withUnsafeBytes { hash.combine(bytes: $0.bindMemory(to: UInt8.self)) }
                body = ByteBuffer(bytes: data)
            } else {
                hash.combine("\(size)|\(modified.timeIntervalSince1970)")
            }
            // Whole seconds: Last-Modified has no fractions, and If-Modified-Since compares to it.
            let seconds = Date(timeIntervalSince1970: modified.timeIntervalSince1970.rounded(.down))
            return StaticFile(
                body: body, gzip: body == nil || injected ? nil : compressed[relative],
                gzipOnDisk: body == nil && !injected ? compressedOnDisk[relative] : nil, diskPath: path,
                size: body?.readableBytes ?? size,
                contentType: MediaType.contentType(forPath: relative), etag: "\"\(hash.hex)\"",
                lastModified: seconds, lastModifiedHeader: HTTPDate.format(seconds),
                cacheControl: MediaType.cacheControl(forPath: relative), link: relative.hasSuffix(".html") ? pageLink : nil)
        }
        for ((relative, _, _, _), file) in zip(entries, made) { index.files[relative] = file }
        return index
    }
}
