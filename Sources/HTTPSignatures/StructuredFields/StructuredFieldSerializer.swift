import Foundation

/// RFC 8941 §4.1 serialization: the canonical text RFC 9421 signs (`@signature-params`,
/// `Signature-Input`, `Signature`, `Content-Digest`). Written into one byte buffer: a signature
/// base is serialized for every verification.
public enum StructuredFieldSerializer {
    public static func dictionary(_ members: StructuredField.Dictionary) -> String {
        text { output in
            for (index, (key, member)) in members.enumerated() {
                if index > 0 { output.append(utf8: ", ") }
                output.append(utf8: key)
                switch member {
                case .item(let item):
                    if case .boolean(true) = item.item {
                        append(item.parameters, to: &output)
                    } else {
                        output.append(UInt8(ascii: "="))
                        append(item, to: &output)
                    }
                case .innerList(let list):
                    output.append(UInt8(ascii: "="))
                    append(list, to: &output)
                }
            }
        }
    }

    public static func innerList(_ list: StructuredField.InnerList) -> String { text { append(list, to: &$0) } }

    public static func parameterizedItem(_ item: StructuredField.ParameterizedItem) -> String { text { append(item, to: &$0) } }

    public static func parameters(_ parameters: StructuredField.Parameters) -> String { text { append(parameters, to: &$0) } }

    public static func bareItem(_ item: StructuredField.Item) -> String { text { append(item, to: &$0) } }

    private static func text(_ write: (inout [UInt8]) -> Void) -> String {
        var output: [UInt8] = []
        write(&output)
        return String(decoding: output, as: UTF8.self)
    }

    static func append(_ list: StructuredField.InnerList, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "("))
        for (index, item) in list.items.enumerated() {
            if index > 0 { output.append(UInt8(ascii: " ")) }
            append(item, to: &output)
        }
        output.append(UInt8(ascii: ")"))
        append(list.parameters, to: &output)
    }

    static func append(_ item: StructuredField.ParameterizedItem, to output: inout [UInt8]) {
        append(item.item, to: &output)
        append(item.parameters, to: &output)
    }

    static func append(_ parameters: StructuredField.Parameters, to output: inout [UInt8]) {
        for (key, value) in parameters {
            output.append(UInt8(ascii: ";"))
            output.append(utf8: key)
            if case .boolean(true) = value { continue }
            output.append(UInt8(ascii: "="))
            append(value, to: &output)
        }
    }

    static func append(_ item: StructuredField.Item, to output: inout [UInt8]) {
        switch item {
        case .integer(let value): output.append(utf8: String(value))
        case .decimal(let value):
            var text = String(format: "%.3f", value)
            while text.hasSuffix("0") && !text.hasSuffix(".0") { text.removeLast() }
            output.append(utf8: text)
        case .string(let value):
            output.append(UInt8(ascii: "\""))
            if ASCII.containsByte(value, where: { $0 == UInt8(ascii: "\\") || $0 == UInt8(ascii: "\"") }) {
                for byte in value.utf8 {
                    if byte == UInt8(ascii: "\\") || byte == UInt8(ascii: "\"") { output.append(UInt8(ascii: "\\")) }
                    output.append(byte)
                }
            } else {
                output.append(utf8: value)  // the usual case: one copy
            }
            output.append(UInt8(ascii: "\""))
        case .token(let value): output.append(utf8: value)
        case .bytes(let value):
            output.append(UInt8(ascii: ":"))
            output.append(utf8: Data(value).base64EncodedString())
            output.append(UInt8(ascii: ":"))
        case .boolean(let value): output.append(utf8: value ? "?1" : "?0")
        }
    }
}
