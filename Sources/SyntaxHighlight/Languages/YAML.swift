extension SyntaxLanguage {
    /// YAML: `key:` keys (plain or quoted), plain scalars as strings, numbers or literals, `#`
    /// comments, `&anchors`/`*aliases`, `!tags`, `|`/`>` block scalars (the indented lines after
    /// them), `---` documents, `%` directives and `[…]`/`{…}` flow collections.
    static let yaml = SyntaxLanguage(
        rules: [
            .lineComment("#", when: .afterWhitespace),
            .line(["---", "..."], .meta, when: .column0),
            .line(["%"], .meta, when: .column0),
            .string(StringSyntax("\"", multiline: true, keySuffix: ":")),
            .string(StringSyntax("'", escapes: .none, literalEscapes: ["''"], multiline: true, keySuffix: ":")),
            .sigil(["&", "*"], .variable, name: .yamlName),
            .sigil(["!!", "!"], .type, name: .yamlName),
            .custom(triggers: "|>", blockScalar),
            .custom(triggers: "[{", flow(opening: true)),
            .custom(triggers: "]}", flow(opening: false)),
            .custom(triggers: .yamlScalarStart, plainScalar),
        ],
        numbers: nil,
        operators: ByteSet(),
        punctuation: "-?:,[]{}|>",
        conventions: .data)

    /// `|`, `>-`, `|2+` ending a line: the lines indented deeper than this one are the string.
    private static let blockScalar: @Sendable (inout HighlightLexer, Int) -> Bool = { lexer, _ in
        var stop = lexer.pos + 1
        while stop < lexer.pos + 3 && ByteSet.blockIndicators.contains(lexer.byte(at: stop)) { stop += 1 }
        var next = stop
        while ByteSet.blank.contains(lexer.byte(at: next)) { next += 1 }
        let after = lexer.byte(at: next)
        guard after == 0 || after == UInt8(ascii: "\n") || after == UInt8(ascii: "\r")
            || (after == UInt8(ascii: "#") && next > stop) else { return false }
        lexer.pendingBodies.append(.indented(parentIndent: lexer.lineIndent(at: lexer.pos)))
        lexer.emit(.punctuation, to: stop)
        return true
    }

    /// Brackets of flow collections; inside them `,` `]` `}` end a plain scalar.
    private static func flow(opening: Bool) -> @Sendable (inout HighlightLexer, Int) -> Bool {
        { lexer, _ in
            lexer.frameDepth = max(0, lexer.frameDepth + (opening ? 1 : -1))
            lexer.emit(.punctuation, to: lexer.pos + 1)
            return true
        }
    }

    /// A plain (unquoted) scalar: a key if `:` and a space follow, else a value, classed as a
    /// number, a literal or a string. It runs to the line end, ` #`, or `: `.
    private static let plainScalar: @Sendable (inout HighlightLexer, Int) -> Bool = { lexer, _ in
        let first = lexer.bytes[lexer.pos]
        if ByteSet.yamlIndicatorsBeforeSpace.contains(first) && ByteSet.yamlSeparators.contains(lexer.byte(at: lexer.pos + 1)) {
            return false  // `- item`, `? key`, `: value`
        }
        let inFlow = lexer.frameDepth > 0
        var index = lexer.pos
        var textEnd = index
        var isKey = false
        while index < lexer.end {
            let byte = lexer.bytes[index]
            if byte == UInt8(ascii: "\n") { break }
            if byte == UInt8(ascii: ":") && index > lexer.pos {
                let next = lexer.byte(at: index + 1)
                if ByteSet.yamlSeparators.contains(next) || (inFlow && ByteSet.yamlFlow.contains(next)) {
                    isKey = true
                    break
                }
            }
            if byte == UInt8(ascii: "#") && index > lexer.pos && ByteSet.blank.contains(lexer.bytes[index - 1]) { break }
            if inFlow && ByteSet.yamlFlow.contains(byte) { break }
            if !ByteSet.whitespace.contains(byte) { textEnd = index + 1 }
            index += 1
        }
        lexer.emit(isKey ? .key : scalarClass(lexer.bytes, lexer.pos, textEnd), to: textEnd)
        return true
    }

    private static let yamlLiterals = WordTable([(words: "true false yes no on off null ~", cls: .literal, next: .plain),
                                                 (words: ".inf -.inf +.inf .nan", cls: .number, next: .plain)],
                                                foldCase: true)

    private static func scalarClass(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> TokenClass {
        if let entry = yamlLiterals.lookup(bytes, start, end) { return entry.cls }
        var digits = 0
        for index in start..<end {
            let byte = bytes[index]
            guard ByteSet.yamlNumber.contains(byte) else { return .string }
            if ByteSet.digits.contains(byte) { digits += 1 }
        }
        return digits > 0 && !ByteSet.letters.contains(bytes[start]) ? .number : .string
    }
}

private extension ByteSet {
    static let yamlName = ByteSet.identifierContinue + "-./:"
    static let blockIndicators: ByteSet = "+-0123456789"
    static let yamlSeparators: ByteSet = " \t\r\n\0"
    static let yamlFlow: ByteSet = ",[]{}"
    static let yamlIndicatorsBeforeSpace: ByteSet = "-?:"
    /// Bytes of numbers, dates and times: `1_000`, `0x1F`, `1.5e-3`, `2001-12-14T21:59:43Z`.
    static let yamlNumber = ByteSet.hexDigits + "xXoO_.+-:TZtz"
    /// Anything but whitespace and indicators can start a plain scalar (`-?:` when a non-space follows).
    static let yamlScalarStart = ByteSet(0...255) - ByteSet.whitespace - ",[]{}#&*!|>'\"%@`"
}
