import BlogModel
import Testing
import Site

@Suite struct KeywordFilterTests {
    @Test func wholeWordsAndPhrasesCaseInsensitive() {
        let filter = KeywordFilter(["Casino", "cheap pills", "  "])
        #expect(filter.match(in: "Visit my CASINO!") == "casino")
        #expect(filter.match(in: "cheap, pills here") == "cheap pills")
        #expect(filter.match(in: "casinos and cheapness") == nil, "whole words only")
        #expect(filter.match(in: "pills cheap") == nil, "a phrase in order")
        #expect(KeywordFilter([]).match(in: "anything") == nil)
        #expect(KeywordFilter(["café"]).match(in: "Au CAFÉ du coin") == "café")
    }
}
