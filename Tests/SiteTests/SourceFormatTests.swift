import BlogModel
import Foundation
import Testing
@testable import Site

/// Files as real editors save them: Windows line ends, byte-order marks, old Mac line ends,
/// tabs, no final newline. Every one builds; what cannot be parsed is an error naming the file.
@Suite struct SourceFormatTests {
    @Test func awkwardlySavedFilesAllBuild() throws {
        let site = try TestSite()
        defer { site.remove() }
        let sources: [(String, String)] = [
            ("crlf", "---\r\ntitle: Windows\r\ndate: 2025-01-01\r\ntags: [a, b]\r\n---\r\n\r\nBody from *Windows*.\r\n"),
            ("bom-crlf", "\u{FEFF}---\r\ntitle: Bommed\r\ndate: 2025-01-02\r\n---\r\nBody with a BOM.\r\n"),
            ("lone-cr", "---\rtitle: Classic Mac\rdate: 2025-01-03\r---\rBody from 1999.\r"),
            ("tabs", "---\ntitle:\tTabbed\ndate: 2025-01-04\ntags:\n\t- tab\n\t- indent\n---\n\tIndented body.\n"),
            ("no-final-newline", "---\ntitle: Unterminated\ndate: 2025-01-05\n---\nNo newline at the end"),
            ("only-front-matter", "---\ntitle: Empty\ndate: 2025-01-06\n---"),
        ]
        for (name, text) in sources { try site.write("content/posts/\(name).md", text) }
        try site.build()
        #expect(try site.read("2025/windows/index.html").contains("Body from <em>Windows</em>."))
        #expect(try site.read("2025/bommed/index.html").contains("Body with a BOM."))
        #expect(try site.read("2025/classic-mac/index.html").contains("Body from 1999."))
        #expect(try site.read("2025/tabbed/index.html").contains("Indented body."))
        #expect(site.exists("tags/indent/index.html"))
        #expect(try site.read("2025/unterminated/index.html").contains("No newline at the end"))
        #expect(site.exists("2025/empty/index.html"))
    }

    /// The line named is the one to fix: where an unclosed list or quote opened.
    @Test(arguments: [
        ("---\ntitle: [unclosed\ndate: 2025-01-01\n---\nx", 2),
        ("---\r\ntitle: ok\r\ndate: not a date\r\n---\r\nx", 3),
        ("---\ntitle: no end\ndate: 2025-01-01\n", 1),
        ("\u{FEFF}---\r\ntitle: \"unterminated\r\ndate: 2025-01-01\r\n---\r\n", 2),
    ])
    func unparseableFilesNameFileAndLine(source: String, line: Int) throws {
        let site = try TestSite()
        defer { site.remove() }
        try site.write("content/posts/broken.md", source)
        do {
            try site.build()
            Issue.record("built a broken file")
        } catch let error as SiteError {
            #expect(error.description.hasPrefix("content/posts/broken.md:"), "\(error)")
            #expect(error.description.contains(":\(line):") || line == 1, "\(error)")
        }
    }

    @Test func invalidUTF8IsAnErrorNotACrash() throws {
        let site = try TestSite()
        defer { site.remove() }
        let url = site.root.appendingPathComponent("content/posts/binary.md")
        try Data([0x2D, 0x2D, 0x2D, 0x0A, 0xFF, 0xFE, 0x00, 0x0A]).write(to: url)
        #expect(throws: SiteError.self) { try site.build() }
    }
}

/// Hugo and Zola write front matter in TOML between `+++` lines; it builds as it is.
@Suite struct TOMLFrontMatterBuildTests {
    @Test func tomlFrontMatterBuilds() throws {
        let site = try TestSite()
        defer { site.remove() }
        try site.write("content/posts/toml.md", """
            +++
            title = "From Hugo"
            date = 2024-05-01T10:00:00Z
            tags = ["swift", "hugo"]
            categories = ["Notes"]
            description = "TOML front matter"
            [params]
            author = "someone"
            +++
            The body.
            """)
        try site.build()
        #expect(try site.read("2024/from-hugo/index.html").contains("The body."))
        #expect(site.exists("tags/hugo/index.html"))
        #expect(site.exists("categories/notes/index.html"))
    }

    @Test func brokenTOMLNamesFileAndLine() throws {
        let site = try TestSite()
        defer { site.remove() }
        try site.write("content/posts/bad.md", "+++\ntitle = \"ok\"\ndate = \n+++\nx\n")
        do {
            try site.build()
            Issue.record("built broken TOML")
        } catch let error as SiteError {
            #expect(error.description.hasPrefix("content/posts/bad.md:3:"), "\(error)")
        }
    }
}
