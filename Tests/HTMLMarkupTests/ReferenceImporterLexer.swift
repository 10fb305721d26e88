// PRE-UNIFICATION REFERENCE, not used by Lectern: `Sources/Import/HTMLToMarkdown/HTMLLexer.swift`
// as it was before issue 38 (main at e4a61e1), renamed from `HTMLLexer`. Two edits only: the
// known-element test it called, `HTMLElementNames.isKnown` (Import), is now
// `HTMLTokenizer.isKnownElement`, moved with its list unchanged; and `HTMLAttribute`, defined
// here before, is now `HTMLMarkup`'s (the same two fields). `TokenizerDifferentialTests` checks
// that `HTMLTokenizer` with `.importer` yields the same tokens. Kept in the test target for this
// round; delete it with the differential test once the unified tokenizer has a release behind it.
@testable import HTMLMarkup

/// Splits HTML into tokens roughly as a browser's tokenizer does: text (entities decoded once),
/// start tags with attributes, end tags and comments. It never fails: a `<` that cannot start
/// markup is text, and so is a tag-like run such as `<insert format>` whose name is not an HTML
/// element and which is never closed (a writer's placeholder that lost its escaping).
struct ReferenceImporterLexer: Sequence, IteratorProtocol {
    enum Token: Equatable {
        case text(String)
        case startTag(name: String, attributes: [HTMLAttribute], selfClosing: Bool)
        case endTag(name: String)
        case comment(String)
    }

    private let bytes: [UInt8]
    /// Lower-cased copy, to look for end tags of unknown elements.
    private let lowered: [UInt8]
    private var position = 0
    /// Inside `<script>`, `<style>` and the like, everything up to the matching end tag is text.
    private var rawTextEnd: String?

    init(_ html: String) {
        bytes = Array(html.utf8)
        lowered = bytes.map { $0 >= 65 && $0 <= 90 ? $0 + 32 : $0 }
    }

    static let rawTextElements: Set<String> = ["script", "style", "textarea", "title", "xmp"]

    mutating func next() -> Token? {
        guard position < bytes.count else { return nil }
        if let end = rawTextEnd {
            rawTextEnd = nil
            return rawText(until: end)
        }
        if bytes[position] == UInt8(ascii: "<"), let token = markup() { return token }
        let start = position
        position += 1
        while position < bytes.count, bytes[position] != UInt8(ascii: "<") { position += 1 }
        return .text(HTMLEntities.decode(String(decoding: bytes[start..<position], as: UTF8.self)))
    }

    /// A tag, comment or declaration at `position`, or nil when the `<` is text.
    private mutating func markup() -> Token? {
        let next = position + 1 < bytes.count ? bytes[position + 1] : 0
        if next == UInt8(ascii: "!") { return declaration() }
        if next == UInt8(ascii: "?") {
            skip(past: UInt8(ascii: ">"), from: position + 2)
            return .comment("")
        }
        if next == UInt8(ascii: "/") {
            let nameStart = position + 2
            guard nameStart < bytes.count, Self.isLetter(bytes[nameStart]) else { return nil }
            var cursor = nameStart
            let name = readName(&cursor)
            skip(past: UInt8(ascii: ">"), from: cursor)
            return .endTag(name: name)
        }
        guard Self.isLetter(next) else { return nil }
        var cursor = position + 1
        let name = readName(&cursor)
        var attributes: [HTMLAttribute] = []
        var selfClosing = false
        var closed = false
        while cursor < bytes.count {
            skipSpace(&cursor)
            guard cursor < bytes.count else { break }
            let byte = bytes[cursor]
            if byte == UInt8(ascii: ">") { cursor += 1; closed = true; break }
            if byte == UInt8(ascii: "/") { selfClosing = true; cursor += 1; continue }
            selfClosing = false
            let attributeName = readAttributeName(&cursor)
            skipSpace(&cursor)
            var value = ""
            if cursor < bytes.count, bytes[cursor] == UInt8(ascii: "=") {
                cursor += 1
                skipSpace(&cursor)
                value = readAttributeValue(&cursor)
            }
            if !attributeName.isEmpty, !attributes.contains(where: { $0.name == attributeName }) {
                attributes.append(HTMLAttribute(name: attributeName, value: value))
            }
        }
        // An unterminated tag at the end, or an unknown never-closed "element", is text.
        guard closed, HTMLTokenizer.isKnownElement(name) || hasEndTag(name, after: cursor) else { return nil }
        position = cursor
        if Self.rawTextElements.contains(name) && !selfClosing { rawTextEnd = name }
        return .startTag(name: name, attributes: attributes, selfClosing: selfClosing)
    }

    private mutating func declaration() -> Token {
        if starts(with: "<!--", at: position) { return .comment(delimited(openerLength: 4, closer: "-->")) }
        if starts(with: "<![CDATA[", at: position) { return .text(delimited(openerLength: 9, closer: "]]>")) }
        skip(past: UInt8(ascii: ">"), from: position + 2)
        return .comment("")
    }

    /// The text between an opener at `position` and `closer` (or the end), moving past both.
    private mutating func delimited(openerLength: Int, closer: StaticString) -> String {
        let contentStart = Swift.min(position + openerLength, bytes.count)
        var cursor = contentStart
        while cursor < bytes.count, !starts(with: closer, at: cursor) { cursor += 1 }
        position = Swift.min(cursor + closer.utf8CodeUnitCount, bytes.count)
        return String(decoding: bytes[contentStart..<cursor], as: UTF8.self)
    }

    private mutating func rawText(until name: String) -> Token {
        let start = position
        let closing = Array("</\(name)".utf8)
        var cursor = position
        while cursor < bytes.count {
            if lowered[cursor] == UInt8(ascii: "<"), cursor + closing.count <= bytes.count,
               Array(lowered[cursor..<(cursor + closing.count)]) == closing {
                break
            }
            cursor += 1
        }
        position = cursor
        let text = String(decoding: bytes[start..<cursor], as: UTF8.self)
        // Only <textarea> and <title> decode entities; script and style are literal.
        return .text(name == "textarea" || name == "title" ? HTMLEntities.decode(text) : text)
    }

    private func hasEndTag(_ name: String, after start: Int) -> Bool {
        let closing = Array("</\(name)".utf8)
        var cursor = start
        while cursor + closing.count <= lowered.count {
            if lowered[cursor] == UInt8(ascii: "<"), Array(lowered[cursor..<(cursor + closing.count)]) == closing {
                let after = cursor + closing.count
                return after == lowered.count || !Self.isNameByte(lowered[after])
            }
            cursor += 1
        }
        return false
    }

    private func readName(_ cursor: inout Int) -> String {
        let start = cursor
        while cursor < bytes.count, Self.isNameByte(bytes[cursor]) { cursor += 1 }
        return String(decoding: lowered[start..<cursor], as: UTF8.self)
    }

    private func readAttributeName(_ cursor: inout Int) -> String {
        let start = cursor
        while cursor < bytes.count {
            let byte = bytes[cursor]
            if byte == UInt8(ascii: "=") && cursor > start { break }
            if byte == UInt8(ascii: ">") || byte == UInt8(ascii: "/") || Self.isSpace(byte) { break }
            cursor += 1
        }
        if cursor == start { cursor += 1 }  // a stray "=" or quote: skip it
        return String(decoding: lowered[start..<Swift.min(cursor, bytes.count)], as: UTF8.self)
    }

    private func readAttributeValue(_ cursor: inout Int) -> String {
        guard cursor < bytes.count else { return "" }
        let quote = bytes[cursor]
        if quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") {
            let start = cursor + 1
            var end = start
            while end < bytes.count, bytes[end] != quote { end += 1 }
            cursor = Swift.min(end + 1, bytes.count)
            return HTMLEntities.decode(String(decoding: bytes[start..<end], as: UTF8.self))
        }
        let start = cursor
        while cursor < bytes.count, !Self.isSpace(bytes[cursor]), bytes[cursor] != UInt8(ascii: ">") { cursor += 1 }
        return HTMLEntities.decode(String(decoding: bytes[start..<cursor], as: UTF8.self))
    }

    private func skipSpace(_ cursor: inout Int) {
        while cursor < bytes.count, Self.isSpace(bytes[cursor]) { cursor += 1 }
    }

    private mutating func skip(past byte: UInt8, from start: Int) {
        var cursor = start
        while cursor < bytes.count, bytes[cursor] != byte { cursor += 1 }
        position = Swift.min(cursor + 1, bytes.count)
    }

    private func starts(with text: StaticString, at index: Int) -> Bool {
        let count = text.utf8CodeUnitCount
        guard index + count <= bytes.count else { return false }
        for offset in 0..<count {
            let expected = text.utf8Start[offset]
            guard lowered[index + offset] == (expected >= 65 && expected <= 90 ? expected + 32 : expected) else { return false }
        }
        return true
    }

    static func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z") }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        isLetter(byte) || (byte >= 48 && byte <= 57) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ":")
            || byte == UInt8(ascii: "_")
    }

    private static func isSpace(_ byte: UInt8) -> Bool { byte == 32 || byte == 9 || byte == 10 || byte == 13 || byte == 12 }
}

