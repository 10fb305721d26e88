import Foundation

/// Regular expressions over whole strings, for the text formats importers rewrite (shortcodes,
/// Liquid tags): every match as its groups, and replacement by a function of the groups.
/// Patterns match across lines (`.` includes line breaks).
enum Patterns {
    static func matches(_ pattern: String, in text: String) -> [[String]] {
        guard let regex = regex(pattern) else { return [] }
        let nsText = text as NSString
        return regex.matches(in: text, range: NSRange(location: 0, length: nsText.length)).map { groups(of: $0, in: nsText) }
    }

    /// `text` with each match of `pattern` replaced by what `transform` makes of its groups
    /// (group 0 is the whole match; groups that did not take part are empty).
    static func replace(_ pattern: String, in text: String, _ transform: ([String]) -> String) -> String {
        guard let regex = regex(pattern) else { return text }
        let nsText = text as NSString
        var output = ""
        var last = 0
        for match in regex.matches(in: text, range: NSRange(location: 0, length: nsText.length)) {
            output += nsText.substring(with: NSRange(location: last, length: match.range.location - last))
            output += transform(groups(of: match, in: nsText))
            last = match.range.location + match.range.length
        }
        return output + nsText.substring(from: last)
    }

    private static func groups(of match: NSTextCheckingResult, in text: NSString) -> [String] {
        (0..<match.numberOfRanges).map { index in
            let range = match.range(at: index)
            return range.location == NSNotFound ? "" : text.substring(with: range)
        }
    }

    private static func regex(_ pattern: String) -> NSRegularExpression? {
        try? NSRegularExpression(pattern: pattern, options: [.dotMatchesLineSeparators])
    }
}
