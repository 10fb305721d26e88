import BlogModel
import Foundation
@testable import Interactions
import LecternCrypto
@testable import Site
import Storage
import Testing

/// What counts as an edit of a post (an Update to followers): the writer's changes only, never
/// the blog's address nor a new way of computing the fingerprint.
@Suite struct PostFingerprintTests {
    func actor(_ fixture: FederationFixture, baseURL: String) throws -> BlogActor {
        var config = FederationFixture.config
        config.baseURL = baseURL
        return try BlogActor(config: config, store: fixture.store, keys: KeyStore(folder: fixture.root.appendingPathComponent("keys")),
                             render: MarkdownRenderer.federatedBody, published: Date(timeIntervalSince1970: 1_735_689_600))
    }

    /// A local site going live (`http://127.0.0.1:8080` → `https://…`): no post is "updated".
    @Test func aNewBaseURLIsNotAnEditOfEveryPost() throws {
        let fixture = try FederationFixture()
        defer { fixture.remove() }
        let moved = try actor(fixture, baseURL: "https://notes.example")
        let sync = try moved.reload(content: try FederationFixture.content(), now: Date(timeIntervalSince1970: 1_760_000_000))
        #expect(sync.isEmpty, "updated: \(sync.updated.map(\.path))")
        // A real edit still is one.
        var content = try FederationFixture.content()
        content.posts[1] = try ContentParser(timeZone: TimeZone(identifier: "UTC")!).post(
            source: "---\ntitle: First post\ndate: 2025-01-01\n---\nEdited text.\n", file: "content/posts/first.md")
        #expect(try moved.reload(content: content, now: Date(timeIntervalSince1970: 1_770_000_000)).updated.map(\.path) == ["/2025/first-post/"])
    }

    /// Fingerprints stored by the previous version (same post, same settings) are restated
    /// silently on the first start after an upgrade.
    @Test func fingerprintsOfThePreviousVersionAreRestatedWithoutAnUpdate() throws {
        let fixture = try FederationFixture()
        defer { fixture.remove() }
        let content = try FederationFixture.content()
        let legacySettings = PostConversion(config: fixture.site.config, urls: fixture.site.urls).legacyFingerprintSettings
        // The store as the previous version left it: another fingerprint, made from the legacy settings.
        let stored = try fixture.store.posts.publishedPosts()
        let legacy = stored.map { record -> CurrentPost in
            let post = content.posts.first { $0.path == record.path }!
            var old = record
            old.contentHash = "fingerprint-of-the-previous-version"
            old.fingerprintSource = ContentHash(post.sourceHash.hex, post.path, post.sourcePath, legacySettings).hex
            return CurrentPost(record: old)
        }
        _ = try fixture.store.posts.syncPosts(legacy)
        let before = try fixture.store.posts.publishedPosts()
        let sync = try fixture.site.reload(content: content, now: Date(timeIntervalSince1970: 1_760_000_000))
        #expect(sync.isEmpty, "updated: \(sync.updated.map(\.path))")
        let restated = try fixture.store.posts.publishedPosts()
        #expect(restated.allSatisfy { $0.contentHash != "fingerprint-of-the-previous-version" })
        #expect(restated.map(\.updatedAt) == before.map(\.updatedAt), "no post looks edited")
    }
}
