extension SyntaxLanguage {
    /// Elixir: `#{…}` interpolation in strings, charlists and `"""` heredocs; sigils `~r/…/i`,
    /// `~w(…)a`, `~S"""…"""` (lowercase ones interpolate); `:atoms`, `key:`s, `@module_attributes`,
    /// `?a` code points and `def`/`defp`/`defmacro` names.
    static let elixir: SyntaxLanguage = {
        let interpolating = [Interpolation.code("#{", "}")]
        func sigils(_ letters: String, _ cls: TokenClass, interpolate: Bool) -> LexRule {
            .delimited(letters.map { "~\($0)" },
                       StringSyntax("", cls: cls, escapes: interpolate ? .backslash : .verbatim,
                                    interpolations: interpolate ? interpolating : [], multiline: true,
                                    modifiers: .letters))
        }
        return SyntaxLanguage(
            rules: [
                LexRule.hashComment,
                .string(StringSyntax("\"\"\"", interpolations: interpolating, multiline: true)),
                .string(StringSyntax("'''", interpolations: interpolating, multiline: true)),
                .string(StringSyntax("\"", interpolations: interpolating, multiline: true)),
                .string(StringSyntax("'", interpolations: interpolating, multiline: true)),
                .string(StringSyntax("\"", cls: .literal, interpolations: interpolating), prefixes: [":"]),
                sigils("r", .regex, interpolate: true),
                sigils("R", .regex, interpolate: false),
                sigils("abcdefghijklmnopqstuvwxyz", .string, interpolate: true),
                sigils("ABCDEFGHIJKLMNOPQSTUVWXYZ", .string, interpolate: false),
                .sigil([":"], .literal, name: .identifierContinue + "?!@", when: .wordStart),
                .sigil(["@"], .variable),
                .custom(["?"], codePoint),
            ],
            keywords: """
                after alias and case catch cond do else end fn for if import in not or quote raise receive require \
                rescue try unless unquote use when with
                """,
            functionKeywords: "def defp defmacro defmacrop defguard defguardp defdelegate",
            typeKeywords: "defmodule defprotocol defimpl defstruct defexception",
            literals: "true false nil __MODULE__ __ENV__ __DIR__ __CALLER__",
            identifier: IdentifierSyntax.standard.adding(trailing: "?!"),
            operators: "+-*/=<>!&|^~?:\\",
            conventions: WordConventions(colonSuffix: .literal))
    }()

    /// `?a`, `?\n`: the code point of a character, a number.
    private static let codePoint: @Sendable (inout HighlightLexer, Int) -> Bool = { lexer, _ in
        let character = lexer.pos + 1
        guard character < lexer.end, !ByteSet.whitespace.contains(lexer.bytes[character]) else { return false }
        var stop = character + lexer.scalarLength(at: character)
        if lexer.bytes[character] == UInt8(ascii: "\\") && stop < lexer.end { stop += lexer.scalarLength(at: stop) }
        lexer.emit(.number, to: stop)
        return true
    }
}
