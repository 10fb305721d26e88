import Foundation
import Testing
import LecternRuntime
import OutboundHTTP
@testable import WebServer

/// A writer previewing (`lectern serve --drafts`) sees drafts and posts dated ahead; followers
/// never hear of them (issue 37).
@Suite(.serialized) struct PreviewTests {
    @Test func draftsAndPostsDatedAheadAreNeverAnnounced() async throws {
        let remote = try FakeInstance()
        try await remote.start()
        defer { remote.stop() }
        let blog = try await BlogFixture(remote: remote, drafts: true)
        defer { blog.stop() }
        try await blog.follow(by: remote, "alice")
        let posts = blog.root.appendingPathComponent("content/posts")
        // Dated now: older posts are recorded without being announced anyway.
        let now = ISO8601DateFormatter().string(from: Date().addingTimeInterval(-60))
        let ahead = ISO8601DateFormatter().string(from: Date().addingTimeInterval(30 * 86_400))
        for (file, text) in [("secret.md", "---\ntitle: Secret plans\ndate: \(now)\ndraft: true\n---\nNot yet.\n"),
                             ("later.md", "---\ntitle: Next month\ndate: \(ahead)\n---\nLater.\n"),
                             ("now.md", "---\ntitle: Out now\ndate: \(now)\n---\nPublished.\n")] {
            try text.write(to: posts.appendingPathComponent(file), atomically: true, encoding: .utf8)
        }
        try blog.rebuild()
        func announced() -> [String] {
            remote.activities(type: "Create").compactMap(\.objectTitle)
        }
        #expect(try await eventually(within: 10) { announced().contains("Out now") }, "the published post is announced")
        try await Task.sleep(for: .seconds(1))  // time for more, if more were coming
        #expect(!announced().contains("Secret plans") && !announced().contains("Next month"), "\(announced())")
        #expect(try blog.store.posts.publishedPosts().allSatisfy { !["Secret plans", "Next month"].contains($0.title) })
        let home = try await blog.get("/").body
        #expect(home.contains("Secret plans") && home.contains("Next month"), "the preview shows them to the writer")
        // Built into preview/: public/, which the live site serves, has none of it.
        let year = Calendar.current.component(.year, from: Date())
        #expect(FileManager.default.fileExists(atPath: blog.root.appendingPathComponent("preview/\(year)/secret-plans/index.html").path))
        #expect(!FileManager.default.fileExists(atPath: blog.root.appendingPathComponent("public/\(year)/secret-plans/index.html").path))
    }

    /// `lectern build --drafts` while the live server runs: the preview goes to preview/, and the
    /// live site (its pages, its files, its search) never shows the draft.
    @Test func aPreviewBuildBesideTheLiveServerStaysOutOfIt() async throws {
        let remote = try FakeInstance()
        try await remote.start()
        defer { remote.stop() }
        let blog = try await BlogFixture(remote: remote)
        defer { blog.stop() }
        let now = ISO8601DateFormatter().string(from: Date().addingTimeInterval(-60))
        try "---\ntitle: Secret plans\ndate: \(now)\ndraft: true\n---\nNot yet, zanzibar.\n"
            .write(to: blog.root.appendingPathComponent("content/posts/secret.md"), atomically: true, encoding: .utf8)
        var options = Blog.Options()
        options.includeDrafts = true   // as `lectern build --drafts` opens the blog
        options.connections = .single
        let preview = try Blog.open(root: blog.root, options: options)
        try preview.build()
        let year = Calendar.current.component(.year, from: Date())
        #expect(FileManager.default.fileExists(atPath: blog.root.appendingPathComponent("preview/\(year)/secret-plans/index.html").path))
        #expect(!FileManager.default.fileExists(atPath: blog.root.appendingPathComponent("public/\(year)/secret-plans/index.html").path))
        try await Task.sleep(for: .milliseconds(1500))  // a running server picks up a live build within a second
        #expect(try await blog.get("/\(year)/secret-plans/").status == 404)
        #expect(!(try await blog.get("/").body.contains("Secret plans")))
        #expect(!(try await blog.get("/search?q=zanzibar").body.contains("Secret plans")))
    }

    /// `lectern serve --watch` without `--drafts`: a draft written while it runs previews at
    /// `/_lectern/preview/<path>` (marked, nothing to reply to), to this machine only; the live
    /// site and followers never see it until `draft: true` goes.
    @Test func aDraftWrittenWhileServeWatchRunsPreviewsBesideTheLiveSite() async throws {
        let remote = try FakeInstance()
        try await remote.start()
        defer { remote.stop() }
        let blog = try await BlogFixture(remote: remote, watch: true)
        defer { blog.stop() }
        try await blog.follow(by: remote, "alice")
        let now = ISO8601DateFormatter().string(from: Date().addingTimeInterval(-60))
        let year = Calendar.current.component(.year, from: Date())
        let file = blog.root.appendingPathComponent("content/posts/plans.md")
        try "---\ntitle: Secret plans\ndate: \(now)\ndraft: true\n---\nNot yet.\n".write(to: file, atomically: true, encoding: .utf8)
        let preview = "\(Blog.previewPrefix)/\(year)/secret-plans/"
        #expect(try await eventually(within: 10) { try await blog.get(preview).status == 200 }, "the watcher built the preview")
        let page = try await blog.get(preview).body
        #expect(page.contains("preview-marker") && page.contains("Secret plans") && !page.contains("reply-from") && !page.contains("follow-card"))
        #expect(page.contains("/_lectern/live.js"), "the preview reloads itself as the writer saves")
        #expect(try await blog.get("/\(year)/secret-plans/").status == 404, "the live site has no draft")
        #expect(!FileManager.default.fileExists(atPath: blog.root.appendingPathComponent("public/\(year)/secret-plans").path))
        // Through a proxy (nginx in front of a watching server by mistake): nobody else sees drafts.
        let proxied = try await FetchClient(allowPrivateAddresses: true).perform(
            OutgoingRequest(url: blog.base + preview, headers: [("Accept", "text/html"), ("X-Forwarded-For", "203.0.113.9")]), on: testTransfers)
        #expect(proxied.status == 403)
        try await Task.sleep(for: .seconds(1))
        #expect(!remote.activities(type: "Create").contains { $0.objectTitle == "Secret plans" }, "a draft is never announced")
        // Published: the live site has it and followers hear of it.
        try "---\ntitle: Secret plans\ndate: \(now)\n---\nNot yet.\n".write(to: file, atomically: true, encoding: .utf8)
        #expect(try await eventually(within: 10) { try await blog.get("/\(year)/secret-plans/").status == 200 })
        #expect(try await eventually(within: 10) { remote.activities(type: "Create").contains { $0.objectTitle == "Secret plans" } })
    }
}
