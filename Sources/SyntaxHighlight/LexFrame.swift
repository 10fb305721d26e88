/// One level of the lexer's stack. Code and strings nest inside each other (interpolation,
/// `<script>` in HTML, fenced code in Markdown), and the stack holds that nesting explicitly, so
/// deep input costs memory in proportion, never recursion or rescanning.
struct LexFrame {
    enum Kind {
        /// Code in `language` up to `limit`, or up to `closer` for an interpolation or an HTML tag.
        case code
        /// The inside of a string literal, after its opening quote.
        case string
        /// Code in `language` up to `close` (found case-insensitively): the body of `<script>`.
        /// It looks for its end once, when it reaches the top, then becomes a `code` frame.
        case embed
        /// `bytes[pos..<limit]` as one token of `cls`: a heredoc terminator, a closing fence.
        case token
    }

    var kind: Kind
    // Languages and string syntaxes are immortal (static tables), so frames refer to them
    // without reference counting, which the hot loop would otherwise pay on every frame access.
    unowned(unsafe) var language: SyntaxLanguage
    /// Where this frame ends at the latest; nothing inside it reads past this.
    var limit: Int
    /// Code: the class of `closer`. String: the content's class. Token: its class.
    var cls: TokenClass = .plain
    /// Code: the byte that ends it once `depth` is back to zero (`)` of `\(…)`, `>` of a tag).
    var closer: UInt8 = 0
    /// Code: the byte that nests `closer`. String: an opening bracket that nests the closing one.
    var opener: UInt8 = 0
    var depth = 0
    /// Free for a language's own rules: CSS keeps selector, declaration or value here,
    var mode: UInt8 = 0
    /// and which of its open blocks hold rules rather than declarations here.
    var bits: UInt64 = 0
    unowned(unsafe) var syntax: StringSyntax? = nil
    /// String: the closing quote. Embed: the lowercase terminator.
    var close: [UInt8] = []
    /// String: the `#`s of a raw string.
    var hashes = 0
}
