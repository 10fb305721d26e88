import ActivityStreams
import Delivery
import Foundation
import HTTPSignatures
import Interactions
import Storage
import Testing

/// Outgoing signatures as servers of 2026 expect them: RFC 9421 first, draft-cavage for a host
/// that refuses it (at once, then remembered, for a while), `Accept-Signature` honoured, either
/// standard forced by `delivery.signatures`; signed GETs the same. Each case is a real delivery
/// (or fetch) to a fake instance that takes one standard only.
@Suite struct SignatureKnockTests {
    func worker(_ blog: BlogFixture, _ preference: SignaturePreference = .auto) -> DeliveryWorker {
        var settings = DeliveryWorker.Settings(userAgent: "test")
        settings.allowPrivateAddresses = true
        settings.signatures = SignatureKnock(preference: preference)
        let (keyID, site) = (blog.actor + "#main-key", blog.runtime.activityPub)
        return DeliveryWorker(queue: blog.store.deliveries, signingKey: { (keyID, try site.actorKey) }, settings: settings)
    }

    func queue(_ blog: BlogFixture, _ name: String, to inbox: String) throws {
        try Outbox(queue: blog.store.deliveries, proofs: nil).send(Activity(id: blog.actor + "#\(name)", type: .create, actor: blog.actor,
                                                    object: blog.actor + "#\(name)/object"), to: [inbox])
    }

    func posts(_ remote: FakeInstance) -> [SignatureStandard] {
        remote.signedRequests.value.filter { $0.method == "POST" }.map(\.standard)
    }

    @Test func cavageOnlyHostGetsTheFallbackOnceThenFromMemory() async throws {
        try await withBlog(background: false) { remote, blog in
            remote.refuses.value = .rfc9421
            let worker = worker(blog)
            try queue(blog, "knock/1", to: remote.actorID("alice") + "/inbox")
            #expect(await worker.runOnce().delivered == 1)
            #expect(posts(remote) == [.rfc9421, .cavage], "RFC 9421 first, refused, then draft-cavage at once")
            let arrived = try #require(remote.activities(at: "/users/alice/inbox").first)
            #expect(arrived.verifiedKeyID == blog.actor + "#main-key" && !arrived.rfc9421)
            #expect(try blog.store.deliveries.acceptsRFC9421(origin: remote.origin, memory: 3600) == false, "the host's answer is remembered")

            try queue(blog, "knock/2", to: remote.actorID("alice") + "/inbox")
            #expect(await worker.runOnce().delivered == 1)
            #expect(posts(remote) == [.rfc9421, .cavage, .cavage], "the second delivery knocks once, in draft-cavage")

            // A week later the memory has run out: the host is asked again (it may have upgraded).
            try blog.store.deliveries.setAcceptsRFC9421(origin: remote.origin, false, now: Date().addingTimeInterval(-8 * 86_400))
            remote.refuses.value = .cavage
            try queue(blog, "knock/3", to: remote.actorID("alice") + "/inbox")
            #expect(await worker.runOnce().delivered == 1)
            #expect(posts(remote).suffix(1) == [.rfc9421], "an expired answer is asked again, with RFC 9421")
            #expect(try blog.store.deliveries.acceptsRFC9421(origin: remote.origin, memory: SignatureKnock.defaultMemory) == nil)
            // The hourly maintenance forgets what ran out: no row outlives its use.
            try blog.store.deliveries.pruneSignatureMemory(before: Date().addingTimeInterval(-SignatureKnock.defaultMemory))
            #expect(try blog.store.rowCounts()["signature_memory"] == 0)
        }
    }

    @Test func rfc9421OnlyHostIsReachedAtTheFirstKnock() async throws {
        try await withBlog(background: false) { remote, blog in
            remote.refuses.value = .cavage
            try queue(blog, "modern/1", to: remote.actorID("alice") + "/inbox")
            #expect(await worker(blog).runOnce().delivered == 1)
            #expect(posts(remote) == [.rfc9421])
            let arrived = try #require(remote.activities(at: "/users/alice/inbox").first)
            #expect(arrived.rfc9421 && arrived.verifiedKeyID == blog.actor + "#main-key")
            #expect(try blog.store.rowCounts()["signature_memory"] == 0, "the default worked: nothing to remember")
        }
    }

    /// A refusal both standards get (here: the host is down for us, 401 to everything) teaches
    /// nothing: the host is not marked cavage-only for a week because of one bad day.
    @Test func aRefusalOfBothStandardsIsNotLearned() async throws {
        try await withBlog(background: false) { remote, blog in
            remote.scripted.value = ["/users/alice/inbox": [401, 401]]
            try queue(blog, "both/1", to: remote.actorID("alice") + "/inbox")
            #expect(await worker(blog).runOnce().failed == 1)
            #expect(try blog.store.deliveries.acceptsRFC9421(origin: remote.origin, memory: 3600) == nil)
        }
    }

    @Test func acceptSignatureIsHonoured() async throws {
        try await withBlog(background: false) { remote, blog in
            // Remembered as cavage-only, but the host now refuses it and says what it wants.
            try blog.store.deliveries.setAcceptsRFC9421(origin: remote.origin, false)
            remote.refuses.value = .cavage
            remote.acceptSignature.value = #"sig2=("@method" "@target-uri" "@authority" "content-digest" "date");nonce="n-7f3a";tag="fedi""#
            try queue(blog, "asked/1", to: remote.actorID("alice") + "/inbox")
            #expect(await worker(blog).runOnce().delivered == 1)
            #expect(posts(remote) == [.cavage, .rfc9421])
            let arrived = try #require(remote.activities(at: "/users/alice/inbox").first)
            #expect(arrived.verifiedKeyID == blog.actor + "#main-key")
            let input = try #require(arrived.signatureInput)
            #expect(input.hasPrefix("sig2=(") && input.contains(#""@authority""#) && input.contains(#""date""#)
                    && input.contains(#"nonce="n-7f3a""#) && input.contains(#"tag="fedi""#), "\(input)")
            #expect(try blog.store.deliveries.acceptsRFC9421(origin: remote.origin, memory: 3600) == nil, "cavage-only no more: forgotten")
        }
    }

    @Test func aForcedStandardIsTheOnlyOneSent() async throws {
        try await withBlog(background: false) { remote, blog in
            remote.refuses.value = .rfc9421
            try queue(blog, "forced/1", to: remote.actorID("alice") + "/inbox")
            #expect(await worker(blog, .rfc9421).runOnce().failed == 1, "no fallback when RFC 9421 is forced")
            try queue(blog, "forced/2", to: remote.actorID("alice") + "/inbox")
            #expect(await worker(blog, .cavage).runOnce().delivered == 1)
            #expect(posts(remote) == [.rfc9421, .cavage])
        }
    }

    /// The blog's own GETs (here: fetching the key of someone who writes to it) knock the same way.
    @Test func signedGETsDoubleKnockAndRemember() async throws {
        try await withBlog { remote, blog in
            remote.refuses.value = .rfc9421
            let like: [String: Any] = ["id": remote.actorID("alice") + "/likes/1", "type": "Like", "actor": remote.actorID("alice"),
                                       "object": blog.postID]
            let status = try await remote.send(like, as: "alice", to: blog.sharedInbox)
            #expect(status == 202)
            let gets = remote.signedRequests.value.filter { $0.method == "GET" && $0.path == "/users/alice" }.map(\.standard)
            #expect(gets == [.rfc9421, .cavage], "\(gets)")
            #expect(try blog.store.deliveries.acceptsRFC9421(origin: remote.origin, memory: 3600) == false)
        }
    }
}
