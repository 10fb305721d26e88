import BlogModel

/// Writes well-formed XML: every text and attribute value is escaped, every element closed.
struct XMLWriter {
    private(set) var output = "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n"
    private var open: [String] = []

    mutating func start(_ name: String, _ attributes: KeyValuePairs<String, String> = [:]) {
        output += "\(indent)<\(name)\(Self.attributes(attributes))>\n"
        open.append(name)
    }

    mutating func end() {
        let name = open.removeLast()
        output += "\(indent)</\(name)>\n"
    }

    /// `<name attr="…">text</name>`, or `<name attr="…"/>` when `text` is nil.
    mutating func element(_ name: String, _ text: String? = nil, _ attributes: KeyValuePairs<String, String> = [:]) {
        if let text {
            output += "\(indent)<\(name)\(Self.attributes(attributes))>\(HTMLText.escape(text))</\(name)>\n"
        } else {
            output += "\(indent)<\(name)\(Self.attributes(attributes))/>\n"
        }
    }

    mutating func finish() -> String {
        while !open.isEmpty { end() }
        return output
    }

    private var indent: String { String(repeating: "  ", count: open.count) }

    private static func attributes(_ pairs: KeyValuePairs<String, String>) -> String {
        pairs.map { " \($0.key)=\"\(HTMLText.escape($0.value))\"" }.joined()
    }
}
