import Foundation
import Hummingbird
import NIOCore

/// One file of the built site, ready to answer requests with no disk access and, on the hot
/// path, no header building: each variant's headers are computed once when the site loads.
///
/// A class: the fast path takes one from the index per request, and a struct of a dozen
/// buffers and field lists cost a dozen reference-count changes each time (perf, bench/serve).
final class StaticFile: Sendable {
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
    /// The same answers' heads as bytes, for the raw fast path.
    let heads: Heads

    /// Status line and fields of each memory answer, serialized once (`ResponseHeadBytes`); for
    /// an HTML file also as a post's page (its `Vary` merged; the page's `Link` is per request).
    /// Measured with bench/serve (wrk -t2 -c64, 1,000-post site): see `RawStaticFastPath`.
    struct Heads: Sendable {
        let plain: ByteBuffer
        let gzip: ByteBuffer?
        let notModified: ByteBuffer
        let pagePlain: ByteBuffer?
        let pageGzip: ByteBuffer?
        let pageNotModified: ByteBuffer?
    }

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
        let gzipHeaders = (gzip?.readableBytes ?? gzipOnDisk?.size).map { length in
            var headers = common
            headers[.contentEncoding] = "gzip"
            headers[.contentLength] = String(length)
            return headers
        }
        self.gzipHeaders = gzipHeaders
        let page = contentType.hasPrefix("text/html")
        heads = Heads(plain: ResponseHeadBytes.head(.ok, plain, asPage: false),
                      gzip: gzipHeaders.map { ResponseHeadBytes.head(.ok, $0, asPage: false) },
                      notModified: ResponseHeadBytes.head(.notModified, notModified, asPage: false),
                      pagePlain: page ? ResponseHeadBytes.head(.ok, plain, asPage: true) : nil,
                      pageGzip: page ? gzipHeaders.map { ResponseHeadBytes.head(.ok, $0, asPage: true) } : nil,
                      pageNotModified: page ? ResponseHeadBytes.head(.notModified, notModified, asPage: true) : nil)
    }
}
