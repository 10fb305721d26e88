/// How numbers are written. One scanner reads them all: `0x`/`0b`/`0o` radix prefixes, digit
/// separators, fractions, exponents (and hex-float `p` exponents), then any suffix letters
/// (`1u32`, `10UL`, `1.5f`, `1n`, `2j`, CSS units).
struct NumberSyntax: Sendable {
    /// Letters that after a leading `0` start a radix literal.
    var radixLetters: ByteSet = "xXbBoO"
    /// Separators allowed between digits: `_` mostly, `'` in C++.
    var separators: ByteSet = "_"
    /// Bytes taken as a suffix after the digits.
    var suffix: ByteSet = .asciiWord
    /// `.5` is a number (not after a name, so `tuple.0` stays a member access).
    var leadingDot = true
    /// CSS `50%`.
    var percent = false
    /// TOML and YAML dates and times: `1979-05-27T07:32:00Z`, `07:32:00`.
    var dates = false

    static let standard = NumberSyntax()
}
