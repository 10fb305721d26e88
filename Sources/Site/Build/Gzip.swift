import CZlib

/// gzip (RFC 1952) compression through zlib, for the `.gz` twins written next to text files.
public enum Gzip {
    /// Compressed bytes, or nil when zlib fails (the caller then simply skips the `.gz` file).
    public static func compress(_ input: [UInt8], level: Int32 = 6) -> [UInt8]? {
        var stream = z_stream()
        // windowBits 15 + 16 selects the gzip wrapper instead of zlib's.
        guard deflateInit2_(&stream, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY,
                            ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else { return nil }
        defer { deflateEnd(&stream) }
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, uLong(input.count))) + 32)
        let status: Int32 = input.withUnsafeBufferPointer { source in
            output.withUnsafeMutableBufferPointer { destination in
                stream.next_in = UnsafeMutablePointer(mutating: source.baseAddress)
                stream.avail_in = uInt(source.count)
                stream.next_out = destination.baseAddress
                stream.avail_out = uInt(destination.count)
                return deflate(&stream, Z_FINISH)
            }
        }
        guard status == Z_STREAM_END else { return nil }
        output.removeSubrange(Int(stream.total_out)...)
        return output
    }

    /// Whether a file of this name is text that compresses well.
    public static func isCompressible(path: String) -> Bool {
        guard let dot = path.lastIndex(of: ".") else { return false }
        return compressibleExtensions.contains(path[path.index(after: dot)...].lowercased())
    }

    static let compressibleExtensions: Set<String> = ["html", "htm", "xml", "json", "css", "js", "mjs", "svg", "txt",
                                                      "md", "map", "ico", "webmanifest", "atom", "rss"]
}
