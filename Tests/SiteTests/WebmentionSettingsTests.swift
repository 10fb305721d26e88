import BlogModel
import Foundation
import Site
import Testing

/// `webmention:` in `lectern.yml`: absent means both off (an existing blog does what it did),
/// `lectern init` writes it with both on, and the default theme advertises the endpoint only then.
@Suite struct WebmentionSettingsTests {
    @Test func absentMeansOffAndTheBlockIsRead() throws {
        #expect(try SiteConfig.parse("title: T\n").webmention == WebmentionSettings(receive: false, send: false))
        #expect(try SiteConfig.parse("title: T\nwebmention:\n  receive: true\n").webmention == WebmentionSettings(receive: true, send: false))
        #expect(try SiteConfig.parse("title: T\nwebmention:\n  receive: true\n  send: true\n").webmention
                == WebmentionSettings(receive: true, send: true))
        #expect(throws: SiteError.self) { try SiteConfig.parse("title: T\nwebmention:\n  recieve: true\n") }
        #expect(throws: SiteError.self) { try SiteConfig.parse("title: T\nwebmention:\n  send: maybe\n") }
    }

    @Test func initWritesTheBlockOnAndTheThemeAdvertisesIt() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("webmention-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        try SiteScaffold.create(at: root)
        let text = try String(contentsOf: root.appendingPathComponent("lectern.yml"), encoding: .utf8)
        #expect(text.contains("# Webmention"))
        let config = try SiteConfig.load(from: root)
        #expect(config.webmention == WebmentionSettings(receive: true, send: true))

    }

    @Test func theThemeAdvertisesTheEndpointAndMarksUpThePost() throws {
        let config = "title: Test Blog\nbaseURL: https://blog.example\nauthor: Tess\n"
        let on = try TestSite(config: config + "webmention:\n  receive: true\n")
        defer { on.remove() }
        try on.post("hello", title: "Hello", date: "2025-03-01T10:00:00Z", body: "See [there](https://else.example/).")
        try on.build()
        let page = try on.read("2025/hello/index.html")
        #expect(page.contains("<link rel=\"webmention\" href=\"https://blog.example/webmention\">"))
        for markup in ["class=\"post h-entry\"", "class=\"p-name\"", "e-content", "class=\"dt-published\"",
                       "class=\"u-url\" href=\"https://blog.example/2025/hello/\"",
                       "class=\"p-author h-card\" href=\"https://blog.example/\"", "<span class=\"p-name\">Tess</span>"] {
            #expect(page.contains(markup), "\(markup)")
        }

        let off = try TestSite(config: config)
        defer { off.remove() }
        try off.post("hello", title: "Hello", date: "2025-03-01T10:00:00Z")
        try off.build()
        #expect(!(try off.read("2025/hello/index.html")).contains("rel=\"webmention\""))
    }
}
