/// Decoding that takes what it can: a property of the wrong shape is absent, an array with one
/// bad element keeps the others. Remote documents are written by a hundred programs.
extension KeyedDecodingContainer {
    func lenient<T: Decodable>(_ type: T.Type, _ key: Key) -> T? {
        (try? decodeIfPresent(type, forKey: key)) ?? nil
    }

    /// A string (not a number or an object).
    func text(_ key: Key) -> String? { lenient(String.self, key) }

    /// One string or an array of strings.
    func texts(_ key: Key) -> [String] {
        if let one = text(key) { return [one] }
        return lenient([Lenient<String>].self, key)?.compactMap(\.value) ?? []
    }

    /// One value or an array of them; elements that do not decode are skipped.
    func many<T: Decodable>(_ type: T.Type, _ key: Key) -> [T] {
        if let list = lenient([Lenient<T>].self, key) { return list.compactMap(\.value) }
        return lenient(T.self, key).map { [$0] } ?? []
    }

    /// The ids a property names: strings, objects with an `id` (or a `Link`'s `href`), or an array of those.
    func ids(_ key: Key) -> [String] { many(Identified.self, key).map(\.id) }
}

/// One element of an array that may fail to decode without failing the array.
struct Lenient<T: Decodable>: Decodable {
    let value: T?
    init(from decoder: any Decoder) throws { value = try? T(from: decoder) }
}

/// An id, given as a string or as an object that has one.
struct Identified: Decodable {
    let id: String

    enum Key: String, CodingKey { case id, href }

    init(from decoder: any Decoder) throws {
        if let text = try? decoder.singleValueContainer().decode(String.self) { id = text; return }
        let c = try decoder.container(keyedBy: Key.self)
        guard let id = c.text(.id) ?? c.text(.href) else {
            throw DecodingError.keyNotFound(Key.id, .init(codingPath: decoder.codingPath, debugDescription: "no id"))
        }
        self.id = id
    }
}
