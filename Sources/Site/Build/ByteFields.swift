#if canImport(Glibc)
import Glibc
#endif

/// The pieces of a byte buffer between separators, empty ones included (none at all in an empty
/// buffer), found with `memchr`: how the build's own files (the manifest, the parse cache) are
/// read, a line and a field at a time, without making a `String` of what is not needed.
struct ByteFields: IteratorProtocol {
    private let bytes: UnsafeBufferPointer<UInt8>
    private let separator: UInt8
    private var offset = 0
    private var done: Bool

    init(_ bytes: UnsafeBufferPointer<UInt8>, separator: UInt8) {
        (self.bytes, self.separator, done) = (bytes, separator, bytes.isEmpty)
    }

    mutating func next() -> UnsafeBufferPointer<UInt8>? {
        guard !done, let base = bytes.baseAddress else { return nil }
        let start = offset
        if let found = memchr(base + offset, Int32(separator), bytes.count - offset) {
            let end = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
            offset = end + 1
            return UnsafeBufferPointer(rebasing: bytes[start..<end])
        }
        done = true
        return UnsafeBufferPointer(rebasing: bytes[start...])
    }
}
