import Foundation
import OutboundHTTP
import HTTPSignatures
import Interactions
import LecternCrypto
import Testing

/// FEP-8fcf, the sending side: a delivery to followers carries the digest of the followers on
/// the receiving server, and the partial collection it points to lists exactly them, to an
/// actor of that server only.
@Suite struct FollowersSynchronizationTests {
    func signedGET(_ url: String, by remote: FakeInstance, _ name: String) async throws -> (status: Int, body: [String: Any]) {
        var parts = HTTPRequestParts(method: "GET", url: url, headers: [("Accept", "application/activity+json")])
        try CavageSigner(keyId: remote.keyID(name), key: remote.keys[name]!).sign(&parts)
        let response = try await FetchClient(allowPrivateAddresses: true)
            .perform(OutgoingRequest(url: url, headers: parts.headers), on: testTransfers)
        return (response.status, (try? JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any]) ?? [:])
    }

    @Test func deliveriesToFollowersCarryTheDigestAndThePartialCollectionMatches() async throws {
        let elsewhere = try FakeInstance(names: ["eve"])
        try await elsewhere.start()
        defer { elsewhere.stop() }
        try await withBlog { remote, blog in
            try await blog.follow(by: remote, "alice")
            try await blog.follow(by: remote, "bob")
            try await blog.follow(by: elsewhere, "eve")
            let file = blog.root.appendingPathComponent("content/posts/synced.md")
            try "---\ntitle: Synced\ndate: \(ISO8601DateFormatter().string(from: Date()))\n---\n\nHello.\n"
                .write(to: file, atomically: true, encoding: .utf8)
            try blog.rebuild()
            #expect(try await eventually { !remote.activities(at: "/inbox", type: "Create").isEmpty
                && !elsewhere.activities(type: "Create").isEmpty })

            let create = try #require(remote.activities(at: "/inbox", type: "Create").first, "one Create to the shared inbox")
            let header = try #require(create.synchronization.flatMap(CollectionSynchronization.parse), "\(create.synchronization ?? "none")")
            #expect(header.collectionId == blog.actor + "/followers")
            // The digest as the receiving server computes it: XOR of SHA-256 of its own followers' ids.
            var expected = [UInt8](repeating: 0, count: 32)
            for id in [remote.actorID("alice"), remote.actorID("bob")] {
                for (index, byte) in Digest.sha256(Array(id.utf8)).enumerated() { expected[index] ^= byte }
            }
            #expect(header.digest == expected.map { String(format: "%02x", $0) }.joined())
            #expect(header.url == blog.actor + "/followers?domain=" + remote.host)
            let other = try #require(elsewhere.activities(type: "Create").first)
            let otherHeader = try #require(other.synchronization.flatMap(CollectionSynchronization.parse))
            #expect(otherHeader.digest == CollectionSynchronization.digest(of: [elsewhere.actorID("eve")]), "each server its own followers")
            try await served("the Accepts delivered") { !remote.activities(type: "Accept").isEmpty }
            #expect(remote.activities(type: "Accept").allSatisfy { $0.synchronization == nil }, "an Accept is not addressed to followers")

            let partial = try await signedGET(header.url, by: remote, "alice")
            #expect(partial.status == 200)
            #expect(partial.body["id"] as? String == header.url)
            #expect(Set(partial.body["orderedItems"] as? [String] ?? []) == [remote.actorID("alice"), remote.actorID("bob")])
            #expect(try await signedGET(header.url, by: elsewhere, "eve").status == 403, "another server's actor is refused")
            #expect(try await HTTPClientForTests.get(header.url, accept: "application/activity+json").status == 401, "unsigned")
        }
    }
}
