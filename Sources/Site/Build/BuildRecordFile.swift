import BlogModel
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Writes the build's own records (`BuildRecords`: `manifest`, `inputs`, the parse cache
/// `posts`): beside the file under a temporary name, then renamed over it, so a reader sees the
/// old file or the new one.
///
/// Not synced to disk, like the pages they describe: Foundation's `.atomic` write `fsync`s, which
/// cost 0.6 ms a file on this machine's disk and now and then 100 ms (`strace -T` of a one-post
/// rebuild), and a record lost to a power cut only makes the next build look at everything again.
public enum BuildRecordFile {
    public static func replace(_ url: URL, with bytes: [UInt8]) throws {
        let temporary = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).\(getpid()).tmp").path
        do {
            try OutputWriter.writeFile(bytes, to: temporary, name: url.lastPathComponent)
            guard rename(temporary, url.path) == 0 else {
                throw SiteError.io(path: url.path, message: String(cString: strerror(errno)))
            }
        } catch {
            unlink(temporary)
            throw error
        }
    }
}
