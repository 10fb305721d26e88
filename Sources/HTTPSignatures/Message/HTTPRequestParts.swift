import Foundation

/// The parts of an HTTP request that signatures cover, independent of any HTTP library.
///
/// ```swift
/// let request = HTTPRequestParts(method: "POST", url: "https://blog.example/inbox",
///                                headers: [("Content-Type", "application/activity+json")], body: body)
/// ```
public struct HTTPRequestParts: Sendable {
    /// Upper case, e.g. `POST`.
    public var method: String
    public var scheme: String
    /// Host (and port when not the default), lower case.
    public var authority: String
    /// The path as sent (percent-encoded), never empty.
    public var path: String
    /// The query without `?`, as sent; nil when the request has none.
    public var query: String?
    /// In order, names as sent; repeated fields stay separate.
    public var headers: [(name: String, value: String)]
    public var body: [UInt8]

    public init(method: String, url: String, headers: [(name: String, value: String)], body: [UInt8] = []) {
        let parts = URLComponents(string: url)
        self.method = method.uppercased()
        self.scheme = parts?.scheme?.lowercased() ?? "https"
        var authority = parts?.host?.lowercased() ?? ""
        if let port = parts?.port, !(scheme == "https" && port == 443) && !(scheme == "http" && port == 80) {
            authority += ":\(port)"
        }
        self.authority = authority
        let path = parts?.percentEncodedPath ?? "/"
        self.path = path.isEmpty ? "/" : path
        self.query = parts?.percentEncodedQuery
        self.headers = headers
        self.body = body
    }

    /// `/path?query` as it appears in the request line.
    public var target: String { query.map { "\(path)?\($0)" } ?? path }

    /// `scheme://authority/path?query`.
    public var targetURI: String { "\(scheme)://\(authority)\(target)" }

    /// Every value of a field (case-insensitive name), each trimmed of surrounding whitespace.
    /// Byte-level on purpose: it runs for every covered header of every verification.
    public func values(_ name: String) -> [String] {
        var result: [String] = []
        forEachValue(name) { result.append($0) }
        return result
    }

    /// By index: a `for header in headers` copy retains and releases both strings of every field.
    private func forEachValue(_ name: String, _ body: (String) -> Void) {
        for index in headers.indices where Self.sameName(headers[index].name, name) { body(Self.trimmed(headers[index].value)) }
    }

    private static func sameName(_ a: String, _ b: String) -> Bool {
        guard a.utf8.count == b.utf8.count else { return false }
        func same(_ x: UInt8, _ y: UInt8) -> Bool {
            x == y || (x | 0x20 == y | 0x20 && (x | 0x20) >= UInt8(ascii: "a") && (x | 0x20) <= UInt8(ascii: "z"))
        }
        // Names are native strings: compared as two contiguous buffers, not index by index
        // through `String.UTF8View` (bench/signatures: 1-2 % of a verification).
        return a.utf8.withContiguousStorageIfAvailable { x in
            b.utf8.withContiguousStorageIfAvailable { y in x.elementsEqual(y, by: same) }
        }?.flatMap { $0 } ?? a.utf8.elementsEqual(b.utf8, by: same)
    }

    private static func trimmed(_ value: String) -> String {
        let bytes = value.utf8
        guard let first = bytes.first, let last = bytes.last,
              first == 32 || first == 9 || last == 32 || last == 9 else { return value }
        let start = bytes.firstIndex { $0 != 32 && $0 != 9 } ?? bytes.endIndex
        let end = bytes.lastIndex { $0 != 32 && $0 != 9 }.map { bytes.index(after: $0) } ?? start
        return String(value[start..<max(start, end)])
    }

    /// All values of a field joined with `", "` as both signature drafts require; nil if absent.
    public func field(_ name: String) -> String? {
        // One value, the usual case, is returned as it is, without building a list.
        var first: String?
        var more: [String] = []
        forEachValue(name) { value in if first == nil { first = value } else { more.append(value) } }
        guard let first else { return nil }
        return more.isEmpty ? first : ([first] + more).joined(separator: ", ")
    }

    public mutating func setHeader(_ name: String, _ value: String) {
        headers.removeAll { Self.sameName($0.name, name) }
        headers.append((name, value))
    }
}
