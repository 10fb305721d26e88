import BlogModel
import Foundation
@testable import Interactions
import LecternCrypto
@testable import Site
import Storage

/// A small blog with fixed keys and dates, so its documents can be compared to golden files.
struct FederationFixture {
    static let config: SiteConfig = try! SiteConfig.parse("""
        title: Field Notes
        description: Notes & essays.
        author: Ada
        baseURL: https://blog.example
        username: notes
        profile:
          avatar: /images/me.png
          alsoKnownAs: [https://old.example/users/ada]
          links:
            Home: https://ada.example
            Pronouns: she/her
        """)

    let root: URL
    let site: BlogActor
    let store: Store

    init(followersPublic: Bool = false) throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("lectern-ap-\(UUID().uuidString)")
        let keys = root.appendingPathComponent("keys")
        try FileManager.default.createDirectory(at: keys, withIntermediateDirectories: true)
        let pem = Bundle.module.url(forResource: "test-key", withExtension: "pem", subdirectory: "Golden")!
        for name in [KeyStore.actor, KeyStore.instanceActor] {
            let target = keys.appendingPathComponent("\(name).pem")
            try FileManager.default.copyItem(at: pem, to: target)
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: target.path)
        }
        // A fixed Ed25519 key too (the actor's `assertionMethod`), from a seed of sevens.
        try KeyFile.write(try PrivateKey(rawEd25519Seed: [UInt8](repeating: 7, count: 32)),
                          to: keys.appendingPathComponent(KeyStore.actor + "-ed25519.pem"))
        var config = Self.config
        config.federation.followersPublic = followersPublic
        store = try Store.inMemory()
        site = try BlogActor(config: config, store: store, keys: KeyStore(folder: keys), render: MarkdownRenderer.federatedBody,
                                   published: Date(timeIntervalSince1970: 1_735_689_600))
        try site.reload(content: try Self.content(), now: Date(timeIntervalSince1970: 1_740_000_000))
    }

    static func content() throws -> SiteContent {
        let parser = ContentParser(timeZone: TimeZone(identifier: "UTC")!)
        return SiteContent(posts: [
            try parser.post(source: """
                ---
                title: Second post
                date: 2025-02-01T10:00:00Z
                updated: 2025-02-02T08:00:00Z
                tags: [Swift UI, web]
                image: /images/cover.png
                pinned: true
                summary: A summary.
                ---
                ## Heading

                Text with a [link](/2025/first-post/) and *emphasis*.
                """, file: "content/posts/second.md"),
            try parser.post(source: "---\ntitle: First post\ndate: 2025-01-01\n---\nHello, fediverse.\n",
                            file: "content/posts/first.md"),
        ], pages: [])
    }

    func remove() { try? FileManager.default.removeItem(at: root) }
}
