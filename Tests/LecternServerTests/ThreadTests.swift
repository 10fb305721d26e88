import Foundation
import HTTPClient
import HTTPSignatures
import LecternRuntime
import Store
import Testing
@testable import Federation
@testable import LecternServer

/// Threads hold together: a reply whose parent the blog never saw has that parent fetched from its
/// own server; a reply whose parent cannot be had waits for it, then is attached, or after a day
/// is shown at the top of the post its `context` names. And the inbox's memory of signatures
/// survives a restart.
@Suite(.serialized) struct ThreadTests {
    @Test func missingParentsAreFetchedOrWaitedFor() async throws {
        let remote = try FakeInstance(names: ["alice", "bob", "dave"])
        try await remote.start()
        defer { remote.stop() }
        let blog = try await BlogFixture(remote: remote)
        defer { blog.stop() }

        // dave's public reply to the post reached the blog's followers, not the blog: it is
        // fetched from dave's server when alice answers it.
        let daveNote = remote.base.value + "/notes/dave-1"
        var dave = blog.note(daveNote, by: remote, "dave", inReplyTo: blog.postID, content: "<p>dave was first.</p>")
        dave["@context"] = "https://www.w3.org/ns/activitystreams"
        remote.serve("/notes/dave-1", dave)
        let aliceNote = remote.base.value + "/notes/alice-1"
        #expect(try await remote.send(blog.create(blog.note(aliceNote, by: remote, "alice", inReplyTo: daveNote,
                                                            content: "<p>alice answers dave.</p>"), by: remote, "alice"),
                                      as: "alice", to: blog.sharedInbox) == 202)
        #expect(try await eventually { try blog.store.comment(id: aliceNote)?.parentID == daveNote })
        #expect(try blog.store.comment(id: daveNote)?.postPath == blog.post, "the fetched parent is a comment too")
        try await served("both on the page") {
            let page = try await blog.get(blog.post).body
            return page.contains("dave was first.") && page.contains("alice answers dave.")
        }

        // bob's parent cannot be had (his server answers 404): carol's reply waits, unseen…
        let bobNote = remote.base.value + "/notes/bob-hidden"
        let waiting = remote.base.value + "/notes/alice-2"
        #expect(try await remote.send(blog.create(blog.note(waiting, by: remote, "alice", inReplyTo: bobNote,
                                                            content: "<p>answering bob.</p>"), by: remote, "alice"),
                                      as: "alice", to: blog.sharedInbox) == 202)
        #expect(try await eventually { try blog.store.pendingReplyCount() == 1 })
        #expect(try blog.store.comment(id: waiting) == nil)
        // …until the parent arrives; then both are shown, threaded.
        #expect(try await remote.send(blog.create(blog.note(bobNote, by: remote, "bob", inReplyTo: blog.postID,
                                                            content: "<p>bob speaks.</p>"), by: remote, "bob"),
                                      as: "bob", to: blog.sharedInbox) == 202)
        #expect(try await eventually { try blog.store.comment(id: waiting)?.parentID == bobNote })
        #expect(try blog.store.pendingReplyCount() == 0)
        try await served("the waiting reply under its parent") { try await blog.get(blog.post).body.contains("answering bob.") }

        // A reply whose parent never comes: after a day, shown at the top of the post its context names.
        let orphan = remote.base.value + "/notes/alice-3"
        var note = blog.note(orphan, by: remote, "alice", inReplyTo: remote.base.value + "/notes/gone", content: "<p>an orphan.</p>")
        note["context"] = blog.postID + "context"
        #expect(try await remote.send(blog.create(note, by: remote, "alice"), as: "alice", to: blog.sharedInbox) == 202)
        #expect(try await eventually { try blog.store.pendingReplyCount() == 1 })
        let settled = try await blog.runtime.inboxProcessor().settlePendingReplies(now: Date().addingTimeInterval(86_401))
        #expect(settled.posts == [blog.post] && settled.outcomes.map(\.reason) == ["comment"])
        #expect(try blog.store.comment(id: orphan)?.parentID == nil)
        // One that names no post of ours is given up, and counted.
        var lost = blog.note(remote.base.value + "/notes/alice-4", by: remote, "alice", inReplyTo: remote.base.value + "/notes/gone-2",
                             content: "<p>lost.</p>")
        lost["context"] = "https://elsewhere.example/contexts/1"
        #expect(try await remote.send(blog.create(lost, by: remote, "alice"), as: "alice", to: blog.sharedInbox) == 202)
        #expect(try await eventually { try blog.store.pendingReplyCount() == 1 })
        let given = try await blog.runtime.inboxProcessor().settlePendingReplies(now: Date().addingTimeInterval(86_401))
        #expect(given.outcomes.map(\.reason) == ["parent-unavailable"] && given.posts.isEmpty)
    }

    @Test func replaysAreRefusedAfterARestart() async throws {
        let remote = try FakeInstance(names: ["alice"])
        try await remote.start()
        defer { remote.stop() }
        let blog = try await BlogFixture(remote: remote)
        defer { blog.stop() }
        let alice = remote.actorID("alice")
        let request = try remote.signedPost(["id": alice + "/likes/1", "type": "Like", "actor": alice, "object": blog.postID],
                                            as: "alice", to: blog.sharedInbox)
        #expect(try await remote.post(request) == 202)
        // A new process: a gate with nothing in memory, the same database.
        let activityPub = blog.runtime.activityPub
        let restarted = InboxGate(store: blog.store, keys: RemoteKeyProvider(fetcher: activityPub.remoteKeys.fetcher, store: blog.store))
        let outcome = await restarted.receive(request)
        #expect(outcome.status == 401 && outcome.code == "replay", "\(outcome)")
    }
}
