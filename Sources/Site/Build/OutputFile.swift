import BlogModel
import Foundation

/// One file the build will put in `public/`, with the fingerprint of all its inputs: when the
/// fingerprint matches the last build's, the old file is reused without rendering it again.
struct OutputFile: Sendable {
    enum Source: Sendable {
        case text(@Sendable () throws -> String)
        case bytes([UInt8])
        case copy(URL)
    }

    /// Relative to `public/`, e.g. `2025/hello-world/index.html`.
    let path: String
    let fingerprint: ContentHash
    let source: Source

    /// The file for a site path: `/2025/hello/` → `2025/hello/index.html`.
    static func filePath(forSitePath sitePath: String) -> String {
        let trimmed = sitePath.hasPrefix("/") ? String(sitePath.dropFirst()) : sitePath
        return trimmed.isEmpty || trimmed.hasSuffix("/") ? trimmed + "index.html" : trimmed
    }
}
