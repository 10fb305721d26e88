import Foundation
import Site
import Synchronization

/// The static index being served, with the redirects the build wrote (`aliases:`), replaced
/// whole after each rebuild.
public final class ServedFiles: Sendable {
    public let publicFolder: URL
    /// Set for `serve --watch`: pages carry its script, and each reload tells open pages.
    public let liveReload: LiveReload?
    private let current: Mutex<Snapshot>

    /// What one load made: the index, the redirects, and the plain request paths that answer
    /// with a file, for the fast path.
    private struct Snapshot {
        let index: StaticIndex
        let redirects: [String: String]
        /// Every path with no escape, dot-segment or backslash (`RequestPath.isPlain`) that
        /// `RequestPath.resolve` turns into a file and that is not an alias: `/2025/post/` and
        /// `/2025/post/index.html`, `/feed.xml`. One lookup answers what `resolve` and
        /// `redirect` answer together.
        let plainPaths: [String: StaticFile]

        init(index: StaticIndex, redirects: [String: String]) {
            self.index = index
            self.redirects = redirects
            var paths: [String: StaticFile] = [:]
            paths.reserveCapacity(index.count * 2)
            for (key, file) in index.files {
                var spellings = ["/" + key]
                if key == "index.html" || key.hasSuffix("/index.html") { spellings.append("/" + key.dropLast("index.html".count)) }
                for path in spellings where RequestPath.isPlain(path) && redirects[path] == nil { paths[path] = file }
            }
            plainPaths = paths
        }
    }

    /// The `Link` field every page carries, as the configuration says at each load (the
    /// webmention endpoint; nil: none).
    let pageLink: @Sendable () -> String?

    public init(publicFolder: URL, liveReload: LiveReload? = nil, pageLink: @escaping @Sendable () -> String? = { nil }) throws {
        self.publicFolder = publicFolder
        self.liveReload = liveReload
        self.pageLink = pageLink
        self.current = Mutex(Snapshot(index: try StaticIndex.load(from: publicFolder, liveReload: liveReload != nil, pageLink: pageLink()),
                                      redirects: Redirects.load(publicFolder: publicFolder)))
    }

    var index: StaticIndex { current.withLock { $0.index } }

    /// Where an old path (front matter `aliases:`) redirects, if it does: written with or
    /// without its trailing slash (old sites served both, and links were shared both ways),
    /// unless a file of the site answers the spelling asked for.
    func redirect(_ path: String) -> String? {
        current.withLock { Self.redirect(path, index: $0.index, redirects: $0.redirects) }
    }

    /// The file a plain path (as sent, without its query) answers with, unless it redirects;
    /// nil for every other path, which the full stack resolves. One lock and one lookup: the
    /// fast path's own resolving, redirect check and URI parsing were 7 % of the server's CPU
    /// under wrk (perf, bench/serve).
    func file(atPlainPath path: String) -> StaticFile? {
        current.withLock { $0.plainPaths[path] }
    }

    private static func redirect(_ path: String, index: StaticIndex, redirects: [String: String]) -> String? {
        let key = Redirects.key(path)
        if let target = redirects[key] { return target }
        guard key.count > 1 else { return nil }
        let other = key.hasSuffix("/") ? String(key.dropLast()) : key + "/"
        guard let target = redirects[other] else { return nil }
        if case .file = RequestPath.resolve(path, exists: { index[$0] != nil }) { return nil }
        return target
    }

    /// Number of files being served.
    public var fileCount: Int { index.count }

    /// Bytes of pages (and their gzip twins) held in memory.
    public var heldBytes: Int { index.heldBytes }

    /// Re-reads `public/` (after a build swapped a new tree in); `tellPages`: open pages reload.
    public func reload(tellPages: Bool = true) throws {
        let fresh = try StaticIndex.load(from: publicFolder, reusing: index, liveReload: liveReload != nil, pageLink: pageLink())
        let redirects = Redirects.load(publicFolder: publicFolder)
        let snapshot = Snapshot(index: fresh, redirects: redirects)  // made before the lock: lookups wait only for the swap
        current.withLock { $0 = snapshot }
        if tellPages { liveReload?.siteChanged() }
    }
}
