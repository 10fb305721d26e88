extension SyntaxLanguage {
    /// Python: every string prefix (`r`, `b`, `f`, `rb`, `fr`… in any case) with single, double
    /// and triple quotes; f-string `{…}` interpolation with `{{` escapes; `@decorators` at line
    /// start; complex numbers (`2j`).
    static let python = SyntaxLanguage(
        rules: [LexRule.shebang, LexRule.hashComment] + pythonStrings + [
            .sigil(["@"], .attribute, name: .dottedName, when: .lineStart),
        ],
        keywords: """
            and as assert async await break case continue del elif else except finally for from global if import \
            in is lambda match nonlocal not or pass raise return try type while with yield
            """,
        functionKeywords: "def",
        typeKeywords: "class",
        types: "bool bytearray bytes complex dict float frozenset int list object set str tuple type",
        literals: "True False None self cls NotImplemented Ellipsis __name__")

    /// Four behaviours (plain, raw, formatted, raw formatted) times four quotes.
    private static let pythonStrings: [LexRule] = {
        let fString = [Interpolation.code("{", "}")]
        let kinds: [(prefixes: [String], escapes: EscapeStyle, interpolations: [Interpolation])] = [
            (["", "b", "u"], .backslash, []),
            (["r", "br", "rb"], .verbatim, []),
            (["f"], .backslash, fString),
            (["fr", "rf"], .verbatim, fString),
        ]
        return ["\"\"\"", "'''", "\"", "'"].flatMap { quote in
            kinds.map { kind in
                let syntax = StringSyntax(quote, escapes: kind.escapes,
                                          literalEscapes: kind.interpolations.isEmpty ? [] : ["{{", "}}"],
                                          interpolations: kind.interpolations, multiline: quote.count == 3)
                return LexRule.string(syntax, prefixes: kind.prefixes.flatMap(\.caseVariants))
            }
        }
    }()
}

private extension String {
    /// `rb` → `rb`, `rB`, `Rb`, `RB`.
    var caseVariants: [String] {
        reduce([""]) { variants, character in
            let forms = Set([character.lowercased(), character.uppercased()])
            return variants.flatMap { variant in forms.sorted().map { variant + $0 } }
        }
    }
}
