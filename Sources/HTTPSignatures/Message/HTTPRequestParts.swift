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
    public func values(_ name: String) -> [String] {
        let lower = name.lowercased()
        return headers.filter { $0.name.lowercased() == lower }
            .map { $0.value.trimmingCharacters(in: CharacterSet(charactersIn: " \t")) }
    }

    /// All values of a field joined with `", "` as both signature drafts require; nil if absent.
    public func field(_ name: String) -> String? {
        let all = values(name)
        return all.isEmpty ? nil : all.joined(separator: ", ")
    }

    public mutating func setHeader(_ name: String, _ value: String) {
        headers.removeAll { $0.name.lowercased() == name.lowercased() }
        headers.append((name, value))
    }
}
