/// Accumulates the Markdown of one run of inline content (a paragraph, a heading, a cell),
/// folding HTML whitespace as a browser does: runs become one space, none at the start or the
/// end, and a space before a closing delimiter moves after it (`*word* next`).
struct InlineWriter {
    private(set) var output = ""
    private var pendingSpace = false
    /// Whitespace came before any content: the caller puts it outside its delimiters.
    private var leadingSpace = false
    private var atLineStart = true
    let inTable: Bool

    init(inTable: Bool) { self.inTable = inTable }

    /// The character that precedes whatever is written next.
    var lastCharacter: Character? { pendingSpace ? " " : output.last }

    var isEmpty: Bool { output.isEmpty }

    mutating func text(_ raw: String, next: Character?) {
        let pieces = raw.split(whereSeparator: Self.isFoldable)
        if raw.first.map(Self.isFoldable) == true { space() }
        for (index, piece) in pieces.enumerated() {
            if index > 0 { space() }
            let after: Character? = index + 1 < pieces.count || raw.last.map(Self.isFoldable) == true ? " " : next
            let escaped = MarkdownEscaping.text(String(piece), before: lastCharacter, after: after, inTable: inTable)
            flushSpace()
            output += escaped
            atLineStart = false
        }
        if !pieces.isEmpty, raw.last.map(Self.isFoldable) == true { space() }
    }

    mutating func space() {
        if output.isEmpty { leadingSpace = true; return }
        if atLineStart { return }
        pendingSpace = true
    }

    /// Opening markup (or a whole construct such as a link): a pending space goes before it.
    mutating func markup(_ text: String) {
        guard !text.isEmpty else { return }
        flushSpace()
        // "!" followed by "[" would make an image.
        if text.hasPrefix("["), output.hasSuffix("!"), !output.hasSuffix("\\!") {
            output.insert("\\", at: output.index(before: output.endIndex))
        }
        output += text
        atLineStart = false
    }

    /// Closing markup: a pending space stays pending, so it lands after the delimiter.
    mutating func close(_ text: String) {
        output += text
        atLineStart = false
    }

    mutating func lineBreak() {
        guard !output.isEmpty, !atLineStart else { return }
        pendingSpace = false
        output += "\\\n"
        atLineStart = true
    }

    /// The content without surrounding whitespace, and whether there was whitespace around it.
    func finish() -> (leading: Bool, text: String, trailing: Bool) {
        var text = Substring(output)
        var trailing = pendingSpace
        while true {
            if text.hasSuffix("\\\n") {
                text = text.dropLast(2)
                trailing = true
            } else if let last = text.last, last.isWhitespace, !text.hasSuffix("\\ ") {
                text = text.dropLast()
                trailing = true
            } else {
                break
            }
        }
        var leading = leadingSpace
        while let first = text.first, first.isWhitespace {
            text = text.dropFirst()
            leading = true
        }
        return (leading, String(text), trailing)
    }

    private mutating func flushSpace() {
        if pendingSpace {
            output += " "
            pendingSpace = false
        }
    }

    private static func isFoldable(_ character: Character) -> Bool {
        character == " " || character == "\n" || character == "\t" || character == "\r\n" || character == "\r"
            || character == "\u{0C}"
    }
}
