extension SyntaxLanguage {
    /// Ruby: `#{…}` interpolation, `%w[]`/`%i()`/`%q{}`/`%r{}` literals, `:symbols` and `key:`s,
    /// `@ivars`/`@@class_vars`/`$globals`, `/regex/` literals, heredocs (`<<~EOS`),
    /// `=begin`/`=end` comments and `empty?`/`save!` names.
    static let ruby: SyntaxLanguage = {
        let interpolating = [Interpolation.code("#{", "}")]
        let doubleQuoted = StringSyntax("\"", interpolations: interpolating, multiline: true)
        let percentLiteral = StringSyntax("", interpolations: interpolating, multiline: true)
        let symbolName = ByteSet.identifierContinue + "?!="
        return SyntaxLanguage(
            rules: [
                LexRule.shebang,
                .block(["=begin"], close: "\n=end", .comment, when: .column0),
                LexRule.hashComment,
                .string(doubleQuoted),
                .string(StringSyntax("'", escapes: .quoteOnly, multiline: true)),
                .string(StringSyntax("`", interpolations: interpolating, multiline: true)),
                .string(StringSyntax("\"", cls: .literal, interpolations: interpolating), prefixes: [":"]),
                .delimited(["%r"], StringSyntax("", cls: .regex, escapes: .verbatim, interpolations: interpolating,
                                                multiline: true, modifiers: "imxo")),
                .delimited(["%w", "%W", "%i", "%I", "%q", "%Q", "%s"], percentLiteral),
                .delimited(["%"], percentLiteral, when: .expectsValue),
                .sigil([":"], .literal, name: symbolName, when: .wordStart),
                .sigil(["@@", "@", "$"], .variable),
                .regex(flags: "imxo"),
                .heredoc(HeredocSyntax(indentFlags: "-~", spaceBeforeWord: false, uppercaseWord: true,
                                       body: StringSyntax("", interpolations: interpolating, multiline: true))),
            ],
            keywords: """
                alias and begin break case defined? do else elsif end ensure for if in loop next not or redo rescue \
                retry return then undef unless until when while yield __method__ require require_relative \
                attr_reader attr_writer attr_accessor include extend private protected public raise
                """,
            functionKeywords: "def",
            typeKeywords: "class module",
            literals: "true false nil self __FILE__ __LINE__",
            identifier: IdentifierSyntax.standard.adding(trailing: "?!"),
            conventions: WordConventions(colonSuffix: .literal))
    }()
}
