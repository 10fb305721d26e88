import BlogModel
import Dates
import Foundation
import Testing
@testable import Site

@Suite struct FrontMatterTests {
    private func parse(_ source: String) throws -> Post {
        try ContentParser(timeZone: TimeZone(identifier: "UTC")!).post(source: source, file: "content/posts/x.md")
    }

    private func error(_ source: String) -> SiteError? {
        do { _ = try parse(source); return nil } catch let error as SiteError { return error } catch { return nil }
    }

    @Test func parsesEveryField() throws {
        let post = try parse("""
            ---
            title: "Hello: World"
            date: 2025-03-01T10:00:00+02:00
            updated: 2025-03-02
            slug: Custom Slug
            category: Essays
            tags: [swift, Swift, web]
            summary: Short.
            draft: true
            image: /img/a.png
            pinned: true
            ---
            Body
            """)
        #expect(post.title == "Hello: World")
        #expect(post.date == Date(timeIntervalSince1970: 1_740_816_000))
        #expect(post.path == "/2025/custom-slug/")
        #expect(post.tags == ["swift", "web"])
        #expect(post.category == "Essays" && post.draft && post.pinned && post.image == "/img/a.png")
        #expect(post.markdown == "Body")
    }

    @Test func yamlSyntaxErrorNamesFileAndLine() {
        let error = error("---\ntitle: Fine\ndate: 2025-01-01\ntags: [a, b\n---\nBody\n")
        guard case .source(let file, let line, let message)? = error else { Issue.record("no error"); return }
        #expect(file == "content/posts/x.md")
        #expect(line == 4, "where the list opened, not where YAML noticed")
        #expect(message.contains("invalid YAML") && message.contains("never closed"), "\(message)")
    }

    /// Faults are named at their line, in a writer's words (libyaml's after them).
    @Test func faultsAreNamedWhereTheyAreInAWritersWords() {
        let cases: [(source: String, line: Int, says: String)] = [
            ("---\ntitle: \"Unclosed\ndate: 2025-01-01\ntags: [a]\nsummary: x\nlang: en\n---\nBody\n", 2, "a quoted value starts here and is never closed"),
            ("---\ntitle: 'Half\ndate: 2025-01-01\n---\nBody\n", 2, "never closed"),
            ("---\ntitle: Notes: one\ndate: 2025-01-01\n---\nBody\n", 2, "put the value in quotes"),
            ("---\ntitle: `code`\ndate: 2025-01-01\n---\nBody\n", 2, "keeps for itself"),
            ("--\ntitle: T\ndate: 2025-01-01\n--\nBody\n", 1, "this line is '--'"),
            ("----\ntitle: T\n---\nBody\n", 1, "this line is '----'"),
        ]
        for (source, line, says) in cases {
            guard case .source(_, let found, let message)? = error(source) else { Issue.record("no error: \(source)"); continue }
            #expect(found == line && message.contains(says), "\(source.debugDescription): line \(found): \(message)")
            #expect(!message.hasPrefix("invalid YAML: found") && !message.hasPrefix("invalid YAML: did not"), "\(message)")
        }
        // A thematic break followed by text is not taken for a mistyped fence.
        guard case .source(_, _, let message)? = error("----\nJust text.\n") else { Issue.record("a post needs a title"); return }
        #expect(!message.contains("this line is"), "\(message)")
    }

    @Test func badFieldTypeNamesItsLine() {
        #expect(error("---\ntitle: T\ndate: 2025-01-01\ndraft: maybe\n---\n")
                == .source(file: "content/posts/x.md", line: 4, message: "'draft' must be true or false"))
        #expect(error("---\ntitle: T\ndate: 2025-02-30\n---\n")?.description
                == "content/posts/x.md:3: 'date' must be a date like 2025-03-01 or 2025-03-01T09:30:00Z, not '2025-02-30'")
    }

    /// `lang:` is a language tag (what `contentMap` and the page's `lang` carry), or an error at its line.
    @Test func languageIsATagOrAnErrorAtItsLine() throws {
        #expect(try parse("---\ntitle: T\ndate: 2025-01-01\nlang: pt-BR\n---\n").language == "pt-BR")
        #expect(try parse("---\ntitle: T\ndate: 2025-01-01\n---\n").language == nil)
        for bad in ["english", "e", "en_US", "de-", "<b>"] {
            #expect(error("---\ntitle: T\ndate: 2025-01-01\nlang: \"\(bad)\"\n---\n")
                    == .source(file: "content/posts/x.md", line: 4, message: "'lang' must be a language tag such as en, de or pt-BR"), "\(bad)")
        }
    }

    /// Unquoted values are typed as YAML's core schema types them; quoted ones are text.
    @Test func plainScalarsAreTypedAndQuotedOnesAreText() throws {
        for (text, draft) in [("true", true), ("True", true), ("yes", true), ("on", true), ("false", false), ("No", false), ("OFF", false)] {
            #expect(try parse("---\ntitle: T\ndate: 2025-01-01\ndraft: \(text)\n---\n").draft == draft, "\(text)")
        }
        for quoted in ["\"true\"", "'yes'"] {
            #expect(error("---\ntitle: T\ndate: 2025-01-01\ndraft: \(quoted)\n---\n")
                    == .source(file: "content/posts/x.md", line: 4, message: "'draft' must be true or false"), "\(quoted)")
        }
        #expect(try parse("---\ntitle: T\ndate: 2025-01-01\nseries: S\nseriesOrder: 0x10\n---\n").seriesOrder == 16)
        #expect(try parse("---\ntitle: T\ndate: 2025-01-01\nseries: S\nseriesOrder: 3\n---\n").seriesOrder == 3)
        // Plain decimals are read directly, everything else as Yams reads YAML 1.1 integers.
        for (text, value) in [("12", 12), ("010", 8), ("1_000", 1000), ("+5", 5), ("1:30", 90), ("0b11", 3),
                              ("999999999999999999", 999_999_999_999_999_999)] {
            #expect(try parse("---\ntitle: T\ndate: 2025-01-01\nseries: S\nseriesOrder: \(text)\n---\n").seriesOrder == value, "\(text)")
        }
        for text in ["99999999999999999999", "1.0", "12a", "'12'"] {
            #expect(error("---\ntitle: T\ndate: 2025-01-01\nseries: S\nseriesOrder: \(text)\n---\n")?.description.contains("whole number") == true,
                    "\(text)")
        }
        #expect(error("---\ntitle: T\ndate: 2025-01-01\nseries: S\nseriesOrder: \"3\"\n---\n")?.description.contains("whole number") == true)
        // Text that looks like another type stays the text it is.
        let post = try parse("---\ntitle: yes\ndate: 2025-01-01\ntags: [true, 10, ~x]\nsummary: 1.5\n---\n")
        #expect(post.title == "yes" && post.tags == ["true", "10", "~x"] && post.summary == "1.5")
    }

    @Test func missingPiecesAreReported() {
        #expect(error("---\ndate: 2025-01-01\n---\n")?.description == "content/posts/x.md:1: front matter needs a 'title'")
        #expect(error("---\ntitle: T\n---\n")?.description.contains("needs a 'date'") == true)
        #expect(error("---\ntitle: T\ndate: 2025-01-01\nbody text without fence\n")?.description
                == "content/posts/x.md:1: front matter starts with '---' but has no closing '---' line")
    }

    /// An alias is a path on the site: a `.` or `..` segment is refused, dots inside a name are not.
    @Test func aliasesRefuseDotSegmentsOnly() throws {
        let parser = ContentParser(timeZone: TimeZone(identifier: "UTC")!)
        func post(_ alias: String) throws -> [String] {
            try parser.post(source: "---\ntitle: T\ndate: 2025-01-01\naliases: ['\(alias)']\n---\nBody\n", file: "content/posts/x.md").aliases
        }
        #expect(try post("/fr/posts/vacances.../") == ["/fr/posts/vacances.../"])
        for bad in ["/a/../b/", "/a/./b/", "//x/", "x/", "/.."] {
            #expect(throws: SiteError.self, "\(bad)") { try post(bad) }
        }
    }

    @Test func unknownKeysWarnWithTheirLineAndHugoNamesWork() throws {
        let post = try ContentParser(timeZone: TimeZone(identifier: "UTC")!).post(
            source: "---\ntitle: T\ndate: 2025-01-01\ncolour: red\ncategories: [Essays, Notes]\nlastmod: 2025-02-01\n"
                + "description: From Hugo\naliases: [/old/]\nlayout: post\n---\nBody\n", file: "content/posts/x.md")
        #expect(post.warnings.count == 2)
        #expect(post.warnings.first?.hasPrefix("content/posts/x.md:4: unknown key 'colour' ignored") == true)
        #expect(post.warnings.last?.hasPrefix("content/posts/x.md:9: unknown key 'layout' ignored") == true)
        #expect(post.aliases == ["/old/"])
        #expect(post.category == "Essays")
        #expect(post.updated == WrittenDate.parse("2025-02-01", timeZone: TimeZone(identifier: "UTC")!))
        #expect(post.summary == "From Hugo")
    }

    @Test(arguments: ["2025-03-01", "2025-03-01 09:30", "2025-03-01T09:30:15Z", "2025-03-01T09:30:15.5+01:00"])
    func acceptedDates(text: String) {
        #expect(WrittenDate.parse(text, timeZone: TimeZone(identifier: "UTC")!) != nil)
    }

    @Test(arguments: ["2025-3-1", "yesterday", "2025-13-01", "2025-03-01T25:00", "2025-03-01Tx", "2025-02-30"])
    func rejectedDates(text: String) {
        #expect(WrittenDate.parse(text, timeZone: TimeZone(identifier: "UTC")!) == nil)
    }

    @Test func configErrorsNameTheLine() {
        #expect(throws: SiteError.config(file: "lectern.yml", line: 2,
                                         message: "'baseURL' must be an absolute http(s) URL such as https://blog.example")) {
            try SiteConfig.parse("title: T\nbaseURL: blog.example\n")
        }
    }
}
