extension SyntaxLanguage {
    /// Markdown: `#` headings (and `===` underlines), emphasis and strong (shown as keywords),
    /// code spans, fenced code blocks highlighted in their own language, links and images (the
    /// target as an attribute), list markers, block quotes, rules and backslash escapes.
    static let markdown = markup(
        rules: [
            .custom(triggers: "`~", when: .lineStart, fencedCode),
            .line(["# ", "## ", "### ", "#### ", "##### ", "###### ", "#\n", "##\n", "###\n"], .heading, when: .lineStart),
            .line(["==="], .heading, when: .lineStart),
            .line(["---", "***", "___"], .punctuation, when: .lineStart),
            .prefix(["- ", "* ", "+ ", ">"], .punctuation, when: .lineStart),
            .custom(triggers: .digits, when: .lineStart, orderedListMarker),
            .prefix(escapable.map { "\\\($0)" }, .escape),
            .custom(["`"], codeSpan),
            .string(StringSyntax("**", cls: .keyword, escapes: .none), when: .leftFlanking),
            .string(StringSyntax("__", cls: .keyword, escapes: .none), when: .leftFlanking),
            .string(StringSyntax("*", cls: .keyword, escapes: .none), when: .leftFlanking),
            .string(StringSyntax("_", cls: .keyword, escapes: .none), when: .leftFlanking),
            .string(StringSyntax("](", ")", cls: .attribute, escapes: .none, delimiterClass: .punctuation)),
            .prefix(["![", "[", "]"], .punctuation),
        ])

    /// ASCII punctuation, which a backslash escapes.
    private static let escapable = "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"

    /// `1.` or `1)` and a space at a line start.
    private static let orderedListMarker: @Sendable (inout HighlightLexer, Int) -> Bool = { lexer, _ in
        var stop = lexer.pos
        while stop < lexer.pos + 9 && ByteSet.digits.contains(lexer.byte(at: stop)) { stop += 1 }
        let marker = lexer.byte(at: stop)
        guard marker == UInt8(ascii: ".") || marker == UInt8(ascii: ")"), lexer.byte(at: stop + 1) == UInt8(ascii: " ")
        else { return false }
        lexer.emit(.punctuation, to: stop + 1)
        return true
    }

    private static let codeSpanSyntax = StringSyntax("`", escapes: .none)

    /// A run of backticks opens a code span that the same run closes, on the same line.
    private static let codeSpan: @Sendable (inout HighlightLexer, Int) -> Bool = { lexer, _ in
        var stop = lexer.pos
        while stop < lexer.end && lexer.bytes[stop] == UInt8(ascii: "`") { stop += 1 }
        lexer.openString(codeSpanSyntax, openEnd: stop, close: Array(repeating: UInt8(ascii: "`"), count: stop - lexer.pos))
        return true
    }

    /// ```` ```lang ```` (or `~~~`) up to a closing fence at least as long: the fence lines are meta,
    /// the body is highlighted in the named language, or shown as a string when it has none.
    private static let fencedCode: @Sendable (inout HighlightLexer, Int) -> Bool = { lexer, _ in
        let fence = lexer.bytes[lexer.pos]
        var infoStart = lexer.pos
        while infoStart < lexer.end && lexer.bytes[infoStart] == fence { infoStart += 1 }
        let length = infoStart - lexer.pos
        guard length >= 3 else { return false }
        let lineEnd = lexer.endOfLine(from: infoStart)
        let info = lexer.bytes[infoStart..<lineEnd]
        if fence == UInt8(ascii: "`") && info.contains(fence) { return false }
        let bodyStart = min(lineEnd + 1, lexer.end)
        let (bodyEnd, closeEnd) = closingFence(lexer, fence: fence, length: length, from: bodyStart)
        lexer.emit(.meta, to: lineEnd)
        lexer.emitSpace(to: bodyStart)
        if closeEnd > bodyEnd { lexer.pushToken(.meta, to: closeEnd) }
        let name = CodeFenceInfo.parse(String(decoding: info, as: UTF8.self)).language
        if let language = LanguageRegistry.language(named: name), lexer.canPush {
            lexer.pushCode(language, limit: bodyEnd)
        } else {
            lexer.pushToken(.string, to: bodyEnd)
        }
        return true
    }

    /// The start and end of the closing fence line (both the end when there is none).
    private static func closingFence(_ lexer: HighlightLexer, fence: UInt8, length: Int, from start: Int) -> (Int, Int) {
        var lineStart = start
        while lineStart < lexer.end {
            let lineEnd = lexer.endOfLine(from: lineStart)
            var index = lineStart
            while index < lineEnd && ByteSet.blank.contains(lexer.bytes[index]) { index += 1 }
            let runStart = index
            while index < lineEnd && lexer.bytes[index] == fence { index += 1 }
            let run = index - runStart
            while index < lineEnd && ByteSet.whitespace.contains(lexer.bytes[index]) { index += 1 }
            if run >= length && index == lineEnd { return (lineStart, lineEnd) }
            lineStart = lineEnd + 1
        }
        return (lexer.end, lexer.end)
    }
}
