import Foundation
import Site

/// Notices when a source changes (`lectern serve --watch`) and says so; the runtime rebuilds.
///
/// It polls modification times twice a second: portable, cheap for a blog-sized tree (a
/// thousand files stat in about a millisecond), and immune to editors' rename-on-save tricks.
public struct SiteWatcher: Sendable {
    public let root: URL
    public var interval: Duration = .milliseconds(500)
    public let onChange: @Sendable () -> Void

    public init(root: URL, onChange: @escaping @Sendable () -> Void) {
        self.root = root
        self.onChange = onChange
    }

    public func run() async {
        var last = stamp()
        while !Task.isCancelled {
            try? await Task.sleep(for: interval)
            let now = stamp()
            guard now != last else { continue }
            last = now
            onChange()
        }
    }

    /// Fingerprint of names, sizes and modification times of every source.
    func stamp() -> ContentHash {
        var hash = ContentHash()
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
