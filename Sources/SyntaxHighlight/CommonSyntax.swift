/// Pieces many languages share, so each language file stays a table of its own differences.
extension StringSyntax {
    /// `"…"` on one line with backslash escapes: C, Java, Go, JavaScript…
    static let doubleQuoted = StringSyntax("\"")
    /// `'…'` on one line with backslash escapes: JavaScript strings, C and Java characters.
    static let singleQuoted = StringSyntax("'")
    /// `'…'` verbatim and free to span lines: shell, TOML literal strings.
    static let verbatimSingle = StringSyntax("'", escapes: .none, multiline: true)
}

extension LexRule {
    /// `//` and `/* */`, as in C and most of its descendants.
    static let slashComments: [LexRule] = [.lineComment("//"), .blockComment("/*", "*/")]
    /// `//` and `/* */` where block comments nest (Swift, Rust, Kotlin).
    static let nestedSlashComments: [LexRule] = [.lineComment("//"), .blockComment("/*", "*/", nests: true)]
    /// `#!/usr/bin/env …` on the first line.
    static let shebang = LexRule.line(["#!"], .meta, when: .inputStart)
    /// `#` to the end of the line.
    static let hashComment = LexRule.lineComment("#")
}

extension SyntaxLanguage {
    /// A markup or text format: only its rules give classes; the words, digits and symbols
    /// between their tokens stay plain.
    static func markup(rules: [LexRule] = []) -> SyntaxLanguage {
        SyntaxLanguage(rules: rules, numbers: nil, operators: ByteSet(),
                       punctuation: ByteSet(), conventions: .data)
    }
}

extension WordConventions {
    /// Names are neither types nor calls: data formats and markup.
    static let data = WordConventions(capitalized: .plain, callsAreFunctions: false)
}

extension ByteSet {
    /// Name characters for sigils that allow dotted names: `@a.b.c` decorators, `@file:JvmName`.
    static let dottedName = identifierContinue + "."
}
