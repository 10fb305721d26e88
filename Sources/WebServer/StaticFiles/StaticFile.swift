import Foundation
import Hummingbird

/// One file of the built site, ready to answer requests with no disk access and, on the hot
/// path, no header building: each variant's headers are computed once when the site loads.
struct StaticFile: Sendable {
    /// The bytes; nil for files too large to keep in memory, which are streamed from `diskPath`.
    let body: ByteBuffer?
    /// The precompressed twin (`file.gz` written by the build), when there is one.
    let gzip: ByteBuffer?
    /// The same twin left on disk, for a file whose body is too (`StaticIndex.isKeptOnDisk`).
    let gzipOnDisk: (path: String, size: Int)?
    let diskPath: String
    let size: Int
    /// Strong validator derived from the content, quoted.
    let etag: String
    let lastModified: Date
    /// Headers of a 200 answer with the plain body, and with the gzip body.
    let plainHeaders: HTTPFields
    let gzipHeaders: HTTPFields?
    /// Headers of a 304 answer.
    let notModifiedHeaders: HTTPFields
    /// Headers when this file is served as an error page (404, 410): no validators.
    let errorPageHeaders: HTTPFields

    init(body: ByteBuffer?, gzip: ByteBuffer?, gzipOnDisk: (path: String, size: Int)? = nil, diskPath: String, size: Int, contentType: String, etag: String,
         lastModified: Date, lastModifiedHeader: String, cacheControl: String, link: String? = nil) {
        self.body = body
        self.gzip = gzip
        self.gzipOnDisk = gzipOnDisk
        self.diskPath = diskPath
        self.size = size
        self.etag = etag
        self.lastModified = lastModified
        var common: HTTPFields = [.contentType: contentType, .acceptRanges: "none"]
        if gzip != nil || gzipOnDisk != nil { common[.vary] = "Accept-Encoding" }
        if let link { common[.link] = link }
        var errorPage = common
        errorPage[.cacheControl] = "no-cache"
        errorPage[.contentLength] = String(size)
        errorPageHeaders = errorPage
        common[.cacheControl] = cacheControl
        common[.eTag] = etag
        common[.lastModified] = lastModifiedHeader
        var notModified = common
        notModified[.contentType] = nil
        notModifiedHeaders = notModified
        var plain = common
        plain[.contentLength] = String(size)
        plainHeaders = plain
        gzipHeaders = (gzip?.readableBytes ?? gzipOnDisk?.size).map { length in
            var headers = common
            headers[.contentEncoding] = "gzip"
            headers[.contentLength] = String(length)
            return headers
        }
    }
}
