/// A property that names another object: by its id (a string, or a `Link` with an `href`), or
/// embedded whole. JSON-LD allows an array of them too; the first one counts.
///
/// ```swift
/// // "object": "https://a.example/notes/1"        → .link("https://a.example/notes/1")
/// // "object": {"id": "…", "type": "Note", …}       → .embedded(APObject)
/// ```
public indirect enum Reference<Value: Decodable & Sendable>: Decodable, Sendable {
    case link(String)
    case embedded(Value)

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let id = try? container.decode(String.self) { self = .link(id); return }
        if var list = try? decoder.unkeyedContainer() {
            guard !list.isAtEnd else { throw DecodingError.valueNotFound(Value.self, .init(codingPath: decoder.codingPath, debugDescription: "empty array")) }
            self = try list.decode(Reference<Value>.self)
            return
        }
        if let link = try? container.decode(LinkObject.self), link.isLinkOnly, let href = link.href {
            self = .link(href)
            return
        }
        self = .embedded(try container.decode(Value.self))
    }

    public var embedded: Value? { if case .embedded(let value) = self { return value } else { return nil } }
}

extension Reference where Value == APObject {
    /// The id it names, whether linked or embedded.
    public var id: String? {
        switch self {
        case .link(let id): return id
        case .embedded(let object): return object.id
        }
    }
}

/// `{"type": "Link", "href": …}`, as some servers write references and URLs.
struct LinkObject: Decodable {
    var type: String?
    var href: String?
    var mediaType: String?

    /// A Link (or a bare `{href}`), not an object that happens to have an `href`.
    var isLinkOnly: Bool { type == nil || type == "Link" }
}
