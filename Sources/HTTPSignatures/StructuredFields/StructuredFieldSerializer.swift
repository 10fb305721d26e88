import Foundation

/// RFC 8941 §4.1 serialization: the canonical text RFC 9421 signs (`@signature-params`,
/// `Signature-Input`, `Signature`, `Content-Digest`). Written into one `ByteWriter`: a signature
/// base is serialized for every verification.
public enum StructuredFieldSerializer {
    public static func dictionary(_ members: StructuredField.Dictionary) -> String {
        text { output in
            for (index, (key, member)) in members.enumerated() {
                if index > 0 { output.append(", ") }
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

    private static func text(_ write: (inout ByteWriter) -> Void) -> String {
        var output = ByteWriter()
        write(&output)
        return output.string
    }

    static func append(_ list: StructuredField.InnerList, to output: inout ByteWriter) {
        output.append(UInt8(ascii: "("))
        for (index, item) in list.items.enumerated() {
            if index > 0 { output.append(UInt8(ascii: " ")) }
            append(item, to: &output)
        }
        output.append(UInt8(ascii: ")"))
        append(list.parameters, to: &output)
    }

    static func append(_ item: StructuredField.ParameterizedItem, to output: inout ByteWriter) {
        append(item.item, to: &output)
        append(item.parameters, to: &output)
    }

    static func append(_ parameters: StructuredField.Parameters, to output: inout ByteWriter) {
        for (key, value) in parameters {
            output.append(UInt8(ascii: ";"))
            output.append(utf8: key)
            if case .boolean(true) = value { continue }
            output.append(UInt8(ascii: "="))
            append(value, to: &output)
        }
    }

    /// An integer's digits, written in place: `String(value)` made a string per `created` and
    /// `expires` of every signature base.
    private static func appendDecimal(_ value: Int64, to output: inout ByteWriter) {
        if value < 0 { output.append(UInt8(ascii: "-")) }
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var magnitude = value.magnitude, first = digits.count
            repeat {  // from the last digit back
                first -= 1
                digits[first] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            output.append(UnsafeBufferPointer(rebasing: digits[first...]))
        }
    }

    static func append(_ item: StructuredField.Item, to output: inout ByteWriter) {
        switch item {
        case .integer(let value): appendDecimal(value, to: &output)
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
        case .boolean(let value): output.append(value ? "?1" : "?0")
        }
    }
}
