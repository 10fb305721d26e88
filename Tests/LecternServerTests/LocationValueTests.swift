import Testing
@testable import WebServer

/// A redirect's target as a `Location` value: ASCII, escapes kept, everything else encoded.
@Suite struct LocationValueTests {
    @Test func locationsAreASCIIURIReferences() {
        #expect(LocationValue.encode("/2019/post/?q=1#x") == "/2019/post/?q=1#x", "a plain path is left as it is")
        #expect(LocationValue.encode("/επ/") == "/%CE%B5%CF%80/")
        #expect(LocationValue.encode("/caf%C3%A9/") == "/caf%C3%A9/", "an escape stays one escape")
        #expect(LocationValue.encode("/50%-off/") == "/50%25-off/", "a bare % is a character")
        #expect(LocationValue.encode("/a b/\r\nSet-Cookie: x") == "/a%20b/%0D%0ASet-Cookie:%20x", "no line break reaches the header")
        #expect(LocationValue.encode("/x%4") == "/x%254")
    }
}
