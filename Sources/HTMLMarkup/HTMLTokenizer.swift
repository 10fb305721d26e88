/// Splits HTML into tokens the way a browser's tokenizer would for the parts that matter to its
/// two readers: text (character references decoded once), start tags with attributes (quoted,
/// unquoted or bare; the first of duplicates wins), end tags and comments. It never fails:
/// malformed markup becomes text or a comment.
///
/// Two readers share it, and where they must read the same markup differently an `Options`
/// field says so. Each preset is its reader's behaviour from before the two tokenizers became
/// one, token for token (`TokenizerDifferentialTests` holds both old tokenizers as references):
///
/// - `HTMLSanitizer` (`.sanitizer`) reads remote HTML as a browser does wherever that decides
///   what is an element: a tag name runs to a space, `/` or `>`, `</>` and `</ x>` are bogus
///   comments, and every element whose content a browser does not read as markup is raw text,
///   so no tag hides where a browser would find one. (A start tag cut off by the end of the
///   input it keeps, where a browser drops it: what it writes is re-serialized from its
///   allowlist and closed, never passed through.) It skips the comments itself.
/// - The importer's tree (`HTMLNode.parse`, `.importer`) reads old blogs' HTML as their
///   writers meant it: what is probably not a tag stays text, `<![CDATA[…]]>` is text, and it
///   keeps the comments (`<!-- more -->` marks the excerpt).
public struct HTMLTokenizer: Sequence, IteratorProtocol {
    public enum Token: Equatable, Sendable {
        case text(String)
        case startTag(name: String, attributes: [HTMLAttribute], selfClosing: Bool)
        case endTag(name: String)
        /// The text of `<!--…-->`; "" for a declaration (`<!DOCTYPE …>`, `<?xml …?>`) or a
        /// bogus comment (`</ x>` with `.sanitizer`, `<![CDATA[…` without `cdataIsText`).
        case comment(String)
    }

    public struct Options: Sendable {
        /// Elements whose content is text up to their end tag, never markup (HTML's "raw text"):
        /// `<script>if (a<b) …</script>` is one text. The sanitizer lists every element a
        /// browser may read this way (`iframe`, `noscript`, `plaintext`…), so a tag-like run
        /// inside one is never taken for a tag a browser would not see. The importer lists only
        /// `script`, `style` and `xmp`: what old posts put inside `<noscript>` or `<iframe>` (a
        /// lazy-loaded image's real `<img>`, an embed's fallback link) it reads as markup.
        public var rawTextElements: Set<String>
        /// Elements whose content is text up to their end tag, with its references decoded
        /// (HTML's "escapable raw text": `<textarea>`, `<title>`). The importer keeps that text;
        /// the sanitizer drops it, so it reads these as plain raw text (`rawTextElements`).
        public var escapableRawTextElements: Set<String>
        /// Whether `<script src="x"/>` has no content. A browser ignores the `/` (the script
        /// runs to `</script>`), and so does the sanitizer; themes written as XHTML close such
        /// elements this way, and read as a browser would, the rest of the post became script.
        public var selfClosedRawTextIsEmpty: Bool
        /// Whether `<![CDATA[…]]>` is text (feeds and WordPress exports wrap text in it). A
        /// browser reads it in HTML as a bogus comment that ends at the first `>`, and so does
        /// the sanitizer.
        public var cdataIsText: Bool
        /// Whether a tag name is only letters, digits, `-`, `:` and `_`, so a slip after the
        /// name in a hand-written post (`<br.>`) still makes the element the writer meant (the
        /// importer's reading). A browser's name runs to a space, `/` or `>` (`br.`), and so
        /// does the sanitizer's: it never allows an element under a name a browser reads
        /// otherwise.
        public var namesAreNameCharacters: Bool
        /// Whether a `<` that probably does not start a tag is text: `</` without a letter
        /// after it (`a </ b`), a start tag cut off by the end of the input, and a tag whose
        /// name is not an element and which is never closed (`<insert format>`, a writer's
        /// placeholder that lost its escaping). The sanitizer reads the first as a bogus comment
        /// and the others as tags (see the type's comment for the cut-off one).
        public var doubtfulTagsAreText: Bool

        /// `HTMLSanitizer`'s reading (remote HTML): a browser's.
        public static let sanitizer = Options(
            rawTextElements: ["script", "style", "textarea", "title", "xmp", "iframe", "noembed", "noframes", "noscript",
                              "plaintext"],
            escapableRawTextElements: [], selfClosedRawTextIsEmpty: false, cdataIsText: false,
            namesAreNameCharacters: false, doubtfulTagsAreText: false)

        /// The importer's reading (old blogs' HTML): what its writers meant.
        public static let importer = Options(
            rawTextElements: ["script", "style", "xmp"], escapableRawTextElements: ["textarea", "title"],
            selfClosedRawTextIsEmpty: true, cdataIsText: true, namesAreNameCharacters: true, doubtfulTagsAreText: true)
    }

    private let bytes: [UInt8]
    private let options: Options
    private var position = 0
    /// Inside `<script>`, `<style>` and the like everything up to the matching end tag is text:
    /// that element's name, and whether the text's references are decoded.
    private var rawTextEnd: (name: String, decoded: Bool)?

    public init(_ html: String, options: Options) {
        bytes = Array(html.utf8)
        self.options = options
    }

    public mutating func next() -> Token? {
        guard position < bytes.count else { return nil }
        if let end = rawTextEnd {
            rawTextEnd = nil
            return rawText(until: end.name, decoded: end.decoded)
        }
        if bytes[position] == UInt8(ascii: "<"), let token = markup() { return token }
        // Text runs to the next "<" that can start markup (a lone "<" is text).
        let start = position
        position += 1
        while position < bytes.count, bytes[position] != UInt8(ascii: "<") { position += 1 }
        return .text(HTMLEntities.decode(bytes[start..<position]))
    }

    /// A tag, comment or declaration at `position`, or nil when the "<" is text.
    private mutating func markup() -> Token? {
        let next = position + 1 < bytes.count ? bytes[position + 1] : 0
        if next == UInt8(ascii: "!") || next == UInt8(ascii: "?") { return declaration() }
        if next == UInt8(ascii: "/") { return endTag() }
        guard Self.isLetter(next) else { return nil }
        return startTag()
    }

    private mutating func declaration() -> Token {
        if starts(with: "<!--", at: position) { return .comment(delimited(openerLength: 4, closer: "-->")) }
        if options.cdataIsText, starts(with: "<![CDATA[", at: position) {
            return .text(delimited(openerLength: 9, closer: "]]>"))
        }
        skip(past: UInt8(ascii: ">"), from: position + 2)
        return .comment("")
    }

    private mutating func endTag() -> Token? {
        let nameStart = position + 2
        guard nameStart < bytes.count, Self.isLetter(bytes[nameStart]) else {
            if options.doubtfulTagsAreText { return nil }
            // "</>" is dropped; "</ x>" is a bogus comment, both per the HTML spec.
            skip(past: UInt8(ascii: ">"), from: nameStart)
            return .comment("")
        }
        var cursor = nameStart
        let name = readName(&cursor)
        skip(past: UInt8(ascii: ">"), from: cursor)
        return .endTag(name: name)
    }

    private mutating func startTag() -> Token? {
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
            // The first of duplicate attributes wins, as in browsers.
            if !attributeName.isEmpty, !attributes.contains(where: { $0.name == attributeName }) {
                attributes.append(HTMLAttribute(name: attributeName, value: value))
            }
        }
        if options.doubtfulTagsAreText {
            guard closed, Self.isKnownElement(name) || hasEndTag(name, after: cursor) else { return nil }
        }
        position = cursor
        if !(selfClosing && options.selfClosedRawTextIsEmpty) {
            if options.rawTextElements.contains(name) {
                rawTextEnd = (name, false)
            } else if options.escapableRawTextElements.contains(name) {
                rawTextEnd = (name, true)
            }
        }
        return .startTag(name: name, attributes: attributes, selfClosing: selfClosing)
    }

    /// The text between an opener at `position` and `closer` (or the end), moving past both.
    private mutating func delimited(openerLength: Int, closer: StaticString) -> String {
        let contentStart = Swift.min(position + openerLength, bytes.count)
        var cursor = contentStart
        while cursor < bytes.count, !starts(with: closer, at: cursor) { cursor += 1 }
        position = Swift.min(cursor + closer.utf8CodeUnitCount, bytes.count)
        return String(decoding: bytes[contentStart..<cursor], as: UTF8.self)
    }

    private mutating func rawText(until name: String, decoded: Bool) -> Token {
        let closing = Array("</\(name)".utf8)
        var cursor = position
        while cursor < bytes.count, !matches(closing, at: cursor) { cursor += 1 }
        let text = bytes[position..<cursor]
        position = cursor
        return .text(decoded ? HTMLEntities.decode(text) : String(decoding: text, as: UTF8.self))
    }

    /// Whether `</name` follows `start` as a whole name (`</x-y`, not `</x-yz`).
    private func hasEndTag(_ name: String, after start: Int) -> Bool {
        let closing = Array("</\(name)".utf8)
        var cursor = start
        while cursor + closing.count <= bytes.count {
            if matches(closing, at: cursor) {
                let after = cursor + closing.count
                return after == bytes.count || !isNameByte(bytes[after])
            }
            cursor += 1
        }
        return false
    }

    /// Whether `pattern` (ASCII) stands at `index`, in any case.
    private func matches(_ pattern: some Collection<UInt8>, at index: Int) -> Bool {
        guard index + pattern.count <= bytes.count else { return false }
        var cursor = index
        for byte in pattern {
            guard Self.lower(bytes[cursor]) == Self.lower(byte) else { return false }
            cursor += 1
        }
        return true
    }

    private func starts(with text: StaticString, at index: Int) -> Bool {
        text.withUTF8Buffer { matches($0, at: index) }
    }

    private mutating func skip(past byte: UInt8, from start: Int) {
        var cursor = start
        while cursor < bytes.count, bytes[cursor] != byte { cursor += 1 }
        position = Swift.min(cursor + 1, bytes.count)
    }

    /// A tag name, lower-cased (ASCII only, as in browsers).
    private func readName(_ cursor: inout Int) -> String {
        let start = cursor
        while cursor < bytes.count, isNameByte(bytes[cursor]) { cursor += 1 }
        return String(decoding: bytes[start..<cursor].map(Self.lower), as: UTF8.self)
    }

    private func isNameByte(_ byte: UInt8) -> Bool {
        if options.namesAreNameCharacters {
            return Self.isLetter(byte) || (byte >= 48 && byte <= 57) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ":")
                || byte == UInt8(ascii: "_")
        }
        return !Self.isSpace(byte) && byte != UInt8(ascii: ">") && byte != UInt8(ascii: "/")
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

extension HTMLTokenizer {
    /// HTML, SVG and MathML names, custom elements (`<my-widget>`) and namespaced ones (`<o:p>`):
    /// with `doubtfulTagsAreText`, a tag of any other name is text unless its end tag follows.
    static func isKnownElement(_ name: String) -> Bool {
        knownElements.contains(name) || name.contains("-") || name.contains(":")
    }

    private static let knownElements: Set<String> = [
        "a", "abbr", "acronym", "address", "applet", "area", "article", "aside", "audio", "b", "base", "basefont", "bdi",
        "bdo", "big", "blink", "blockquote", "body", "br", "button", "canvas", "caption", "center", "cite", "code", "col",
        "colgroup", "data", "datalist", "dd", "del", "details", "dfn", "dialog", "dir", "div", "dl", "dt", "em", "embed",
        "fieldset", "figcaption", "figure", "font", "footer", "form", "frame", "frameset", "h1", "h2", "h3", "h4", "h5",
        "h6", "head", "header", "hgroup", "hr", "html", "i", "iframe", "img", "input", "ins", "kbd", "label", "legend",
        "li", "link", "main", "map", "mark", "marquee", "menu", "menuitem", "meta", "meter", "nav", "nobr", "noembed",
        "noframes", "noscript", "object", "ol", "optgroup", "option", "output", "p", "param", "picture", "plaintext",
        "pre", "progress", "q", "rp", "rt", "ruby", "s", "samp", "script", "search", "section", "select", "slot", "small",
        "source", "span", "strike", "strong", "style", "sub", "summary", "sup", "table", "tbody", "td", "template",
        "textarea", "tfoot", "th", "thead", "time", "title", "tr", "track", "tt", "u", "ul", "var", "video", "wbr", "xmp",
        // SVG and MathML, which appear inline in posts.
        "svg", "g", "path", "circle", "rect", "line", "polyline", "polygon", "ellipse", "defs", "use", "text", "tspan",
        "symbol", "lineargradient", "radialgradient", "stop", "clippath", "mask", "pattern", "marker", "foreignobject",
        "desc", "image", "math", "mi", "mo", "mn", "ms", "mtext", "mrow", "msup", "msub", "msubsup", "mfrac", "msqrt",
        "mroot", "mtable", "mtr", "mtd", "mover", "munder", "munderover", "mspace", "mstyle", "semantics", "annotation",
    ]
}

/// One attribute of a tag, its value decoded.
public struct HTMLAttribute: Equatable, Sendable {
    public var name: String
    public var value: String

    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}
