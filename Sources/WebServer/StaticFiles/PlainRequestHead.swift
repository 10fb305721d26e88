import HTTPTypes

/// The head of a plain HTTP/1.1 GET or HEAD, read from raw bytes by `RawStaticFastPath`.
///
/// Deliberately narrow: it accepts only what any two HTTP parsers read the same way and calls
/// everything else `unusual`, which goes to the full HTTP stack (NIO's llhttp) untouched. So a
/// request with a body or framing headers, a `Connection` other than `keep-alive`, a bare LF,
/// obs-fold, non-ASCII, a repeated header we read, an absent or repeated Host, or any version
/// but 1.1 never takes the fast path; request
/// smuggling needs two readers that disagree, and here the second reader never sees the bytes.
struct PlainRequestHead {
    let method: HTTPRequest.Method
    /// The request target as sent (origin-form: path and query).
    let target: String
    /// The target up to its query, as Hummingbird's `URI.path` reads it.
    let path: String
    /// Only the fields an answer from memory depends on.
    let headers: HTTPFields

    enum Reading {
        /// A whole head of `length` bytes.
        case plain(PlainRequestHead, length: Int)
        /// No blank line yet: wait for more bytes.
        case incomplete
        /// Anything else: the full HTTP stack reads it.
        case unusual
    }

    /// Heads longer than this go to the full stack (which has its own limits).
    static let maximumLength = 8192

    /// Fields whose presence means "not a plain GET": bodies, framing, upgrades, hop-by-hop.
    private static let refused: Set<String> = [
        "content-length", "transfer-encoding", "connection", "upgrade", "expect", "te", "trailer", "keep-alive",
        "proxy-connection", "http2-settings",
    ]
    private static let kept: [String: HTTPField.Name] = [
        "accept": .accept, "accept-encoding": .acceptEncoding, "if-none-match": .ifNoneMatch,
        "if-modified-since": .ifModifiedSince,
    ]

    /// More fields than a plain GET has (NIO's own limit, as Hummingbird sets it, is 1,000).
    static let maximumFields = 100

    /// `searchFrom`: how many bytes an earlier call already found no head end in (a head that
    /// trickles in is not scanned again from its start on every read).
    static func read(_ bytes: UnsafeRawBufferPointer, searchFrom: Int = 0) -> Reading {
        // Anything that cannot become "GET " or "HEAD " (a TLS hello, a POST) goes on at once,
        // instead of waiting for a blank line that may never come.
        guard couldStart(bytes, with: "GET ") || couldStart(bytes, with: "HEAD ") else { return .unusual }
        let end: Int
        switch headEnd(bytes, from: max(0, searchFrom - 2)) {
        case .missing: return bytes.count > maximumLength ? .unusual : .incomplete
        case .bareLineFeed: return .unusual
        case .at(let offset): end = offset
        }
        guard end <= maximumLength else { return .unusual }
        var cursor = 0
        let method: HTTPRequest.Method
        if starts(bytes, with: "GET ", at: 0) { method = .get; cursor = 4 }
        else if starts(bytes, with: "HEAD ", at: 0) { method = .head; cursor = 5 }
        else { return .unusual }
        let targetStart = cursor
        var pathEnd: Int?
        while cursor < end, bytes[cursor] != 0x20 {
            guard (0x21...0x7E).contains(bytes[cursor]) else { return .unusual }
            if pathEnd == nil, bytes[cursor] == UInt8(ascii: "?") { pathEnd = cursor }
            cursor += 1
        }
        guard cursor > targetStart, bytes[targetStart] == UInt8(ascii: "/"), cursor + 11 <= end,
              starts(bytes, with: " HTTP/1.1\r\n", at: cursor) else { return .unusual }
        let target = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[targetStart..<cursor]), as: UTF8.self)
        let path = pathEnd.map { String(decoding: UnsafeRawBufferPointer(rebasing: bytes[targetStart..<$0]), as: UTF8.self) } ?? target
        cursor += 11
        var headers = HTTPFields()
        var hosts = 0
        var fields = 0
        // Each field line: token ":" OWS value OWS CRLF; the blank line ends the head.
        while cursor < end {
            fields += 1
            guard fields <= maximumFields else { return .unusual }
            let nameStart = cursor
            while cursor < end, isTokenByte(bytes[cursor]) { cursor += 1 }
            guard cursor > nameStart, cursor < end, bytes[cursor] == UInt8(ascii: ":") else { return .unusual }
            let name = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[nameStart..<cursor]), as: UTF8.self).lowercased()
            cursor += 1
            while cursor < end, bytes[cursor] == 0x20 || bytes[cursor] == 0x09 { cursor += 1 }
            let valueStart = cursor
            while cursor < end, bytes[cursor] != 0x0D {
                let byte = bytes[cursor]
                guard byte == 0x09 || (0x20...0x7E).contains(byte) else { return .unusual }
                cursor += 1
            }
            guard cursor < end, bytes[cursor + 1] == 0x0A else { return .unusual }  // CR always before LF
            var valueEnd = cursor
            while valueEnd > valueStart, bytes[valueEnd - 1] == 0x20 || bytes[valueEnd - 1] == 0x09 { valueEnd -= 1 }
            cursor += 2
            if name == "host" { hosts += 1; continue }
            // What browsers send over HTTP/1.1, where it is the default anyway.
            if name == "connection", valueEnd - valueStart == 10,
               String(decoding: UnsafeRawBufferPointer(rebasing: bytes[valueStart..<valueEnd]), as: UTF8.self).lowercased() == "keep-alive" {
                continue
            }
            guard !refused.contains(name) else { return .unusual }
            if let field = kept[name] {
                guard headers[field] == nil else { return .unusual }
                headers[field] = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[valueStart..<valueEnd]), as: UTF8.self)
            }
        }
        guard hosts == 1 else { return .unusual }
        return .plain(PlainRequestHead(method: method, target: target, path: path, headers: headers), length: end + 2)
    }

    private enum HeadEnd { case missing, bareLineFeed, at(Int) }

    /// Where the head's last line ends (the blank line follows, so the head is `0..<end + 2`).
    private static func headEnd(_ bytes: UnsafeRawBufferPointer, from start: Int) -> HeadEnd {
        var index = start
        while index < bytes.count {
            if bytes[index] == 0x0A {
                guard index > 0, bytes[index - 1] == 0x0D else { return .bareLineFeed }
                if index + 2 < bytes.count, bytes[index + 1] == 0x0D, bytes[index + 2] == 0x0A { return .at(index + 1) }
            }
            index += 1
        }
        return .missing
    }

    /// The bytes so far are `text` or its beginning.
    private static func couldStart(_ bytes: UnsafeRawBufferPointer, with text: StaticString) -> Bool {
        let count = min(bytes.count, text.utf8CodeUnitCount)
        for index in 0..<count where bytes[index] != text.utf8Start[index] { return false }
        return true
    }

    private static func starts(_ bytes: UnsafeRawBufferPointer, with text: StaticString, at offset: Int) -> Bool {
        let count = text.utf8CodeUnitCount
        guard offset + count <= bytes.count else { return false }
        for index in 0..<count where bytes[offset + index] != text.utf8Start[index] { return false }
        return true
    }

    /// RFC 9110 tchar.
    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"), UInt8(ascii: "&"), UInt8(ascii: "'"),
             UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "^"), UInt8(ascii: "_"),
             UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"):
            true
        default:
            false
        }
    }
}
