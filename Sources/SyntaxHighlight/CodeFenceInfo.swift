/// Hugo's fence info syntax: "swift {hl_lines=[2,3] linenos=true}" or "swift {hl_lines=["2-4"]}" → language + options.
///
///     CodeFenceInfo.parse(#"go {linenos=table, hl_lines=[1,"3-4"]}"#)
///     // ("go", HighlightOptions(lineNumbers: true, highlightedLines: [1, 3, 4]))
///
/// `hl_lines` takes numbers and `"a-b"` ranges, in a list or one quoted string (`"1 3-4"`);
/// `linenos` is on for `true`, `table` and `inline`. Other attributes are ignored.
public enum CodeFenceInfo {
    /// No fence marks more lines than this; a range like `"1-999999999"` is cut here.
    static let maxMarkedLines = 10_000

    public static func parse(_ info: String) -> (language: String, options: HighlightOptions) {
        let trimmed = info.drop { $0 == " " || $0 == "\t" }
        let language = trimmed.prefix { $0 != " " && $0 != "\t" && $0 != "{" }
        var options = HighlightOptions()
        var rest = trimmed.dropFirst(language.count).drop { $0 != "{" }.dropFirst()
        if let close = rest.lastIndex(of: "}") { rest = rest[..<close] }
        for (key, value) in attributes(rest) {
            switch key.lowercased() {
            case "linenos":
                options.lineNumbers = ["true", "table", "inline"].contains(value.lowercased())
            case "hl_lines":
                options.highlightedLines = lines(value)
            default:
                break
            }
        }
        return (String(language), options)
    }

    /// `key=value` pairs separated by blanks or commas; a value may be `[…]` or `"…"`.
    private static func attributes(_ text: Substring) -> [(String, Substring)] {
        var pairs: [(String, Substring)] = []
        var rest = text[...]
        while true {
            rest = rest.drop { $0 == " " || $0 == "," || $0 == "\t" }
            guard let equals = rest.firstIndex(of: "="), !rest.isEmpty else { break }
            let key = rest[..<equals].trimmingBlanks
            rest = rest[rest.index(after: equals)...].drop { $0 == " " }
            let closing: Character? = rest.first == "[" ? "]" : rest.first == "\"" ? "\"" : nil
            let valueEnd: String.Index
            if let closing, let found = rest.dropFirst().firstIndex(of: closing) {
                valueEnd = rest.index(after: found)
            } else {
                valueEnd = rest.firstIndex { $0 == " " || $0 == "," || $0 == "\t" } ?? rest.endIndex
            }
            pairs.append((String(key), rest[..<valueEnd]))
            rest = rest[valueEnd...]
        }
        return pairs
    }

    /// `[2,3]`, `[2,"4-6"]`, `"2-4 7"` → the line numbers.
    private static func lines(_ value: Substring) -> Set<Int> {
        var lines = Set<Int>()
        let items = value.split { " ,[]\"\t".contains($0) }
        for item in items {
            let bounds = item.split(separator: "-", maxSplits: 1).compactMap { Int($0) }
            guard let first = bounds.first, first > 0 else { continue }
            let last = min(bounds.count == 2 ? bounds[1] : first, first + maxMarkedLines - lines.count - 1)
            guard last >= first else { continue }
            lines.formUnion(first...last)
            if lines.count >= maxMarkedLines { break }
        }
        return lines
    }
}

private extension Substring {
    var trimmingBlanks: Substring {
        let start = drop { $0 == " " || $0 == "\t" }
        return start[..<(start.lastIndex { $0 != " " && $0 != "\t" }.map { start.index(after: $0) } ?? start.endIndex)]
    }
}
