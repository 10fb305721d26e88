import Foundation

/// Small helpers for moving between HTML and text.
public enum HTMLText {
    /// Text content of an HTML fragment: tags dropped, common entities decoded, spaces folded.
    public static func plain(_ html: String) -> String {
        var text = ""
        text.reserveCapacity(html.utf8.count)
        var inTag = false
        for character in html {
            switch character {
            case "<": inTag = true
            case ">" where inTag: inTag = false; text.append(" ")
            default: if !inTag { text.append(character) }
            }
        }
        for (entity, value) in [("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&#39;", "'"), ("&nbsp;", " "),
                                ("&amp;", "&")] where text.contains(entity) {
            text = text.replacingOccurrences(of: entity, with: value)
        }
        return text.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" }).joined(separator: " ")
    }

    /// At most `limit` characters, cut at a word boundary with an ellipsis.
    public static func truncate(_ text: String, limit: Int) -> String {
        guard text.count > limit else { return text }
        let cut = text.prefix(limit)
        let word = cut.lastIndex(of: " ").map { cut[..<$0] } ?? cut
        return word.trimmingCharacters(in: .punctuationCharacters.union(.whitespaces)) + "…"
    }

    /// Escapes text for an HTML or XML text node or attribute value.
    public static func escape(_ text: String) -> String {
        var output = ""
        output.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": output += "&amp;"
            case "<": output += "&lt;"
            case ">": output += "&gt;"
            case "\"": output += "&quot;"
            case "'": output += "&#39;"
            default: output.append(character)
            }
        }
        return output
    }

    /// Makes root-relative `href="/…"` and `src="/…"` absolute, for feeds and federation,
    /// where there is no page URL to resolve them against.
    public static func absolutizeLinks(_ html: String, baseURL: String) -> String {
        guard html.contains("=\"/") else { return html }
        var output = html
        for attribute in ["href", "src"] {
            output = output.replacingOccurrences(of: "\(attribute)=\"//", with: "\(attribute)=\"\u{0}")
            output = output.replacingOccurrences(of: "\(attribute)=\"/", with: "\(attribute)=\"\(baseURL)/")
            output = output.replacingOccurrences(of: "\(attribute)=\"\u{0}", with: "\(attribute)=\"//")
        }
        return output
    }
}
