/// YAML scalars written so they read back as the same string, whatever they hold: plain when
/// that is unambiguous, double-quoted with escapes otherwise (titles with `: `, ` #`, quotes,
/// a leading `@`, `*`, `-`, words YAML would read as booleans, numbers or null, line breaks).
public enum YAMLScalar {
    public static func string(_ text: String, inFlow: Bool = false) -> String {
        isPlainSafe(text, inFlow: inFlow) ? text : quoted(text)
    }

    /// `[a, "b, c"]`
    public static func list(_ items: [String]) -> String {
        "[" + items.map { string($0, inFlow: true) }.joined(separator: ", ") + "]"
    }

    public static func quoted(_ text: String) -> String {
        var output = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\t": output += "\\t"
            case "\r": output += "\\r"
            case "\u{85}": output += "\\N"
            case "\u{A0}": output += "\\_"
            case "\u{2028}": output += "\\L"
            case "\u{2029}": output += "\\P"
            default:
                if scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar.value == 0xFEFF
                    || (0xFFFE...0xFFFF).contains(scalar.value) || (0xD800...0xDFFF).contains(scalar.value) {
                    output += "\\u" + String(scalar.value, radix: 16, uppercase: true).leftPadded(to: 4)
                } else {
                    output.unicodeScalars.append(scalar)
                }
            }
        }
        return output + "\""
    }

    private static let reserved: Set<String> = ["true", "false", "yes", "no", "on", "off", "y", "n", "null", "~", ""]

    /// Conservative: a plain scalar is used only for text that cannot mean anything else.
    static func isPlainSafe(_ text: String, inFlow: Bool) -> Bool {
        guard let first = text.first, let last = text.last, !reserved.contains(text.lowercased()) else { return false }
        if first.isWhitespace || last.isWhitespace || last == ":" { return false }
        if "-?:,[]{}#&*!|>'\"%@`=~".contains(first) { return false }
        if first.isNumber || first == "+" || first == "." { return false }  // numbers, dates, .inf
        if text.contains(": ") || text.contains(" #") || text.contains("\t") { return false }
        if inFlow, text.contains(where: { ",[]{}".contains($0) }) { return false }
        for scalar in text.unicodeScalars {
            if scalar.value < 0x20 || (0x7F...0xA0).contains(scalar.value) || scalar.value == 0xFEFF
                || scalar.value == 0x2028 || scalar.value == 0x2029 {
                return false
            }
        }
        return true
    }
}

extension String {
    /// Zeros in front up to `length` characters (hex escapes).
    func leftPadded(to length: Int) -> String {
        count >= length ? self : String(repeating: "0", count: length - count) + self
    }
}
