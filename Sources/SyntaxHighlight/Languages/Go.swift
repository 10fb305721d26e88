extension SyntaxLanguage {
    /// Go: `"…"` strings, backquoted raw strings over lines, `'x'` runes, imaginary numbers.
    /// Capitalised names are exported, not necessarily types, so types come from the list,
    /// from `type` declarations, and by capital only when not called (`fmt.Println(` is a call).
    static let go = SyntaxLanguage(
        rules: LexRule.slashComments + [
            .string(.doubleQuoted),
            .string(StringSyntax("`", escapes: .none, multiline: true)),
            .string(.singleQuoted),
        ],
        keywords: """
            break case chan const continue default defer else fallthrough for go goto if import interface map \
            package range return select struct switch var
            """,
        functionKeywords: "func",
        typeKeywords: "type",
        types: """
            any bool byte comparable complex64 complex128 error float32 float64 int int8 int16 int32 int64 rune \
            string uint uint8 uint16 uint32 uint64 uintptr
            """,
        literals: "true false nil iota",
        conventions: WordConventions(capitalized: .typesUnlessCalled))
}
