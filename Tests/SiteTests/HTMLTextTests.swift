import Foundation
import Testing
@testable import Site

/// The text helpers every page and feed goes through.
@Suite struct HTMLTextTests {
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
