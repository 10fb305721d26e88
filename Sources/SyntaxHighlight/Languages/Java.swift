extension SyntaxLanguage {
    /// Java: `"…"` strings and `"""` text blocks, `'c'` characters, `@Annotations`, primitive
    /// types, `1_000L`/`0x1Fp3`/`1.5f` numbers.
    static let java = SyntaxLanguage(
        rules: LexRule.slashComments + [
            .string(StringSyntax("\"\"\"", multiline: true)),
            .string(.doubleQuoted),
            .string(.singleQuoted),
            .sigil(["@"], .attribute, name: .dottedName),
        ],
        keywords: """
            abstract assert break case catch const continue default do else exports extends final finally for goto \
            if implements import instanceof module native new non-sealed open opens package permits private \
            protected provides public requires return sealed static strictfp switch synchronized throw throws \
            transient try uses var volatile when while with yield
            """,
        typeKeywords: "class enum interface record",
        types: "boolean byte char double float int long short void",
        literals: "true false null this super")
}
