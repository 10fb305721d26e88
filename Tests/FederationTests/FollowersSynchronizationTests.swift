@testable import ActivityPub
import Foundation
import HTTPSignatures
@testable import Interactions
import Testing

/// FEP-8fcf's header and digest, and the handle in Bridgy Fed's message.
@Suite struct FollowersSynchronizationTests {
    /// The digest against Python's hashlib (an independent SHA-256 and XOR):
    /// `functools.reduce(lambda a, i: bytes(x ^ y for x, y in zip(a, hashlib.sha256(i.encode()).digest())), ids, bytes(32)).hex()`
    @Test func digestMatchesAnIndependentImplementation() {
        let ids = ["https://blog.example/actor", "https://social.example/users/alice"]
        #expect(CollectionSynchronization.digest(of: ids) == "a3ce41c2386660541dbf8d89ebbeac879e2af8709d626bde9508a164e05253f7")
        #expect(CollectionSynchronization.digest(of: ids.reversed()) == CollectionSynchronization.digest(of: ids), "XOR: order does not matter")
        #expect(CollectionSynchronization.digest(of: ["https://blog.example/actor"])
                == "80e71cf5baae2d650abe477964a9748fa7beac7d50b90762e7bfcae4ed8ded65")
        #expect(CollectionSynchronization.digest(of: []) == String(repeating: "0", count: 64))
    }

    @Test func headerAsMastodonWritesIt() throws {
        let header = try #require(CollectionSynchronization.parse(
            #"collectionId="https://social.example/users/a/followers", url="https://social.example/users/a/followers_synchronization", digest="B08AB6951C7D6CC2B91E17EBD9557DA7FAE02489728E9332FCB3A97748244D50""#))
        #expect(header.collectionId == "https://social.example/users/a/followers")
        #expect(header.url == "https://social.example/users/a/followers_synchronization")
        #expect(header.digest == "b08ab6951c7d6cc2b91e17ebd9557da7fae02489728e9332fcb3a97748244d50")
        #expect(CollectionSynchronization.parse(#"collectionId="x", url="y", digest="short""#) == nil)
        #expect(CollectionSynchronization.parse(#"collectionId="x", url="y""#) == nil)
        #expect(CollectionSynchronization.parse(#"collectionId=x, url="y", digest="00""#) == nil)
        #expect(CollectionSynchronization.parse(String(repeating: "a", count: 5000)) == nil)
    }

    @Test func bridgeHandleFromTheBotsMessage() {
        let ours: Set<String> = ["me.blog.example.ap.brid.gy", "blog.example"]
        #expect(BlueskyBridge.handle(html: "<p>bridged at <a href=\"https://bsky.app/profile/me.blog.example.ap.brid.gy\">x</a></p>",
                                     accepted: ours) == "me.blog.example.ap.brid.gy")
        #expect(BlueskyBridge.handle(html: "<p>Your handle is @me.blog.example.ap.brid.gy.</p>", accepted: ours) == "me.blog.example.ap.brid.gy")
        #expect(BlueskyBridge.handle(html: "<p>Nothing here, see https://fed.brid.gy/docs</p>", accepted: ours) == nil)
        #expect(BlueskyBridge.handle(html: "<p><a href=\"https://bsky.app/profile/alice.bsky.social\">@alice.bsky.social</a> replied</p>",
                                     accepted: ours) == nil, "a Bluesky user's handle is not the blog's")
        #expect(BlueskyBridge.handle(html: "<p>now <a href=\"https://bsky.app/profile/Blog.Example\">@blog.example</a></p>",
                                     accepted: ours) == "blog.example", "the custom domain asked for")
        #expect(BlueskyBridge.withoutControlCharacters("a\u{1b}[31mb\u{9b}c\nd\u{7f}\u{0}") == "a[31mbc\nd")
    }
}
