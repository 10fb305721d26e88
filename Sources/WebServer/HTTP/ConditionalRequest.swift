import Dates
import Foundation
import HTTPSignatures
import Hummingbird

/// RFC 9110 §13 preconditions and §12.5.3 content coding, as a static server needs them.
enum ConditionalRequest {
    /// Whether the client's cached copy is current (answer 304). `If-None-Match` wins over
    /// `If-Modified-Since` when both are sent.
    static func isNotModified(_ headers: HTTPFields, etag: String, lastModified: Date) -> Bool {
        if let tags = headers[.ifNoneMatch] {
            return tags.split(separator: ",").contains { candidate in
                let tag = candidate.trimmingCharacters(in: .whitespaces)
                return tag == "*" || tag == etag || tag == "W/" + etag
            }
        }
        if let since = headers[.ifModifiedSince], let date = HTTPDate.parse(since) {
            return lastModified <= date
        }
        return false
    }

    /// Whether `Accept-Encoding` allows gzip (absent, `q=0` and unknown codings say no).
    static func acceptsGzip(_ headers: HTTPFields) -> Bool {
        guard let value = headers[.acceptEncoding] else { return false }
        var gzip: Double?
        var star: Double?
        for item in value.split(separator: ",") {
            let parts = item.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            guard let coding = parts.first else { continue }
            var quality = 1.0
            for parameter in parts.dropFirst() where parameter.hasPrefix("q=") {
                quality = Double(parameter.dropFirst(2)) ?? 0
            }
            if coding == "gzip" || coding == "x-gzip" { gzip = quality } else if coding == "*" { star = quality }
        }
        return (gzip ?? star ?? 0) > 0
    }
}
