extension SyntaxLanguage {
    /// Kotlin: nested block comments, `"…"` and raw `"""…"""` strings with `$name` and `${…}`
    /// templates, `'c'` characters, `@Annotations` (`@file:JvmName`), `1_000L`/`0xFFu` numbers.
    static let kotlin: SyntaxLanguage = {
        let templates: [Interpolation] = [.code("${", "}"), .variable("$")]
        return SyntaxLanguage(
            rules: [LexRule.shebang] + LexRule.nestedSlashComments + [
                .string(StringSyntax("\"\"\"", escapes: .none, interpolations: templates, multiline: true)),
                .string(StringSyntax("\"", interpolations: templates)),
                .string(.singleQuoted),
                .sigil(["@"], .attribute, name: .dottedName + ":"),
                // Backticked names (`` `is valid` ``) are names.
                .string(StringSyntax("`", cls: .plain, escapes: .none)),
            ],
            keywords: """
                abstract actual annotation as break by catch companion const constructor continue crossinline data \
                delegate do dynamic else enum expect external field file final finally for get if import in infix \
                init inline inner internal is lateinit noinline open operator out override package param private \
                property protected public receiver reified return sealed set setparam suspend tailrec throw try \
                typealias val value var vararg when where while
                """,
            functionKeywords: "fun",
            typeKeywords: "class interface object",
            literals: "true false null this super")
    }()
}
