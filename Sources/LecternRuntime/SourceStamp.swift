import Foundation
import Site

/// A fingerprint of the names, sizes and modification times of every source (`lectern.yml`,
/// `content/`, `theme/`, `static/`): `serve --watch` rebuilds when it changes. Polling stats is
/// portable, cheap for a blog (a thousand files in about a millisecond), and immune to editors
/// that save by renaming.
enum SourceStamp {
    static func of(_ root: URL) -> ContentHash {
        var hash = ContentHash()
        hash.combine(describe(root.appendingPathComponent(SiteConfig.fileName)))
        for folder in ["content", "theme", "static"] {
            let base = root.appendingPathComponent(folder)
            guard let walker = FileManager.default.enumerator(at: base,
                                                              includingPropertiesForKeys: [.contentModificationDateKey, .fileSizeKey])
            else { continue }
            for case let url as URL in walker { hash.combine(describe(url)) }
        }
        return hash
    }

    private static func describe(_ url: URL) -> String {
        let values = try? url.resourceValues(forKeys: [.contentModificationDateKey, .fileSizeKey])
        return "\(url.path)|\(values?.fileSize ?? -1)|\(values?.contentModificationDate?.timeIntervalSince1970 ?? 0)"
    }
}
