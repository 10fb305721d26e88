import HTMLMarkup
import Testing

/// The one escape, under each reader's rules: what it writes reads back (through the entity
/// decoder) as the text, less the controls the sanitizer drops; nothing that could open a tag,
/// end an attribute or start a reference stays raw.
@Suite struct HTMLEscapeTests {
    static let rules: [(String, HTMLEscape.Rules)] = [
        ("templates", .templates), ("remoteText", .remoteText), ("remoteAttribute", .remoteAttribute),
        ("importedText", .importedText), ("importedAttribute", .importedAttribute),
    ]
    static let alphabet: [String] = ["a", "é", "&", "<", ">", "\"", "'", "\n", "\u{0}", "\u{202E}", "\u{2066}", "\u{200F}",
                                     "\u{0301}", "😀", "&amp;", " ", "\u{E2}", "→"]

    @Test func whatIsWrittenReadsBackAsTheText() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            let text = (0..<Int.random(in: 0...12, using: &generator)).map { _ in Self.alphabet.randomElement(using: &generator)! }.joined()
            for (name, rules) in Self.rules {
                let escaped = HTMLEscape.escape(text, rules)
                let expected = rules.dropsControls
                    ? String(String.UnicodeScalarView(text.unicodeScalars.filter {
                        $0 != "\u{0}" && !(0x202A...0x202E).contains($0.value) && !(0x2066...0x2069).contains($0.value) }))
                    : text
                #expect(HTMLEntities.decode(escaped) == expected, "\(name): \(text.debugDescription) → \(escaped.debugDescription)")
                #expect(!escaped.contains("<") && !escaped.contains(">"), "\(name)")
                if rules.doubleQuote { #expect(!escaped.contains("\""), "\(name)") }
                if rules.apostrophe { #expect(!escaped.contains("'"), "\(name)") }
                if rules.lineBreak { #expect(!escaped.contains("\n"), "\(name)") }
                var bytes: [UInt8] = []
                HTMLEscape.append(text, to: &bytes, rules)
                #expect(String(decoding: bytes, as: UTF8.self) == escaped)
            }
        }
    }

    /// Each reader's output, as it was before the readers shared one escape.
    @Test func eachReaderWritesWhatItWrote() {
        let text = "a&b<c>d\"e'f\ng\u{0}h\u{202E}i\u{200F}"
        #expect(HTMLEscape.escape(text, .templates) == "a&amp;b&lt;c&gt;d&quot;e&#39;f\ng\u{0}h\u{202E}i\u{200F}")
        #expect(HTMLEscape.escape(text, .remoteText) == "a&amp;b&lt;c&gt;d\"e'f\nghi\u{200F}")
        #expect(HTMLEscape.escape(text, .remoteAttribute) == "a&amp;b&lt;c&gt;d&quot;e'f\nghi\u{200F}")
        #expect(HTMLEscape.escape(text, .importedText) == "a&amp;b&lt;c&gt;d\"e'f\ng\u{0}h\u{202E}i\u{200F}")
        #expect(HTMLEscape.escape(text, .importedAttribute) == "a&amp;b&lt;c&gt;d&quot;e'f&#10;g\u{0}h\u{202E}i\u{200F}")
        #expect(HTMLEscape.escape("q\"\u{0301}", .templates) == "q&quot;\u{0301}", "a quote before a combining mark is escaped")
    }
}
