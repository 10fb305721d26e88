/// Highlights source code into HTML spans at build time.
///
/// Tokens become `<span class="hl-…">` with a class from a fixed set (`hl-kw`, `hl-str`, `hl-com`…;
/// see `highlight.css`); the text is HTML-escaped, so the result goes straight inside `<pre><code>`.
///
///     SyntaxHighlighter.highlight("let x = 1", language: "swift")
///     // <span class="hl-kw">let</span> x <span class="hl-op">=</span> <span class="hl-num">1</span>
public enum SyntaxHighlighter {
    /// HTML for `code` (already plain text, NOT escaped) in `language` (a name or alias, case-insensitive),
    /// or nil when the language is unknown (the caller then escapes it as plain text).
    /// The result is escaped: `<`, `>`, `&`, `"` and `'` never appear raw outside the span tags.
    public static func highlight(_ code: String, language: String, options: HighlightOptions = .init()) -> String? {
        guard let syntax = LanguageRegistry.language(named: language) else { return nil }
        guard !code.isEmpty else { return "" }
        var code = code
        // Native strings are already contiguous UTF-8; this only copies bridged ones.
        return code.withUTF8 { bytes in
            var lexer = HighlightLexer(bytes: bytes, language: syntax, options: options)
            return lexer.run()
        }
    }

    /// Every supported language with its aliases, for `lectern highlight --languages`.
    public static var languages: [(name: String, aliases: [String])] {
        LanguageRegistry.all.map { ($0.name, $0.aliases) }
    }
}

/// Line numbers and marked lines. Either one wraps every line in `<span class="hl-line">`
/// (plus ` hl-mark` on marked lines), numbers going in a leading `<span class="hl-ln">`.
///
///     HighlightOptions(lineNumbers: true, highlightedLines: [2, 3])
public struct HighlightOptions: Sendable, Equatable {
    public var lineNumbers = false
    /// 1-based line numbers to mark.
    public var highlightedLines: Set<Int> = []

    public init(lineNumbers: Bool = false, highlightedLines: Set<Int> = []) {
        self.lineNumbers = lineNumbers
        self.highlightedLines = highlightedLines
    }
}
