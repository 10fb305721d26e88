#if canImport(Glibc)
import Glibc
#endif

/// The one HTML escape: text made safe for an HTML or XML text node or attribute value.
///
/// By UTF-8 byte, which is by Unicode scalar for everything it changes: the characters it
/// escapes are ASCII, and ASCII bytes never occur inside a multi-byte sequence; the controls it
/// drops are whole sequences. Never by `Character`: a `"` followed by a combining mark is one
/// Swift character but still ends an attribute value in a browser.
///
/// Its readers differ only in `Rules`: the theme's templates escape `"` and `'` everywhere
/// (`.templates`); the sanitizer drops NUL and the bidi controls that would reorder what
/// follows on the page (`.remoteText`, `.remoteAttribute`); the importer writes line breaks of
/// attributes as `&#10;` (`.importedAttribute`), since a blank line would end an HTML block in
/// Markdown.
public enum HTMLEscape {
    public struct Rules: Sendable {
        /// `"` as `&quot;`.
        public var doubleQuote: Bool
        /// `'` as `&#39;`.
        public var apostrophe: Bool
        /// A line break as `&#10;`.
        public var lineBreak: Bool
        /// NUL, and the bidi embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069),
        /// left out; the directional marks (U+200E, U+200F, U+061C) are harmless and stay.
        public var dropsControls: Bool

        public static let templates = Rules(doubleQuote: true, apostrophe: true, lineBreak: false, dropsControls: false)
        public static let remoteText = Rules(doubleQuote: false, apostrophe: false, lineBreak: false, dropsControls: true)
        public static let remoteAttribute = Rules(doubleQuote: true, apostrophe: false, lineBreak: false, dropsControls: true)
        public static let importedText = Rules(doubleQuote: false, apostrophe: false, lineBreak: false, dropsControls: false)
        public static let importedAttribute = Rules(doubleQuote: true, apostrophe: false, lineBreak: true, dropsControls: false)
    }

    public static func escape(_ text: String, _ rules: Rules) -> String {
        var text = text
        return text.withUTF8 { bytes -> String in
            guard bytes.contains(where: { needsWork($0, rules) }) else { return String(decoding: bytes, as: UTF8.self) }
            var output: [UInt8] = []
            output.reserveCapacity(bytes.count + 32)
            append(bytes, to: &output, rules)
            return String(decoding: output, as: UTF8.self)
        }
    }

    /// Appends `text` escaped to `output` (templates render into one buffer).
    public static func append(_ text: String, to output: inout [UInt8], _ rules: Rules) {
        var text = text
        text.withUTF8 { append($0, to: &output, rules) }
    }

    /// Whether a byte may need escaping or dropping (0xE2 starts the bidi controls).
    private static func needsWork(_ byte: UInt8, _ rules: Rules) -> Bool {
        switch byte {
        case 0x26, 0x3C, 0x3E: return true
        case 0x22: return rules.doubleQuote
        case 0x27: return rules.apostrophe
        case 0x0A: return rules.lineBreak
        case 0x00, 0xE2: return rules.dropsControls
        default: return false
        }
    }

    private static func append(_ bytes: UnsafeBufferPointer<UInt8>, to output: inout [UInt8], _ rules: Rules) {
        var runStart = 0
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            guard needsWork(byte, rules) else { index += 1; continue }
            var replacement: StaticString?
            var length = 1
            switch byte {
            case 0x26: replacement = "&amp;"
            case 0x3C: replacement = "&lt;"
            case 0x3E: replacement = "&gt;"
            case 0x22: replacement = "&quot;"
            case 0x27: replacement = "&#39;"
            case 0x0A: replacement = "&#10;"
            case 0x00: replacement = ""
            default:  // 0xE2: a bidi control is E2 80 AA–AE or E2 81 A6–A9
                guard index + 2 < bytes.count,
                      (bytes[index + 1] == 0x80 && (0xAA...0xAE).contains(bytes[index + 2]))
                        || (bytes[index + 1] == 0x81 && (0xA6...0xA9).contains(bytes[index + 2])) else { index += 1; continue }
                (replacement, length) = ("", 3)
            }
            output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
            if let replacement { replacement.withUTF8Buffer { output.append(contentsOf: $0) } }
            index += length
            runStart = index
        }
        output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart...]))
    }
}
