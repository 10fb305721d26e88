import BlogModel
import Foundation
import Testing
@testable import Site

/// The text helpers every page and feed goes through.
@Suite struct HTMLTextTests {
    /// Mentions and inline markup read as they read on a page: the shapes GoToSocial, Mastodon
    /// and Misskey send, and the digest's own `<code>` (words were split at every tag).
    @Test func plainTextBreaksWordsOnlyAtBlockEdges() {
        let gotosocial = #"<p><span class="h-card"><a href="https://blog.test/actor" class="u-url mention" rel="nofollow noreferrer noopener" target="_blank">@<span>blog</span></a></span> Nice post!</p>"#
        #expect(HTMLText.plain(gotosocial) == "@blog Nice post!")
        let mastodon = #"<p><span class="h-card" translate="no"><a href="https://blog.test/@blog" class="u-url mention">@<span>blog</span></a></span> Thanks&#39;</p>"#
        #expect(HTMLText.plain(mastodon) == "@blog Thanks'")
        #expect(HTMLText.plain("<p>run <code>lectern import</code>ed it, <em>twice</em>.</p><p>Next</p>") == "run lectern imported it, twice. Next")
        #expect(HTMLText.plain("one<br>two<br/>three</li><li>four") == "one two three four")
        #expect(HTMLText.plain("<P>Upper</P><SPAN>case</SPAN>") == "Upper case")
        #expect(HTMLText.plain("a<!-- note -->b</a >c") == "a bc", "a comment breaks; an inline closing tag with a space does not")
    }

    /// The one tokenizer reads the text: every character reference, no script, no stray markup.
    @Test func plainTextReadsHTMLAsTheTokenizerDoes() {
        #expect(HTMLText.plain("caf&eacute; &#x27;x&#39; &amp;amp; &notareference;") == "café 'x' &amp; &notareference;")
        #expect(HTMLText.plain("<p>a&nbsp;b</p><script>var x = '<p>no</p>'</script><style>p{}</style>c") == "a b c")
        #expect(HTMLText.plain("  spaced \n\t out  ") == "spaced out")
        #expect(HTMLText.plain("1 < 2 and 3 > 2") == "1 < 2 and 3 > 2")
    }

    @Test func firstRangeFindsTheFirstMatchInASlice() throws {
        let text = "héllo <h2>one</h2> <h3>two</h3>"
        let slice = text[text.index(text.startIndex, offsetBy: 8)...]  // from "2>one…"
        let range = try #require(HTMLText.firstRange(of: "<h", in: slice))
        #expect(slice[range.lowerBound...].hasPrefix("<h3>"))  // not the "<h2>" before the slice
        #expect(String(slice[range]) == "<h")
        #expect(HTMLText.firstRange(of: "<img ", in: slice) == nil)
        #expect(HTMLText.firstRange(of: "", in: slice) == nil)
        let whole = Substring("ünïcödé then <img src=x>")
        let image = try #require(HTMLText.firstRange(of: "<img ", in: whole))
        #expect(whole[image.upperBound...] == "src=x>")
        // A match at the very end, and a needle longer than the text.
        #expect(HTMLText.firstRange(of: "x>", in: whole).map { String(whole[$0]) } == "x>")
        #expect(HTMLText.firstRange(of: "ünïcödé then <img src=x> and more", in: whole) == nil)
    }

    @Test func truncateCountsCharactersNotBytes() {
        #expect(HTMLText.truncate("short", limit: 5) == "short")
        #expect(HTMLText.truncate("exactly ten", limit: 11) == "exactly ten")
        #expect(HTMLText.truncate("one two three", limit: 9) == "one two…")
        // "e" + combining acute is one character: the limit counts it once.
        let accented = String(repeating: "e\u{301}", count: 4)
        #expect(HTMLText.truncate(accented, limit: 4) == accented)
        #expect(HTMLText.truncate(accented + " x", limit: 4) == accented + "…")
    }
}
