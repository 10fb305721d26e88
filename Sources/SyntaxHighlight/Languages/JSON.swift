extension SyntaxLanguage {
    /// JSON, and the JSONC/JSON5 extras: a string before `:` is a key, others are values;
    /// comments, single quotes, unquoted keys and hex numbers are accepted.
    static let json = SyntaxLanguage(
        rules: LexRule.slashComments + [
            .string(StringSyntax("\"", keySuffix: ":")),
            .string(StringSyntax("'", keySuffix: ":")),
            .key(before: ":", chars: ByteSet.identifierContinue + "$"),
        ],
        literals: "true false null NaN Infinity",
        operators: "+-",
        punctuation: "{}[],:",
        conventions: .data)
}
