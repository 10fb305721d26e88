import Foundation
import HTTPSignatures
import LecternCrypto
import Storage
import Testing
@testable import WebServer

/// A captured request must not pass a second time, however it is dressed up, nor pass at a
/// server it was not made for; and what its author deleted stays deleted (docs/security.md).
@Suite(.serialized) struct ReplayTests {
    func like(_ remote: FakeInstance, _ blog: BlogFixture, _ n: String, by name: String = "alice") -> [String: Any] {
        let actor = remote.actorID(name)
        return ["id": "\(actor)/likes/replay-\(n)", "type": "Like", "actor": actor, "object": blog.postID]
    }

    /// The replay memory keys on the signature's bytes and key: re-casing the algorithm, adding
    /// an unknown parameter or moving the header to `Authorization` is the same signature.
    @Test func aSignatureDressedUpIsStillAReplay() async throws {
        try await withBlog { remote, blog in
            let original = try remote.signedPost(like(remote, blog, "1"), as: "alice", to: blog.sharedInbox)
            #expect(try await remote.post(original) == 202)
            let header = original.field("signature")!
            var variants: [(String, HTTPRequestParts)] = []
            var recased = original
            recased.setHeader("Signature", header.replacingOccurrences(of: "rsa-sha256", with: "RSA-SHA256"))
            variants.append(("algorithm re-cased", recased))
            var extra = original
            extra.setHeader("Signature", header + ",unknown=\"x\"")
            variants.append(("unknown parameter added", extra))
            var moved = original
            moved.headers.removeAll { $0.name.lowercased() == "signature" }
            moved.setHeader("Authorization", "Signature " + header)
            variants.append(("sent as Authorization", moved))
            for (name, request) in variants {
                #expect(try await remote.post(request) == 401, "\(name)")
            }
            #expect(try await eventually { try blog.store.inbox.inboundBacklog() == 0 })
            #expect(try blog.store.reactions.reactionCounts(postPath: blog.post).likes == 1)
        }
    }

    /// `created` counts only when `(created)` is signed: added to an old request's header, it
    /// must not make its signed `Date` current again.
    @Test func anUncoveredCreatedDoesNotRefreshAnOldDate() async throws {
        try await withBlog { remote, blog in
            for (n, age, algorithm) in [("old-hs2019", 3 * 86_400.0, "hs2019"), ("old-rsa", 6 * 3600.0, "rsa-sha256")] {
                var parts = try remote.signedPost(like(remote, blog, n), as: "alice", to: blog.sharedInbox,
                                                  date: Date().addingTimeInterval(-age))
                var header = CavageSignatureHeader(keyId: remote.keyID("alice"), algorithm: algorithm,
                                                   headers: ["(request-target)", "host", "date", "digest", "content-type"], signature: [])
                header.signature = try remote.keys["alice"]!.sign(Array(try header.signingString(for: parts).utf8), algorithm: .rsaV15SHA256)
                let now = Int(Date().timeIntervalSince1970)
                parts.setHeader("Signature", header.serialized + ",created=\(now),expires=\(now + 3600)")
                #expect(try await remote.post(parts) == 401, "\(n)")
            }
            #expect(try blog.store.reactions.reactionCounts(postPath: blog.post).likes == 0)
        }
    }

    /// A request signed for another server (its `Host`, or RFC 9421's `@target-uri`) is refused
    /// here, whatever `Host` it arrives with.
    @Test func aRequestSignedForAnotherServerIsRefused() async throws {
        try await withBlog { remote, blog in
            let elsewhere = "http://elsewhere.example/inbox"
            func redirected(_ signed: HTTPRequestParts) -> HTTPRequestParts {
                var parts = HTTPRequestParts(method: "POST", url: blog.sharedInbox, headers: signed.headers, body: signed.body)
                parts.setHeader("Host", "elsewhere.example")
                return parts
            }
            let cavage = try remote.signedPost(like(remote, blog, "cavage"), as: "alice", to: elsewhere)
            #expect(try await remote.post(redirected(cavage)) == 401, "draft-cavage, host elsewhere")

            let body = try JSONSerialization.data(withJSONObject: like(remote, blog, "rfc9421"))
            var rfc = HTTPRequestParts(method: "POST", url: elsewhere, headers: [("Content-Type", "application/activity+json")],
                                       body: Array(body))
            try RFC9421Signer(keyId: remote.keyID("alice"), key: remote.keys["alice"]!).sign(&rfc)
            #expect(try await remote.post(redirected(rfc)) == 401, "RFC 9421, @target-uri elsewhere")

            // The same, signed for the blog itself, passes: the refusal is about the host.
            var good = HTTPRequestParts(method: "POST", url: blog.sharedInbox, headers: [("Content-Type", "application/activity+json")],
                                        body: Array(body))
            try RFC9421Signer(keyId: remote.keyID("alice"), key: remote.keys["alice"]!).sign(&good)
            #expect(try await remote.post(good) == 202)
            #expect(try await eventually { try blog.store.reactions.reactionCounts(postPath: blog.post).likes == 1 })
        }
    }

    /// A Delete that overtakes its Create (a retry after a 503, a slow queue) still wins.
    @Test func aDeleteBeforeItsCreateStillWins() async throws {
        try await withBlog { (remote: FakeInstance, blog: BlogFixture) async throws in
            let bob = remote.actorID("bob")
            let noteID = remote.base.value + "/notes/overtaken"
            #expect(try await remote.send(["id": bob + "/deletes/early", "type": "Delete", "actor": bob,
                                           "object": ["id": noteID, "type": "Tombstone"]], as: "bob", to: blog.sharedInbox) == 202)
            #expect(try await eventually { try blog.store.inbox.inboundBacklog() == 0 })
            let note = blog.note(noteID, by: remote, "bob", inReplyTo: blog.postID, content: "<p>Late</p>")
            #expect(try await remote.send(blog.create(note, by: remote, "bob"), as: "bob", to: blog.sharedInbox) == 202)
            #expect(try await eventually { try blog.store.inbox.inboundBacklog() == 0 })
            #expect(try blog.store.comments.comment(id: noteID) == nil)
        }
    }

    /// A draft-cavage POST must cover `host`: without it nothing ties the signature to this blog.
    @Test func aPostNotCoveringHostIsRefused() async throws {
        try await withBlog { (remote: FakeInstance, blog: BlogFixture) async throws in
            var parts = try remote.signedPost(like(remote, blog, "no-host"), as: "alice", to: blog.sharedInbox)
            var header = CavageSignatureHeader(keyId: remote.keyID("alice"), algorithm: "rsa-sha256",
                                               headers: ["(request-target)", "date", "digest"], signature: [])
            header.signature = try remote.keys["alice"]!.sign(Array(try header.signingString(for: parts).utf8), algorithm: .rsaV15SHA256)
            parts.setHeader("Signature", header.serialized)
            #expect(try await remote.post(parts) == 401)
        }
    }

    /// A comment deleted by its author does not come back through another `Create` of the same
    /// note (a replay whose activity id was forgotten, a relay's late copy).
    @Test func aDeletedCommentStaysDeleted() async throws {
        try await withBlog { remote, blog in
            let noteID = remote.base.value + "/notes/deleted-1"
            let note = blog.note(noteID, by: remote, "bob", inReplyTo: blog.postID, content: "<p>Regretted</p>")
            #expect(try await remote.send(blog.create(note, by: remote, "bob"), as: "bob", to: blog.sharedInbox) == 202)
            #expect(try await eventually { try blog.store.comments.comment(id: noteID) != nil })
            let bob = remote.actorID("bob")
            #expect(try await remote.send(["id": bob + "/deletes/1", "type": "Delete", "actor": bob,
                                           "object": ["id": noteID, "type": "Tombstone"]], as: "bob", to: blog.sharedInbox) == 202)
            #expect(try await eventually { try blog.store.comments.comment(id: noteID) == nil && blog.store.inbox.inboundBacklog() == 0 })

            var again = blog.create(note, by: remote, "bob")
            again["id"] = bob + "/creates/replayed"
            #expect(try await remote.send(again, as: "bob", to: blog.sharedInbox) == 202)
            #expect(try await eventually { try blog.store.inbox.inboundBacklog() == 0 })
            #expect(try blog.store.comments.comment(id: noteID) == nil, "the deleted comment came back")
            // A render begun before the Delete was applied may show it for a moment; not after.
            try await served("the deleted comment off the page") { try await !blog.get(blog.post).body.contains("Regretted") }
        }
    }
}
