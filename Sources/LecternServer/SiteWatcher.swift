import Foundation
import Logging
import Site

/// Rebuilds the site when a source changes (`lectern serve --watch`) and reloads what is served.
///
/// It polls modification times twice a second: portable, cheap for a blog-sized tree (a
/// thousand files stat in about a millisecond), and immune to editors' rename-on-save tricks.
public struct SiteWatcher: Sendable {
    public let builder: SiteBuilder
    public let site: LiveSite
    public let options: SiteBuilder.Options
    public let logger: Logger
    public var interval: Duration = .milliseconds(500)
    /// Runs after each successful rebuild (the ActivityPub documents are refreshed here).
    public let afterBuild: @Sendable () throws -> Void

    public init(builder: SiteBuilder, site: LiveSite, options: SiteBuilder.Options, logger: Logger,
                afterBuild: @escaping @Sendable () throws -> Void = {}) {
        self.builder = builder
        self.site = site
        self.options = options
        self.logger = logger
        self.afterBuild = afterBuild
    }

    public func run() async {
        var last = stamp()
        while !Task.isCancelled {
            try? await Task.sleep(for: interval)
            let now = stamp()
            guard now != last else { continue }
            last = now
            do {
                let report = try builder.build(options)
                try site.reload()
                try afterBuild()
                logger.info("rebuilt: \(report.written) files written, \(report.reused) reused in \(Int(report.seconds * 1000)) ms")
            } catch {
                // The old site stays live; the writer sees what to fix.
                logger.error("build failed, still serving the previous site: \(error)")
            }
        }
    }

    /// Fingerprint of names, sizes and modification times of every source.
    func stamp() -> ContentHash {
        var hash = ContentHash()
        let root = builder.root
        hash.combine(Self.describe(root.appendingPathComponent(SiteConfig.fileName)))
        for folder in ["content", "theme", "static"] {
            let base = root.appendingPathComponent(folder)
            guard let walker = FileManager.default.enumerator(at: base,
                                                              includingPropertiesForKeys: [.contentModificationDateKey, .fileSizeKey])
            else { continue }
            for case let url as URL in walker { hash.combine(Self.describe(url)) }
        }
        return hash
    }

    private static func describe(_ url: URL) -> String {
        let values = try? url.resourceValues(forKeys: [.contentModificationDateKey, .fileSizeKey])
        return "\(url.path)|\(values?.fileSize ?? -1)|\(values?.contentModificationDate?.timeIntervalSince1970 ?? 0)"
    }
}
