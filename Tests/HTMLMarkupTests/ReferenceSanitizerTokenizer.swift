// PRE-UNIFICATION REFERENCE, not used by Lectern: `Sources/Site/Sanitizer/HTMLTokenizer.swift`
// as it was before issue 38 (main at e4a61e1), renamed from `HTMLTokenizer`, otherwise as it was.
// `TokenizerDifferentialTests` checks that `HTMLTokenizer` with `.sanitizer` yields the same
// tokens. Kept in the test target for this round; delete it with the differential test once
// the unified tokenizer has a release behind it.
@testable import HTMLMarkup

/// Splits HTML into tokens the way a browser's tokenizer would for the parts that matter to a
/// sanitizer: text, start tags with attributes (quoted, unquoted or bare), end tags, comments
/// and other markup declarations. It never fails: malformed markup becomes text or is skipped,
/// and whatever it yields is re-serialized by `HTMLSanitizer`, never passed through.
struct ReferenceSanitizerTokenizer: Sequence, IteratorProtocol {
    enum Token: Equatable {
        case text(String)
        case startTag(name: String, attributes: [(name: String, value: String)], selfClosing: Bool)
        case endTag(name: String)

        static func == (a: Token, b: Token) -> Bool {
            switch (a, b) {
            case (.text(let x), .text(let y)): return x == y
            case (.endTag(let x), .endTag(let y)): return x == y
            case (.startTag(let n1, let a1, let s1), .startTag(let n2, let a2, let s2)):
                return n1 == n2 && s1 == s2 && a1.map(\.name) == a2.map(\.name) && a1.map(\.value) == a2.map(\.value)
            default: return false
            }
        }
    }

    private let bytes: [UInt8]
    private var position = 0
    /// Inside `<script>`, `<style>` and the like everything up to the matching end tag is text.
    private var rawTextEnd: String?

    init(_ html: String) { bytes = Array(html.utf8) }

    static let rawTextElements: Set<String> = ["script", "style", "textarea", "title", "xmp", "iframe", "noembed",
                                               "noframes", "noscript", "plaintext"]

    mutating func next() -> Token? {
        guard position < bytes.count else { return nil }
        if let end = rawTextEnd {
            rawTextEnd = nil
            return rawText(until: end)
        }
        if bytes[position] == UInt8(ascii: "<"), let token = markup() { return token }
        // Text runs to the next "<" that can start markup (a lone "<" is text).
        let start = position
        position += 1
        while position < bytes.count, bytes[position] != UInt8(ascii: "<") { position += 1 }
        return .text(HTMLEntities.decode(bytes[start..<position]))
    }

    /// A tag, comment or declaration at `position`, or nil when the "<" is plain text.
    private mutating func markup() -> Token? {
        let next = position + 1 < bytes.count ? bytes[position + 1] : 0
        if next == UInt8(ascii: "!") || next == UInt8(ascii: "?") {
            skipDeclaration()
            return .text("")
        }
        if next == UInt8(ascii: "/") {
            let nameStart = position + 2
            guard nameStart < bytes.count, Self.isLetter(bytes[nameStart]) else {
                // "</>" is dropped; "</ x>" is a bogus comment, both per the HTML spec.
                skipTo(UInt8(ascii: ">"), from: nameStart)
                return .text("")
            }
            var cursor = nameStart
            let name = readName(&cursor)
            skipTo(UInt8(ascii: ">"), from: cursor)
            return .endTag(name: name)
        }
        guard Self.isLetter(next) else { return nil }
        var cursor = position + 1
        let name = readName(&cursor)
        var attributes: [(name: String, value: String)] = []
        var selfClosing = false
        while cursor < bytes.count {
            skipSpace(&cursor)
            guard cursor < bytes.count else { break }
            let byte = bytes[cursor]
            if byte == UInt8(ascii: ">") { cursor += 1; break }
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
            // The first of duplicate attributes wins, as in browsers.
            if !attributeName.isEmpty, !attributes.contains(where: { $0.name == attributeName }) {
                attributes.append((attributeName, value))
            }
        }
        position = cursor
        if Self.rawTextElements.contains(name) { rawTextEnd = name }
        return .startTag(name: name, attributes: attributes, selfClosing: selfClosing)
    }

    private mutating func rawText(until name: String) -> Token {
        let closing = Array("</\(name)".utf8)
        var cursor = position
        while cursor < bytes.count {
            if bytes[cursor] == UInt8(ascii: "<"), cursor + closing.count <= bytes.count,
               zip(closing, bytes[cursor..<cursor + closing.count]).allSatisfy({ Self.lower($1) == $0 }) {
                break
            }
            cursor += 1
        }
        let text = String(decoding: bytes[position..<cursor], as: UTF8.self)
        position = cursor
        return .text(text)
    }

    private mutating func skipDeclaration() {
        if bytes[position...].starts(with: Array("<!--".utf8)) {
            var cursor = position + 4
            while cursor + 2 < bytes.count, !(bytes[cursor] == 45 && bytes[cursor + 1] == 45 && bytes[cursor + 2] == 62) {
                cursor += 1
            }
            position = Swift.min(bytes.count, cursor + 3)
            return
        }
        skipTo(UInt8(ascii: ">"), from: position + 2)
    }

    private mutating func skipTo(_ byte: UInt8, from start: Int) {
        var cursor = start
        while cursor < bytes.count, bytes[cursor] != byte { cursor += 1 }
        position = Swift.min(bytes.count, cursor + 1)
    }

    private func readName(_ cursor: inout Int) -> String {
        let start = cursor
        while cursor < bytes.count, !Self.isSpace(bytes[cursor]), bytes[cursor] != UInt8(ascii: ">"),
              bytes[cursor] != UInt8(ascii: "/") { cursor += 1 }
        return String(decoding: bytes[start..<cursor].map(Self.lower), as: UTF8.self)
    }

    private func readAttributeName(_ cursor: inout Int) -> String {
        let start = cursor
        cursor += 1  // a name may start with "=" (it is then part of the name)
        while cursor < bytes.count, !Self.isSpace(bytes[cursor]), bytes[cursor] != UInt8(ascii: ">"),
              bytes[cursor] != UInt8(ascii: "/"), bytes[cursor] != UInt8(ascii: "=") { cursor += 1 }
        return String(decoding: bytes[start..<cursor].map(Self.lower), as: UTF8.self)
    }

    private func readAttributeValue(_ cursor: inout Int) -> String {
        guard cursor < bytes.count else { return "" }
        let quote = bytes[cursor]
        if quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") {
            let start = cursor + 1
            var end = start
            while end < bytes.count, bytes[end] != quote { end += 1 }
            cursor = Swift.min(bytes.count, end + 1)
            return HTMLEntities.decode(bytes[start..<end])
        }
        let start = cursor
        while cursor < bytes.count, !Self.isSpace(bytes[cursor]), bytes[cursor] != UInt8(ascii: ">") { cursor += 1 }
        return HTMLEntities.decode(bytes[start..<cursor])
    }

    private func skipSpace(_ cursor: inout Int) {
        while cursor < bytes.count, Self.isSpace(bytes[cursor]) { cursor += 1 }
    }

    static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0C || byte == 0x0D }
    static func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z") }
    static func lower(_ byte: UInt8) -> UInt8 { byte >= 65 && byte <= 90 ? byte | 0x20 : byte }
}
