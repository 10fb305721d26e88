extension SyntaxLanguage {
    /// TOML: `[table]` and `[[array]]` headers, bare, dotted and quoted keys, the four string
    /// kinds, dates and times, `inf`/`nan`, `0x`/`0o`/`0b` integers.
    static let toml = SyntaxLanguage(
        rules: [
            LexRule.hashComment,
            .block(["[["], close: "]]", .heading, singleLine: true, when: .column0),
            .block(["["], close: "]", .heading, singleLine: true, when: .column0),
            .string(StringSyntax("\"\"\"", multiline: true)),
            .string(StringSyntax("'''", escapes: .none, multiline: true)),
            .string(StringSyntax("\"", keySuffix: "=")),
            .string(StringSyntax("'", escapes: .none, keySuffix: "=")),
            .key(before: "=", chars: ByteSet.asciiWord + "-.\"'"),
        ],
        literals: "true false",
        numberWords: "inf nan",
        numbers: NumberSyntax(dates: true),
        operators: "=+-",
        punctuation: "[]{},.",
        conventions: .data)
}
