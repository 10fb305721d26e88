import BlogModel
import Testing
@testable import Site

@Suite struct ByteAffixesTests {
    @Test func prefixesAndSuffixesAreBytes() {
        let cases: [(text: String, part: String, prefix: Bool, suffix: Bool)] = [
            ("content/posts/a.md", "content/", true, false),
            ("content/posts/a.md", ".md", false, true),
            ("a.md", "a.md", true, true),
            (".md", "a.md", false, false),
            ("", "", true, true),
            ("x", "", true, true),
            ("", "x", false, false),
            ("posts/café.md", "posts/café", true, false),
            ("posts/cafe\u{301}.md", "posts/café", false, false),  // the same text to `hasPrefix`, other bytes
            ("a long path that is not stored inline at all/index.md", "/index.md", false, true),
        ]
        for (text, part, prefix, suffix) in cases {
            #expect(text.hasBytePrefix(part) == prefix, "\(text) starts with \(part)")
            #expect(text.hasByteSuffix(part) == suffix, "\(text) ends with \(part)")
        }
    }
}
