@testable import Interactions
import Testing

/// What the owner may write in answer to a digest, as Mastodon sends it (mentions, paragraphs, <br>).
@Suite struct OwnerCommandTests {
    @Test func commandsOnePerLine() {
        let html = "<p><span class=\"h-card\"><a href=\"https://b.example/actor\">@<span>blog</span></a></span> Hide 2<br>block 3.</p>"
            + "<p>block domain 4<br />approve 5!<br>thanks 6<br>hide two<br>hide 0</p>"
        #expect(InboxProcessor.ownerCommands(in: html) == [.hide(2), .block(3), .blockDomain(4), .approve(5)])
        #expect(InboxProcessor.ownerCommands(in: "<p>Thanks, looks good!</p>").isEmpty)
    }
}
