import Foundation
import Hummingbird

/// One file of the built site, ready to answer requests with no disk access.
struct StaticFile: Sendable {
    /// The bytes; nil for files too large to keep in memory, which are streamed from `diskPath`.
    let body: ByteBuffer?
    /// The precompressed twin (`file.gz` written by the build), when there is one.
    let gzip: ByteBuffer?
    let diskPath: String
    let size: Int
    let contentType: String
    /// Strong validator derived from the content, quoted.
    let etag: String
    let lastModified: Date
    /// `Last-Modified` in IMF-fixdate form.
    let lastModifiedHeader: String
    let cacheControl: String
}
