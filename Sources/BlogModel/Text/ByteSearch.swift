#if canImport(Glibc)
import Glibc
#endif

/// Where a run of bytes first occurs in a buffer: `memchr` for its first byte, `memcmp` for the
/// rest. Shared by the HTML scans of every page (`HTMLText.firstRange`) and the importer's XML reader.
public enum ByteSearch {
    /// The offset of the first `needle` in `haystack`, nil when absent or `needle` is empty.
    public static func firstOffset(of needle: UnsafeBufferPointer<UInt8>, in haystack: UnsafeBufferPointer<UInt8>) -> Int? {
        guard let base = haystack.baseAddress, let first = needle.baseAddress, !needle.isEmpty else { return nil }
        var offset = 0
        while haystack.count - offset >= needle.count,
              let hit = memchr(base + offset, Int32(first.pointee), haystack.count - offset - needle.count + 1) {
            let at = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
            if memcmp(base + at, first, needle.count) == 0 { return at }
            offset = at + 1
        }
        return nil
    }

    /// The index of the first `needle` in `bytes` at or after `start`.
    public static func firstIndex(of needle: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
        guard start <= bytes.count else { return nil }
        return bytes.withUnsafeBufferPointer { haystack in
            needle.withUnsafeBufferPointer { firstOffset(of: $0, in: UnsafeBufferPointer(rebasing: haystack[start...])) }
        }.map { $0 + start }
    }
}
