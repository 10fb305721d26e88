@testable import Interactions
import Testing
import Storage

/// Mastodon's domain-block CSV, as exported by its admin interface and shared between servers.
@Suite struct DomainBlocklistTests {
    @Test func mastodonExportsAreRead() {
        let csv = """
            #domain,#severity,#reject_media,#reject_reports,#public_comment,#obfuscate
            Spam.Example,suspend,true,true,"spam, and worse",false
            noisy.example,silence,false,false,,false
            limited.example,limit,false,false,,false
            fine.example,noop,false,false,,false
            b*d.example,suspend,false,false,obfuscated,true
            weird.example,annihilate,false,false,,false

            """
        let parsed = DomainBlocklist.parse(csv)
        #expect(parsed.entries == [
            .init(domain: "spam.example", kind: .domain, comment: "spam, and worse"),
            .init(domain: "noisy.example", kind: .silence, comment: nil),
            .init(domain: "limited.example", kind: .silence, comment: nil),
        ])
        #expect(parsed.skipped == ["line 5: fine.example is noop", "line 6: not a domain (b*d.example)",
                                   "line 7: unknown severity annihilate for weird.example"])
    }

    @Test func headerlessListsAreSuspensions() {
        #expect(DomainBlocklist.parse("bad.example\nworse.example,silence\n").entries.map(\.kind) == [.domain, .silence])
    }

    @Test func exportReadsBackTheSame() {
        let blocks = [Block(kind: .domain, value: "a.example", reason: "says \"hi\", loudly", createdAt: .now),
                      Block(kind: .silence, value: "b.example", reason: nil, createdAt: .now),
                      Block(kind: .actor, value: "https://c.example/users/x", reason: nil, createdAt: .now)]
        let text = DomainBlocklist.export(blocks)
        #expect(text.hasPrefix(DomainBlocklist.header + "\n"))
        #expect(DomainBlocklist.parse(text).entries == [.init(domain: "a.example", kind: .domain, comment: "says \"hi\", loudly"),
                                                        .init(domain: "b.example", kind: .silence, comment: nil)],
                "actors are not domain blocks: left out")
    }
}
