extension SyntaxLanguage {
    /// POSIX shell and bash: `$VAR`, `${VAR:-x}`, `$(…)` and backquotes inside double quotes and
    /// out; verbatim single quotes and `$'…'`; heredocs (`<<EOF`, `<<-'EOF'`); `#` comments only
    /// at a word start; `NAME=` assignments.
    static let shell = shellFamily()

    /// A shell session: lines starting with a `$ ` or `% ` prompt are commands, the rest is output.
    static let console = shellFamily(prompts: ["$ ", "% "])

    private static func shellFamily(prompts: [String] = []) -> SyntaxLanguage {
        let expansions: [Interpolation] = [
            .code("$(", ")"),
            .braced(open: Array("${".utf8), close: UInt8(ascii: "}"), cls: .variable),
            .variable("$", specials: "0123456789?@#$!*-", sigilClass: .variable, nameClass: .variable),
            .code("`", "`"),
        ]
        let doubleQuoted = StringSyntax("\"", interpolations: expansions, multiline: true)
        return SyntaxLanguage(
            rules: [LexRule.shebang, .lineComment("#", when: .wordStart)] + [
                .string(doubleQuoted),
                .string(StringSyntax("'", multiline: true), prefixes: ["$"]),
                .string(.verbatimSingle),
                .heredoc(HeredocSyntax(indentFlags: "-", spaceBeforeWord: true, uppercaseWord: false,
                                       body: StringSyntax("", interpolations: expansions, multiline: true))),
            ] + expansions.map { LexRule.interpolation($0) },
            keywords: """
                case coproc do done elif else esac fi for if in select then time until while break continue \
                return exit export local readonly declare typeset unset shift source alias eval exec set trap
                """,
            functionKeywords: "function",
            builtins: """
                echo printf cd pwd read test cat grep sed awk find xargs sort uniq head tail cut tr wc mkdir rm cp \
                mv ln chmod chown touch ls curl wget tar git make sudo kill sleep true false
                """,
            identifier: IdentifierSyntax.standard.adding(rest: "-."),
            numbers: NumberSyntax(radixLetters: ByteSet(), separators: ByteSet(), suffix: ByteSet(), leadingDot: false),
            operators: "|&;<>!=",
            punctuation: "(){}[]",
            conventions: WordConventions(capitalized: .plain, assignment: .variable),
            prompts: prompts)
    }
}
