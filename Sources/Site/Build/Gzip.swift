import CDeflate
import Synchronization

/// gzip (RFC 1952) compression through libdeflate, for the `.gz` twins written next to text
/// files. libdeflate compresses a whole buffer at once, which is all a build needs; at level 6 it
/// took 28 % fewer CPU samples than zlib in a cold 1,000-post build (bench/RESULTS.md, Profiles).
public enum Gzip {
    /// Compressed bytes, or nil when compression fails (the caller then simply skips the `.gz` file).
    public static func compress(_ input: [UInt8]) -> [UInt8]? {
        let compressor = compressors.take()
        defer { compressors.give(compressor) }
        let bound = libdeflate_gzip_compress_bound(compressor, input.count)
        var output = [UInt8](repeating: 0, count: bound)
        let written = input.withUnsafeBytes { source in
            output.withUnsafeMutableBytes { destination in
                libdeflate_gzip_compress(compressor, source.baseAddress, source.count, destination.baseAddress, destination.count)
            }
        }
        guard written > 0 else { return nil }
        output.removeSubrange(written...)
        return output
    }

    /// Level 6, as gzip's default; a compressor holds ~1 MB of tables, so they are kept and reused,
    /// one per thread at a time.
    static let level: Int32 = 6
    private static let compressors = CompressorPool()

    /// Whether a file of this name is text that compresses well.
    public static func isCompressible(path: String) -> Bool {
        guard let dot = path.lastIndex(of: ".") else { return false }
        return compressibleExtensions.contains(path[path.index(after: dot)...].lowercased())
    }

    static let compressibleExtensions: Set<String> = ["html", "htm", "xml", "json", "css", "js", "mjs", "svg", "txt",
                                                      "md", "map", "ico", "webmanifest", "atom", "rss"]
}

/// Idle compressors, never freed: at most one per thread that ever compressed at once.
private final class CompressorPool: Sendable {
    private let idle = Mutex<[UInt]>([])

    func take() -> OpaquePointer {
        if let address = idle.withLock({ $0.popLast() }), let pointer = OpaquePointer(bitPattern: address) { return pointer }
        guard let fresh = libdeflate_alloc_compressor(Gzip.level) else { fatalError("libdeflate: out of memory") }
        return fresh
    }

    func give(_ compressor: OpaquePointer) {
        idle.withLock { $0.append(UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(compressor)))) }
    }
}
