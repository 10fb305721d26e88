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
        for header in headers where Self.sameName(header.name, name) { result.append(Self.trimmed(header.value)) }
        return result
    }

    private static func sameName(_ a: String, _ b: String) -> Bool {
        a.utf8.count == b.utf8.count && zip(a.utf8, b.utf8).allSatisfy { x, y in
            x == y || (x | 0x20 == y | 0x20 && (x | 0x20) >= UInt8(ascii: "a") && (x | 0x20) <= UInt8(ascii: "z"))
        }
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
        let all = values(name)
        return all.isEmpty ? nil : all.joined(separator: ", ")
    }

    public mutating func setHeader(_ name: String, _ value: String) {
        headers.removeAll { Self.sameName($0.name, name) }
        headers.append((name, value))
    }
}
