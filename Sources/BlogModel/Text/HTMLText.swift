import Foundation
import HTMLMarkup

/// Small helpers for moving between HTML and text.
public enum HTMLText {
    /// Text content of an HTML fragment: tags and comments dropped, character references
    /// decoded, the content of `<script>`, `<style>` and the like left out, spaces folded (a
    /// no-break space is a space). A block's edge (`</p>`, `<br>`, `<li>`…) is a space; an inline
    /// element's is not, so a mention (`@<span>blog</span>`) reads "@blog" and
    /// `<code>import</code>ed` "imported". The one plain-text reading of HTML: search, digests,
    /// descriptions, summaries and the Bluesky bridge all use it, through the one tokenizer.
    public static func plain(_ html: String) -> String {
        var text = ""
        text.reserveCapacity(html.utf8.count)
        var pendingSpace = false
        func append(_ piece: String) {
            for scalar in piece.unicodeScalars {
                switch scalar {
                case " ", "\n", "\t", "\r", "\u{0C}", "\u{A0}": pendingSpace = !text.isEmpty
                default:
                    if pendingSpace { text.unicodeScalars.append(" "); pendingSpace = false }
                    text.unicodeScalars.append(scalar)
                }
            }
        }
        // Nothing to strip or decode (most titles and summaries): only the spaces to fold.
        guard html.utf8.contains(where: { $0 == 0x3C || $0 == 0x26 }) else {
            append(html)
            return text
        }
        var inRawText = false
        for token in HTMLTokenizer(html, options: .sanitizer) {
            switch token {
            case .text(let piece):
                if inRawText { inRawText = false } else { append(piece) }
            case .startTag(let name, _, let selfClosing):
                if !inlineElements.contains(name) { pendingSpace = !text.isEmpty }
                inRawText = !selfClosing && HTMLTokenizer.Options.sanitizer.rawTextElements.contains(name)
            case .endTag(let name):
                inRawText = false
                if !inlineElements.contains(name) { pendingSpace = !text.isEmpty }
            case .comment:
                pendingSpace = !text.isEmpty  // `<!-- more -->` stands between blocks
            }
        }
        return text
    }

    /// Phrasing elements, whose edges are no word break (HTML's "phrasing content").
    private static let inlineElements: Set<String> = [
        "a", "abbr", "b", "bdi", "bdo", "cite", "code", "data", "del", "dfn", "em", "i", "ins", "kbd", "mark", "q",
        "s", "samp", "small", "span", "strike", "strong", "sub", "sup", "time", "u", "var", "wbr",
    ]

    /// The first occurrence of `needle` in `text`, compared by UTF-8 byte (no Foundation
    /// bridging, which costs a UTF-16 copy of the text on every call). Native text is searched
    /// with `ByteSearch`: stepping a `String.Index` a byte at a time took 4 % of a cold build.
    package static func firstRange(of needle: String, in text: Substring) -> Range<Substring.Index>? {
        let utf8 = text.utf8
        var needle = needle
        let found: Int?? = needle.withUTF8 { pattern in
            utf8.withContiguousStorageIfAvailable { ByteSearch.firstOffset(of: pattern, in: $0) }
        }
        if let found {
            guard let offset = found else { return nil }
            let start = utf8.index(utf8.startIndex, offsetBy: offset)
            return start..<utf8.index(start, offsetBy: needle.utf8.count)
        }
        return firstRangeByIndex(of: needle, in: text)
    }

    /// The same search for text without contiguous UTF-8 (bridged strings).
    private static func firstRangeByIndex(of needle: String, in text: Substring) -> Range<Substring.Index>? {
        let pattern = Array(needle.utf8)
        guard let first = pattern.first else { return nil }
        let utf8 = text.utf8
        var index = utf8.startIndex
        while let start = utf8[index...].firstIndex(of: first) {
            var end = start
            var matched = 0
            while matched < pattern.count, end < utf8.endIndex, utf8[end] == pattern[matched] {
                matched += 1
                end = utf8.index(after: end)
            }
            if matched == pattern.count { return start..<end }
            index = utf8.index(after: start)
        }
        return nil
    }

    /// At most `limit` characters, cut at a word boundary with an ellipsis.
    public static func truncate(_ text: String, limit: Int) -> String {
        // Not `text.count`: that breaks the whole text into characters, and it is a post's.
        guard let end = text.index(text.startIndex, offsetBy: limit, limitedBy: text.endIndex), end < text.endIndex else {
            return text
        }
        let cut = text[..<end]
        let word = cut.lastIndex(of: " ").map { cut[..<$0] } ?? cut
        return word.trimmingCharacters(in: .punctuationCharacters.union(.whitespaces)) + "…"
    }

    /// Escapes text for an HTML or XML text node or attribute value: `& < > " '` (the one
    /// escape, `HTMLEscape`, with the templates' rules).
    public static func escape(_ text: String) -> String { HTMLEscape.escape(text, .templates) }

    /// Appends `text` escaped to `output` (templates render into one buffer).
    public static func appendEscaped(_ text: String, to output: inout [UInt8]) { HTMLEscape.append(text, to: &output, .templates) }

    /// Makes root-relative `href="/…"` and `src="/…"` absolute, for feeds and federation,
    /// where there is no page URL to resolve them against.
    /// One pass over the UTF-8 bytes (a profile showed the string-replacing version at 28 % of a
    /// build): at each `="/` not followed by `/`, preceded by `href` or `src`, insert the base URL.
    public static func absolutizeLinks(_ html: String, baseURL: String) -> String {
        var html = html
        return html.withUTF8 { bytes -> String in
            let base = Array(baseURL.utf8)
            var output: [UInt8] = []
            var copied = 0
            var index = 0
            let count = bytes.count
            while index + 2 < count {
                // Look for `="/` (the cheap test first), then check what is around it.
                guard bytes[index] == 0x3D, bytes[index + 1] == 0x22, bytes[index + 2] == 0x2F else { index += 1; continue }
                let isRootRelative = index + 3 >= count || bytes[index + 3] != 0x2F
                if isRootRelative, endsWith(bytes, at: index, "href") || endsWith(bytes, at: index, "src") {
                    if output.isEmpty { output.reserveCapacity(count + 16 * base.count) }
                    output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[copied..<(index + 2)]))
                    output.append(contentsOf: base)
                    copied = index + 2
                }
                index += 3
            }
            guard copied > 0 else { return String(decoding: bytes, as: UTF8.self) }
            output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[copied...]))
            return String(decoding: output, as: UTF8.self)
        }
    }

    /// Whether `bytes[..<end]` ends with `suffix` preceded by a space (an attribute name).
    private static func endsWith(_ bytes: UnsafeBufferPointer<UInt8>, at end: Int, _ suffix: StaticString) -> Bool {
        let length = suffix.utf8CodeUnitCount
        guard end > length else { return false }
        let start = end - length
        guard bytes[start - 1] == 0x20 || bytes[start - 1] == 0x0A || bytes[start - 1] == 0x09 else { return false }
        let pointer = suffix.utf8Start
        for offset in 0..<length where bytes[start + offset] != pointer[offset] { return false }
        return true
    }

    /// `html` without each run that starts with `opening` and ends with the first `closing` after
    /// it (markup the renderer itself wrote, so no nesting to account for).
    package static func removing(_ html: String, from opening: String, through closing: String) -> String {
        guard firstRange(of: opening, in: Substring(html)) != nil else { return html }
        var output = ""
        var rest = Substring(html)
        while let start = firstRange(of: opening, in: rest) {
            output += rest[..<start.lowerBound]
            guard let end = firstRange(of: closing, in: rest[start.upperBound...]) else { rest = rest[start.lowerBound...]; break }
            rest = rest[end.upperBound...]
        }
        return output + rest
    }
}

extension HTMLSanitizer {
    /// Plain text (no tags) of sanitized or remote HTML, for digests and summaries. It lives
    /// here, not in `HTMLMarkup`, because it reads the sanitizer's output with `HTMLText.plain`.
    public static func text(_ html: String) -> String { HTMLText.plain(sanitize(html)) }
}
