extension SyntaxLanguage {
    /// C++: C plus raw strings `R"delim(…)delim"`, `[[attributes]]`, `1'000'000` digit
    /// separators and the C++ keywords.
    static let cpp = SyntaxLanguage(
        rules: CFamily.rules([
            .custom(["R\"", "LR\"", "u8R\"", "uR\"", "UR\""], rawString),
            .sigil(["[["], .attribute, name: .identifierContinue + ":"),
        ]),
        keywords: CFamily.keywords + " " + """
            catch co_await co_return co_yield concept consteval constexpr constinit const_cast decltype delete \
            dynamic_cast explicit export friend mutable namespace new noexcept operator private protected public \
            reinterpret_cast requires static_cast template this throw try typeid typename using virtual
            """,
        typeKeywords: CFamily.typeKeywords + " class",
        types: CFamily.types,
        literals: CFamily.literals + " this",
        numbers: NumberSyntax(separators: "'"))

    private static let rawBody = StringSyntax("\"", escapes: .none, multiline: true)

    /// `R"delim(` … `)delim"`: the delimiter (at most 16 characters) is part of the closing quote.
    private static let rawString: @Sendable (inout HighlightLexer, Int) -> Bool = { lexer, prefixLength in
        let delimiterStart = lexer.pos + prefixLength
        var paren = delimiterStart
        while paren < min(lexer.end, delimiterStart + 17) && lexer.bytes[paren] != UInt8(ascii: "(") {
            guard !ByteSet.rawDelimiterStoppers.contains(lexer.bytes[paren]) else { return false }
            paren += 1
        }
        guard lexer.byte(at: paren) == UInt8(ascii: "(") else { return false }
        let close = [UInt8(ascii: ")")] + lexer.bytes[delimiterStart..<paren] + [UInt8(ascii: "\"")]
        lexer.openString(rawBody, openEnd: paren + 1, close: close)
        return true
    }
}

private extension ByteSet {
    static let rawDelimiterStoppers: ByteSet = " )\\\t\n\""
}
