extension SyntaxLanguage {
    /// CSS (and the SCSS/Less basics): selectors (`tag`, `.class`, `#id`, `:hover`, `[attr]`),
    /// properties, values with units and `#colors`, `@rules`, `--custom-properties`, `!important`,
    /// functions.
    ///
    /// Whether a name is a selector, a property or a value depends on where it stands, which the
    /// rules for `{`, `}`, `;`, `:` and `@` track in the frame's mode, with one bit per nesting
    /// level for blocks that hold rules (`@media { … }`) rather than declarations.
    static let css = SyntaxLanguage(
        rules: [
            .blockComment("/*", "*/"),
            .lineComment("//", when: .afterWhitespace),  // SCSS and Less; `url(//host)` stays a URL
            .string(.doubleQuoted),
            .string(.singleQuoted),
            .sigil(["--"], .variable, name: .cssName),
            .sigil(["$"], .variable, name: .cssName),
            .sigil(["!"], .keyword, name: .letters),
            .custom(["@"], atRule),
            .custom(["{"], openBlock),
            .custom(["}", ";"], endStatement),
            .custom([":"], colon),
            .custom(["#", "."], selectorOrColor),
        ],
        identifier: IdentifierSyntax.standard.adding(rest: "-"),
        numbers: NumberSyntax(radixLetters: ByteSet(), separators: ByteSet(), suffix: .letters, percent: true),
        operators: "+>~*=|^$",
        punctuation: "(),[]",
        conventions: WordConventions(capitalized: .plain),
        wordHook: cssWord)

    /// Where in a style sheet the lexer stands.
    private enum Place: UInt8 {
        case selector, declaration, value
        /// The prelude of an at-rule whose block holds rules (`@media`) or declarations (`@font-face`).
        case ruleListPrelude, declarationsPrelude
    }

    private static func place(_ lexer: HighlightLexer) -> Place { Place(rawValue: lexer.frameMode) ?? .selector }

    /// Whether the block at the current depth holds rules; the top level does.
    private static func holdsRules(_ lexer: HighlightLexer) -> Bool {
        lexer.frameDepth == 0 || (lexer.frameDepth < 64 && lexer.frameBits & (1 << UInt64(lexer.frameDepth)) != 0)
    }

    private static let openBlock: @Sendable (inout HighlightLexer, Int) -> Bool = { lexer, _ in
        let ruleList = place(lexer) == .ruleListPrelude
        lexer.frameDepth += 1
        if lexer.frameDepth < 64 {
            let bit = UInt64(1) << UInt64(lexer.frameDepth)
            lexer.frameBits = ruleList ? lexer.frameBits | bit : lexer.frameBits & ~bit
        }
        lexer.frameMode = (ruleList ? Place.selector : .declaration).rawValue
        lexer.emit(.punctuation, to: lexer.pos + 1)
        return true
    }

    /// `}` closes a block and `;` ends a statement: what follows is a selector in a rule list,
    /// a declaration in a rule.
    private static let endStatement: @Sendable (inout HighlightLexer, Int) -> Bool = { lexer, _ in
        if lexer.bytes[lexer.pos] == UInt8(ascii: "}") { lexer.frameDepth = max(0, lexer.frameDepth - 1) }
        lexer.frameMode = (holdsRules(lexer) ? Place.selector : .declaration).rawValue
        lexer.emit(.punctuation, to: lexer.pos + 1)
        return true
    }

    /// `@media …`: the prelude up to `{` or `;` is neither selector nor declaration.
    private static let atRule: @Sendable (inout HighlightLexer, Int) -> Bool = { lexer, _ in
        var stop = lexer.pos + 1
        while stop < lexer.end && ByteSet.cssName.contains(lexer.bytes[stop]) { stop += 1 }
        guard stop > lexer.pos + 1 else { return false }
        let declarations = declarationAtRules.lookup(lexer.bytes, lexer.pos + 1, stop) != nil
        lexer.frameMode = (declarations ? Place.declarationsPrelude : .ruleListPrelude).rawValue
        lexer.emit(.keyword, to: stop)
        return true
    }

    private static let declarationAtRules = WordTable(
        [(words: "font-face page property counter-style font-palette-values viewport", cls: .keyword, next: .plain)],
        foldCase: true)

    /// After a property, `:` starts its value; in a selector `:hover` and `::before` are pseudo-classes.
    private static let colon: @Sendable (inout HighlightLexer, Int) -> Bool = { lexer, _ in
        switch place(lexer) {
        case .declaration:
            lexer.frameMode = Place.value.rawValue
        case .selector:
            var nameStart = lexer.pos + 1
            if lexer.byte(at: nameStart) == UInt8(ascii: ":") { nameStart += 1 }
            var stop = nameStart
            while stop < lexer.end && ByteSet.cssName.contains(lexer.bytes[stop]) { stop += 1 }
            if stop > nameStart {
                lexer.emit(.attribute, to: stop)
                return true
            }
        case .value, .ruleListPrelude, .declarationsPrelude:
            break
        }
        lexer.emit(.punctuation, to: lexer.pos + 1)
        return true
    }

    /// `#fff` in a value is a color; `#main` and `.note` in a selector are ids and classes.
    /// A `.` before a digit is left to the number scanner (`.5em`).
    private static let selectorOrColor: @Sendable (inout HighlightLexer, Int) -> Bool = { lexer, _ in
        let isHash = lexer.bytes[lexer.pos] == UInt8(ascii: "#")
        var stop = lexer.pos + 1
        while stop < lexer.end && ByteSet.cssName.contains(lexer.bytes[stop]) { stop += 1 }
        guard stop > lexer.pos + 1, isHash || !ByteSet.digits.contains(lexer.bytes[lexer.pos + 1]) else { return false }
        switch place(lexer) {
        case .value where isHash: lexer.emit(.number, to: stop)
        case .selector, .declaration: lexer.emit(.attribute, to: stop)
        default: return false
        }
        return true
    }

    /// Functions before `(`; element names in selectors (attribute names in `[…]`); properties
    /// before `:`; value keywords plain.
    private static let cssWord: @Sendable (inout HighlightLexer, Int, Int) -> TokenClass? = { lexer, _, stop in
        if lexer.byte(at: stop) == UInt8(ascii: "(") { return .function }
        var next = stop
        while next < stop + 4 && ByteSet.blank.contains(lexer.byte(at: next)) { next += 1 }
        let beforeColon = lexer.byte(at: next) == UInt8(ascii: ":")
        switch place(lexer) {
        case .selector:
            return lexer.prevClass == .punctuation && lexer.prevByte == UInt8(ascii: "[") ? .attribute : .tag
        case .declaration: return beforeColon ? .key : .tag
        case .ruleListPrelude, .declarationsPrelude: return beforeColon ? .key : .plain
        case .value: return .plain
        }
    }
}

private extension ByteSet {
    static let cssName = ByteSet.identifierContinue + "-"
}
