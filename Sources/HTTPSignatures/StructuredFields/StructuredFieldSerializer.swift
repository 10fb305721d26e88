import Foundation

/// RFC 8941 §4.1 serialization: the canonical text RFC 9421 signs (`@signature-params`,
/// `Signature-Input`, `Signature`, `Content-Digest`).
public enum StructuredFieldSerializer {
    public static func dictionary(_ members: StructuredField.Dictionary) -> String {
        members.map { key, member in
            switch member {
            case .item(let item):
                if case .boolean(true) = item.item { return key + parameters(item.parameters) }
                return "\(key)=\(parameterizedItem(item))"
            case .innerList(let list):
                return "\(key)=\(innerList(list))"
            }
        }.joined(separator: ", ")
    }

    public static func innerList(_ list: StructuredField.InnerList) -> String {
        "(" + list.items.map(parameterizedItem).joined(separator: " ") + ")" + parameters(list.parameters)
    }

    public static func parameterizedItem(_ item: StructuredField.ParameterizedItem) -> String {
        bareItem(item.item) + parameters(item.parameters)
    }

    public static func parameters(_ parameters: StructuredField.Parameters) -> String {
        parameters.map { key, value in
            if case .boolean(true) = value { return ";\(key)" }
            return ";\(key)=\(bareItem(value))"
        }.joined()
    }

    public static func bareItem(_ item: StructuredField.Item) -> String {
        switch item {
        case .integer(let value): return String(value)
        case .decimal(let value):
            var text = String(format: "%.3f", value)
            while text.hasSuffix("0") && !text.hasSuffix(".0") { text.removeLast() }
            return text
        case .string(let value):
            guard value.utf8.contains(where: { $0 == UInt8(ascii: "\\") || $0 == UInt8(ascii: "\"") }) else {
                return "\"" + value + "\""
            }
            return "\"" + value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
        case .token(let value): return value
        case .bytes(let value): return ":" + Data(value).base64EncodedString() + ":"
        case .boolean(let value): return value ? "?1" : "?0"
        }
    }
}
