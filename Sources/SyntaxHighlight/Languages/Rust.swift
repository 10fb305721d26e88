extension SyntaxLanguage {
    /// Rust: nested block comments, byte and raw strings (`b"…"`, `r#"…"#`), char literals
    /// against lifetimes (`'x'` against `'a`), `#[attributes]`, `macro!`s and suffixed numbers.
    static let rust = SyntaxLanguage(
        rules: LexRule.nestedSlashComments + [
            .string(StringSyntax("\"", escapes: .none, multiline: true, hashed: true), prefixes: ["r", "br", "cr"]),
            .string(StringSyntax("\"", multiline: true), prefixes: ["", "b", "c"]),
            .custom(["'", "b'"], charOrLifetime),
            .sigil(["#[", "#!["], .attribute, name: .identifierContinue + ":"),
        ],
        keywords: """
            as async await break const continue crate dyn else extern for if impl in let loop match mod move \
            mut pub ref return static super trait unsafe use where while yield
            """,
        functionKeywords: "fn",
        typeKeywords: "enum struct trait type union",
        types: "bool char f32 f64 i8 i16 i32 i64 i128 isize str u8 u16 u32 u64 u128 usize",
        literals: "true false self",
        conventions: WordConventions(macroBang: true))

    /// `'x'`, `'\n'`, `'\u{1F600}'` are characters; `'a` and `'static` are lifetimes (shown as
    /// types: they are generic parameters). Looks at most a dozen bytes ahead.
    private static let charOrLifetime: @Sendable (inout HighlightLexer, Int) -> Bool = { lexer, prefixLength in
        let start = lexer.pos + prefixLength
        var close = start
        if lexer.byte(at: start) == UInt8(ascii: "\\") {
            close = start + 2
            while close < min(lexer.end, start + 12) && lexer.bytes[close] != UInt8(ascii: "'")
                && lexer.bytes[close] != UInt8(ascii: "\n") { close += 1 }
        } else if start < lexer.end && lexer.bytes[start] != UInt8(ascii: "'") {
            close = start + lexer.scalarLength(at: start)
        }
        if close > start && lexer.byte(at: close) == UInt8(ascii: "'") {
            lexer.openString(.singleQuoted, openEnd: start, close: StringSyntax.singleQuoted.close)
            return true
        }
        guard prefixLength == 1, ByteSet.identifierStart.contains(lexer.byte(at: start)) else { return false }
        var stop = start
        while stop < lexer.end && ByteSet.identifierContinue.contains(lexer.bytes[stop]) { stop += 1 }
        lexer.emit(.type, to: stop)
        return true
    }
}
