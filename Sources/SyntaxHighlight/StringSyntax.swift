/// How one kind of string literal is written: its quotes, escapes and interpolation.
/// Languages share instances (see `CommonSyntax.swift`) and build their own from these parts.
///
///     // Kotlin: "…" with backslash escapes, `$name` and `${expression}`.
///     StringSyntax("\"", interpolations: [.code(open: "${", close: "}"), .variable("$")])
final class StringSyntax: Sendable {
    /// The opening quote, after any prefix letters and `#`s: `"`, `"""`, `'`.
    let open: [UInt8]
    /// The closing quote; empty when a rule supplies it at run time (`%w[…]`, heredocs).
    let close: [UInt8]
    let cls: TokenClass
    let escapes: EscapeStyle
    /// Sequences shown as escapes: the doubled quote of SQL and YAML, `{{` in Python f-strings.
    let literalEscapes: [[UInt8]]
    let interpolations: [Interpolation]
    let multiline: Bool
    /// Swift `#"…"#` and Rust `r#"…"#`: `#`s between prefix and quote must follow the closing quote
    /// too, and (Swift) sit between the backslash and the escaped character.
    let hashed: Bool
    /// A string followed by this byte is a key (`"name": …` in JSON) and gets `.key` instead.
    let keySuffix: UInt8?
    /// The class of the quotes, when it differs from the content's (Markdown link targets).
    let delimiterClass: TokenClass?
    /// Letters allowed right after the closing quote, shown with the string (`~r/…/i`).
    let modifiers: ByteSet
    /// Bytes the content scan stops at; everything else is copied as string text.
    let stops: ByteSet

    init(_ open: String, _ close: String? = nil, cls: TokenClass = .string, escapes: EscapeStyle = .backslash,
         literalEscapes: [String] = [], interpolations: [Interpolation] = [], multiline: Bool = false,
         hashed: Bool = false, keySuffix: Character? = nil, delimiterClass: TokenClass? = nil,
         modifiers: ByteSet = ByteSet()) {
        self.open = Array(open.utf8)
        self.close = Array((close ?? open).utf8)
        self.cls = cls
        self.escapes = escapes
        self.literalEscapes = literalEscapes.map { Array($0.utf8) }
        self.interpolations = interpolations
        self.multiline = multiline
        self.hashed = hashed
        self.keySuffix = keySuffix?.asciiValue
        self.delimiterClass = delimiterClass
        self.modifiers = modifiers
        var stops = ByteSet()
        if let first = self.close.first { stops.insert(first) }
        if escapes != .none { stops.insert(UInt8(ascii: "\\")) }
        if !multiline { stops.insert(UInt8(ascii: "\n")) }
        for sequence in self.literalEscapes { stops.insert(sequence[0]) }
        for interpolation in interpolations { stops.insert(interpolation.firstByte) }
        self.stops = stops
    }
}

/// What a backslash does inside a string.
enum EscapeStyle: Sendable, Equatable {
    /// Nothing: raw strings, shell single quotes.
    case none
    /// `\n`, `\u{1F600}`, `\x41`, `\101`… are escapes.
    case backslash
    /// Only `\\` and an escaped closing quote are (Ruby and PHP single quotes).
    case quoteOnly
    /// The backslash protects the next character but is not shown as an escape (regex bodies).
    case verbatim
}

/// Code or a variable spliced into a string (or, in shell, into a command line).
enum Interpolation: Sendable {
    /// `open` code `close`, the code highlighted as the enclosing language: Swift `\(…)`,
    /// JavaScript `${…}`, Ruby `#{…}`, shell `$(…)`, Python f-string `{…}`.
    case code(open: [UInt8], close: UInt8)
    /// `sigil` then a name: Kotlin `$name`, shell `$HOME`; `specials` are one-byte names (`$?`).
    case variable(sigil: UInt8, specials: ByteSet, sigilClass: TokenClass, nameClass: TokenClass)
    /// `open` up to `close` on one line, all one token: shell `${HOME:-/root}`.
    case braced(open: [UInt8], close: UInt8, cls: TokenClass)

    static func code(_ open: String, _ close: Character) -> Interpolation {
        .code(open: Array(open.utf8), close: close.asciiValue!)
    }

    static func variable(_ sigil: Character, specials: ByteSet = ByteSet(), sigilClass: TokenClass = .substitution,
                         nameClass: TokenClass = .plain) -> Interpolation {
        .variable(sigil: sigil.asciiValue!, specials: specials, sigilClass: sigilClass, nameClass: nameClass)
    }

    var firstByte: UInt8 {
        switch self {
        case .code(let open, _): open[0]
        case .variable(let sigil, _, _, _): sigil
        case .braced(let open, _, _): open[0]
        }
    }
}
