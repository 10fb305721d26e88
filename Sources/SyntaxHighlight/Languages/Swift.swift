extension SyntaxLanguage {
    /// Swift: nested block comments; `"…"`, `"""…"""` and raw `#"…"#` strings with `\(…)`
    /// interpolation (`\#(…)` in raw ones); `@attributes`, `#directives`, `/regex/` and
    /// `#/regex/#` literals; `$0` and projected `$value`s.
    static let swift: SyntaxLanguage = {
        func string(_ quote: String, multiline: Bool) -> StringSyntax {
            StringSyntax(quote, interpolations: [.code("\\(", ")")], multiline: multiline, hashed: true)
        }
        return SyntaxLanguage(
            rules: LexRule.nestedSlashComments + [
                .string(string("\"\"\"", multiline: true)),
                .string(string("\"", multiline: false)),
                .string(StringSyntax("#/", "/#", cls: .regex, escapes: .verbatim, multiline: true)),
                .regex(),
                .sigil(["@"], .attribute),
                .sigil(["#"], .meta),
                .sigil(["$"], .variable),
                // `default` in backticks is a name, not a keyword.
                .string(StringSyntax("`", cls: .plain, escapes: .none)),
            ],
            keywords: """
                actor any as associatedtype async await borrowing break case catch consume consuming continue \
                convenience copy default defer deinit didSet do dynamic each else fallthrough fileprivate final \
                for get guard if import in indirect infix init inout internal is isolated lazy let macro mutating \
                nonisolated nonmutating open operator optional override package postfix precedencegroup prefix \
                private public repeat required rethrows return set some static subscript switch throw throws try \
                unowned var weak where while willSet sending
                """,
            functionKeywords: "func",
            typeKeywords: "class enum extension protocol struct typealias",
            literals: "true false nil self super")
    }()
}
