/// Turns a request path into a key of the static index.
enum RequestPath {
    enum Resolution: Equatable {
        /// Serve this file.
        case file(String)
        /// `/2025/post` names a folder: redirect to `/2025/post/`.
        case redirect(String)
        /// Nothing here (or a path that is not acceptable at all).
        case notFound
        /// Undecodable percent escapes or a NUL byte.
        case badRequest
    }

    /// `rawPath` is the path as sent, still percent-encoded, without the query.
    static func resolve(_ rawPath: String, exists: (String) -> Bool) -> Resolution {
        var decoded = rawPath
        if !isPlain(rawPath) {
            guard let text = rawPath.removingPercentEncoding, !text.contains("\0") else { return .badRequest }
            decoded = text
            let segments = decoded.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
            // Dot-segments and hidden files never match: the index holds only plain, visible names.
            for segment in segments where segment.hasPrefix(".") || segment.contains("\\") { return .notFound }
        }
        guard decoded.hasPrefix("/") else { return .notFound }
        let relative = String(decoded.dropFirst())
        if relative.isEmpty || relative.hasSuffix("/") {
            let key = relative + "index.html"
            return exists(key) ? .file(key) : .notFound
        }
        if relative.hasSuffix(".gz") { return .notFound }
        if exists(relative) { return .file(relative) }
        if exists(relative + "/index.html") { return .redirect(rawPath + "/") }
        return .notFound
    }

    /// Most paths are plain (`/2025/post/`): no escapes, no dot-segments, no backslashes; a
    /// plain path is its own decoded form. Only the others pay for decoding and segment checks.
    static func isPlain(_ path: String) -> Bool {
        var previous: UInt8 = 0
        for byte in path.utf8 {
            if byte == UInt8(ascii: "%") || byte == UInt8(ascii: "\\") || byte == 0 { return false }
            if byte == UInt8(ascii: ".") && previous == UInt8(ascii: "/") { return false }
            previous = byte
        }
        return true
    }
}
