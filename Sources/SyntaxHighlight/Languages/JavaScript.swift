extension SyntaxLanguage {
    /// JavaScript: template literals with nested `${…}`, `/regex/` literals told from division by
    /// what precedes them, `@decorators`, `#!` shebangs, BigInts (`1n`).
    static let javaScript = ecmaScript()

    /// JavaScript and TypeScript, which adds its own keywords and types.
    static func ecmaScript(keywords: String = "", typeKeywords: String = "",
                           types: String = "") -> SyntaxLanguage {
        SyntaxLanguage(
            rules: [LexRule.shebang] + LexRule.slashComments + [
                .string(StringSyntax("`", interpolations: [.code("${", "}")], multiline: true)),
                .string(.doubleQuoted),
                .string(.singleQuoted),
                .regex(flags: "dgimsuvy"),
                .sigil(["@"], .attribute, name: .dottedName),
            ],
            keywords: """
                as async await break case catch const continue debugger default delete do else export extends \
                finally for from get if import in instanceof let new of return set static switch throw try typeof \
                var void while with yield \(keywords)
                """,
            functionKeywords: "function",
            typeKeywords: "class " + typeKeywords,
            types: types,
            literals: "true false null undefined this super NaN Infinity",
            identifier: IdentifierSyntax.standard.adding(start: "$"))
    }
}
