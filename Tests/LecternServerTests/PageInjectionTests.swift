import Foundation
import Testing
@testable import WebServer

/// Stored script, attempted through everything a remote server controls: display names,
/// usernames, profile and avatar URLs, note URLs, content and content warnings. The rendered
/// post page is read back by an HTML5 parser (html5lib, as a browser would) and the comments
/// JSON by a JSON parser; neither may carry an event handler or a script URL.
@Suite(.serialized) struct PageInjectionTests {
    static let checker = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Support/html_allowlist.py").path

    /// Pieces attackers combine: quotes with combining marks, bidi overrides, ZWJ sequences,
    /// markup, handlers and script URLs in their usual disguises.
    static let pieces = ["\"", "'", "\"\u{301}", "'\u{338}", "\u{202E}", "\u{2066}", "👨‍👩‍👧", "é", "<", ">", "&", "&quot;",
                         "<script>alert(1)</script>", "<img src=x onerror=alert(1)>", "<svg onload=alert(1)>",
                         " onerror=alert(1) ", " onmouseover=\"alert(1)\" ", "\" autofocus onfocus=\"alert(1)",
                         "javascript:alert(1)", " java\tscript:alert(1)", "data:text/html,<b>x</b>", "vbscript:x",
                         "<a href=\"javascript:alert(1)\">l</a>", "<a href=\"https://ok.example/\"\u{301} onclick=x>l</a>",
                         "\n", "\\", "`", "https://ok.example/p?q=<>\"'", "x"]
    static let urls = ["javascript:alert(1)", "JaVaScRiPt:alert(1)", " \tjavascript:alert(1)", "data:image/svg+xml,<svg onload=alert(1)>",
                       "vbscript:msgbox(1)", "https://ok.example/a.png\"\u{301} onerror=alert(1) x=\"", "//evil.example/x",
                       "https://ok.example/\u{202E}gpj.exe", "https://ok.example/ok.png", "http://ok.example/\" onerror=\"alert(1)"]

    static func soup(_ generator: inout some RandomNumberGenerator, count: ClosedRange<Int> = 1...8) -> String {
        (0..<Int.random(in: count, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
    }

    @Test func hostileActorsAndNotesNeverReachThePageAsMarkup() async throws {
        let remote = try FakeInstance(names: ["zed"])
        try await remote.start()
        defer { remote.stop() }
        let blog = try await BlogFixture(remote: remote)
        defer { blog.stop() }
        let pem = try remote.keys["zed"]!.publicKey.pemSPKI()
        var generator = SystemRandomNumberGenerator()
        let count = 40
        for n in 0..<count {
            let id = remote.base.value + "/users/h\(n)"
            var actor: [String: Any] = [
                "id": id, "type": "Person", "inbox": id + "/inbox", "name": Self.soup(&generator),
                "preferredUsername": Self.soup(&generator, count: 1...3),
                "publicKey": ["id": id + "#main-key", "owner": id, "publicKeyPem": pem],
            ]
            let url = Self.urls.randomElement(using: &generator)!
            actor["url"] = Bool.random(using: &generator) ? url : ["type": "Link", "href": url, "mediaType": "text/html"]
            actor["icon"] = ["type": "Image", "url": Self.urls.randomElement(using: &generator)!]
            remote.serve("/users/h\(n)", actor)
            var note = blog.note(remote.base.value + "/notes/h\(n)", by: remote, "h\(n)", inReplyTo: blog.postID,
                                 content: "<p>comment \(n)</p>" + Self.soup(&generator, count: 2...12))
            note["url"] = Self.urls.randomElement(using: &generator)!
            if Bool.random(using: &generator) { note["summary"] = Self.soup(&generator); note["sensitive"] = true }
            let status = try await remote.post(try remote.signedPost(blog.create(note, by: remote, "h\(n)"), as: "h\(n)",
                                                                     to: blog.sharedInbox, key: "zed"))
            #expect(status == 202, "actor \(n)")
        }
        #expect(try await eventually(within: 10) {
            guard try blog.store.comments.comments(postPath: blog.post).count == count else { return false }
            return try await blog.get(blog.post).body.contains("comment \(count - 1)")
        }, "every hostile comment still counts and is shown")
        let page = try await blog.get(blog.post).body
        try Self.expectNoInjectedMarkup(page)
        #expect(!page.unicodeScalars.contains("\u{202E}") && !page.unicodeScalars.contains("\u{2066}"), "bidi controls are stripped")

        let json = try await blog.get("/comments/2025/welcome-to-lectern.json", accept: "application/json").body
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        for comment in document["comments"] as? [[String: Any]] ?? [] {
            let author = comment["author"] as? [String: Any] ?? [:]
            for url in [comment["url"], author["url"], author["avatar"]].compactMap({ $0 as? String }) {
                #expect(url.hasPrefix("https://") || url.hasPrefix("http://"), "\(url)")
                #expect(!url.contains("\"") && !url.contains(" ") && !url.contains("<"), "\(url)")
            }
            let content = comment["content"] as? String ?? ""
            #expect(!content.contains("onerror") || !content.contains("<img"), "\(content)")
            #expect(!content.lowercased().contains("href=\"javascript"), "\(content)")
        }
    }

    /// html5lib reads the page as a browser would; its verdict is the test's.
    static func expectNoInjectedMarkup(_ page: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("page-\(UUID().uuidString).html")
        try page.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let (status, output) = try run(["python3", checker, file.path])
        #expect(status == 0, "html5lib found markup that should not be there:\n\(output)", sourceLocation: sourceLocation)
    }

    @Test func quoteWithCombiningMarkCannotLeaveAnAttribute() async throws {
        let remote = try FakeInstance(names: ["zed"])
        try await remote.start()
        defer { remote.stop() }
        let blog = try await BlogFixture(remote: remote)
        defer { blog.stop() }
        let id = remote.base.value + "/users/zed"
        remote.serve("/users/zed", [
            "id": id, "type": "Person", "inbox": id + "/inbox", "preferredUsername": "zed",
            "name": "Zed\"\u{301} onmouseover=\"alert(1)\u{202E}",
            "url": "javascript:alert(1)",
            "icon": ["type": "Image", "url": "https://ok.example/a.png\"\u{301} onerror=alert(1) x=\""],
            "publicKey": ["id": id + "#main-key", "owner": id, "publicKeyPem": try remote.keys["zed"]!.publicKey.pemSPKI()],
        ])
        var note = blog.note(remote.base.value + "/notes/z", by: remote, "zed", inReplyTo: blog.postID, content: "<p>hello</p>")
        note["url"] = "javascript:alert(2)"
        #expect(try await remote.send(blog.create(note, by: remote, "zed"), as: "zed", to: blog.sharedInbox) == 202)
        #expect(try await eventually { try await blog.get(blog.post).body.contains("hello") })
        let page = try await blog.get(blog.post).body
        try Self.expectNoInjectedMarkup(page)
        #expect(!page.lowercased().contains("javascript:"))
        #expect(page.contains("Zed&quot;\u{301} onmouseover=&quot;alert(1)"), "the name is shown, escaped")
        #expect(page.contains("src=\"https://ok.example/a.png%22%CC%81%20onerror=alert(1)%20x=%22\""))
    }
}

/// Runs a command; returns its exit status and combined output.
func run(_ arguments: [String], environment: [String: String]? = nil, currentDirectory: URL? = nil) throws -> (Int32, String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = arguments
    if let environment { process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 } }
    if let currentDirectory { process.currentDirectoryURL = currentDirectory }
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
}
