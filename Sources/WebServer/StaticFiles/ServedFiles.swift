import Foundation
import Site
import Synchronization

/// The static index being served, with the redirects the build wrote (`aliases:`), replaced
/// whole after each rebuild.
public final class ServedFiles: Sendable {
    public let publicFolder: URL
    /// Set for `serve --watch`: pages carry its script, and each reload tells open pages.
    public let liveReload: LiveReload?
    private let current: Mutex<(index: StaticIndex, redirects: [String: String])>

    /// The `Link` field every page carries, as the configuration says at each load (the
    /// webmention endpoint; nil: none).
    let pageLink: @Sendable () -> String?

    public init(publicFolder: URL, liveReload: LiveReload? = nil, pageLink: @escaping @Sendable () -> String? = { nil }) throws {
        self.publicFolder = publicFolder
        self.liveReload = liveReload
        self.pageLink = pageLink
        self.current = Mutex((try StaticIndex.load(from: publicFolder, liveReload: liveReload != nil, pageLink: pageLink()),
                              Redirects.load(publicFolder: publicFolder)))
    }

    var index: StaticIndex { current.withLock { $0.index } }

    /// Where an old path (front matter `aliases:`) redirects, if it does: written with or
    /// without its trailing slash (old sites served both, and links were shared both ways),
    /// unless a file of the site answers the spelling asked for.
    func redirect(_ path: String) -> String? {
        current.withLock { Self.redirect(path, index: $0.index, redirects: $0.redirects) }
    }

    /// The index being served, or nil when `path` redirects: both under one lock, for the fast path.
    func indexUnlessRedirected(_ path: String) -> StaticIndex? {
        current.withLock { state in
            state.redirects.isEmpty || Self.redirect(path, index: state.index, redirects: state.redirects) == nil ? state.index : nil
        }
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
        current.withLock { $0 = (fresh, redirects) }
        if tellPages { liveReload?.siteChanged() }
    }
}
