extension SyntaxLanguage {
    /// HTML and XML: tags, attribute names and values, `<!-- comments -->`, `<!DOCTYPE>` and
    /// `<?xml?>` declarations, CDATA, `&entities;`. The bodies of `<script>` and `<style>` are
    /// highlighted as JavaScript and CSS, up to their closing tag as a browser would find it.
    static let html = markup(
        rules: [
            .blockComment("<!--", "-->"),
            .block(["<![CDATA["], close: "]]>", .string),
            .block(["<!", "<?"], close: ">", .meta),
            .custom(["</"], tag(closing: true)),
            .custom(["<"], tag(closing: false)),
            .custom(["&"], entity),
        ])

    /// The inside of a tag, up to `>`: attribute names, `=`, and values quoted or not.
    static let htmlTag = SyntaxLanguage(
        rules: [
            .string(StringSyntax("\"", multiline: true)),
            .string(StringSyntax("'", multiline: true)),
        ],
        identifier: IdentifierSyntax(start: ByteSet.identifierContinue + "-:.@#", rest: ByteSet.identifierContinue + "-:.@#%"),
        numbers: nil,
        operators: "=",
        punctuation: "/?",
        conventions: WordConventions(capitalized: .plain, callsAreFunctions: false, otherwise: .attribute),
        wordHook: { lexer, _, _ in
            // An unquoted value: `<td colspan=2>`.
            lexer.prevClass == .operator && lexer.prevByte == UInt8(ascii: "=") ? .string : nil
        })

    /// `<name` or `</name`: the name is a tag, then a tag frame runs to `>`. After an opening
    /// `<script` or `<style`, an embedded JavaScript or CSS frame waits below it.
    private static func tag(closing: Bool) -> @Sendable (inout HighlightLexer, Int) -> Bool {
        { lexer, prefixLength in
            let nameStart = lexer.pos + prefixLength
            guard ByteSet.letters.contains(lexer.byte(at: nameStart)) else { return false }
            var nameEnd = nameStart
            while nameEnd < lexer.end && ByteSet.tagName.contains(lexer.bytes[nameEnd]) { nameEnd += 1 }
            lexer.emit(.punctuation, to: nameStart)
            lexer.emit(.tag, to: nameEnd)
            if !closing {
                for (name, language) in [("script", SyntaxLanguage.javaScript), ("style", .css)]
                where nameEnd - nameStart == name.utf8.count && lexer.matchesIgnoringCase(Array(name.utf8), at: nameStart) {
                    lexer.pushEmbed(language, terminator: "</" + name)
                }
            }
            lexer.pushCode(htmlTag, closer: UInt8(ascii: ">"))
            return true
        }
    }

    /// `&amp;`, `&#169;`, `&#x1F600;`: at most 32 name characters, then `;`.
    private static let entity: @Sendable (inout HighlightLexer, Int) -> Bool = { lexer, _ in
        var stop = lexer.pos + 1
        if lexer.byte(at: stop) == UInt8(ascii: "#") { stop += 1 }
        let nameStart = stop
        while stop < min(lexer.end, nameStart + 32) && ByteSet.asciiWord.contains(lexer.bytes[stop]) { stop += 1 }
        guard stop > nameStart, lexer.byte(at: stop) == UInt8(ascii: ";") else { return false }
        lexer.emit(.escape, to: stop + 1)
        return true
    }
}

private extension ByteSet {
    static let tagName = ByteSet.asciiWord + "-:."
}
