@testable import ActivityPub
import Foundation
import OutboundHTTP
import HTTPSignatures
import Interactions
import LecternRuntime
import Testing
@testable import Storage
@testable import WebServer

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
        #expect(try await eventually { try blog.store.comments.comment(id: aliceNote)?.parentID == daveNote })
        #expect(try blog.store.comments.comment(id: daveNote)?.postPath == blog.post, "the fetched parent is a comment too")
        try await served("both on the page") {
            let page = try await blog.get(blog.post).body
            return page.contains("dave was first.") && page.contains("alice answers dave.")
        }

        // bob's parent cannot be had (his server answers 404): carol's reply waits, unseen…
        let bobNote = remote.base.value + "/notes/bob-hidden"
        let waiting = remote.base.value + "/notes/alice-2"
        try await sendWaitingReply(waiting, to: bobNote, content: "<p>answering bob.</p>", blog, remote)
        #expect(try blog.store.comments.comment(id: waiting) == nil)
        // …until the parent arrives; then both are shown, threaded.
        #expect(try await remote.send(blog.create(blog.note(bobNote, by: remote, "bob", inReplyTo: blog.postID,
                                                            content: "<p>bob speaks.</p>"), by: remote, "bob"),
                                      as: "bob", to: blog.sharedInbox) == 202)
        #expect(try await eventually { try blog.store.comments.comment(id: waiting)?.parentID == bobNote })
        #expect(try await eventually { try blog.store.pendingReplies.pendingReplyCount() == 0 }, "taken off the list once attached")
        try await served("the waiting reply under its parent") { try await blog.get(blog.post).body.contains("answering bob.") }

        // A reply whose parent never comes: after a day, shown at the top of the post its context names.
        let orphan = remote.base.value + "/notes/alice-3"
        try await sendWaitingReply(orphan, to: remote.base.value + "/notes/gone", context: blog.postID + "context", blog, remote)
        let settled = try await blog.runtime.inboxProcessor().settlePendingReplies(now: Date().addingTimeInterval(86_401))
        #expect(settled.posts == [blog.post] && settled.outcomes.map(\.reason) == ["comment"])
        #expect(try blog.store.comments.comment(id: orphan)?.parentID == nil)
        // One that names no post of ours is given up, and counted.
        try await sendWaitingReply(remote.base.value + "/notes/alice-4", to: remote.base.value + "/notes/gone",
                                   context: "https://elsewhere.example/contexts/1", blog, remote)
        let given = try await blog.runtime.inboxProcessor().settlePendingReplies(now: Date().addingTimeInterval(86_401))
        #expect(given.outcomes.map(\.reason) == ["parent-unavailable"] && given.posts.isEmpty)
    }

    /// Attaching the replies that waited for a parent can fail halfway (here the database
    /// refuses one reply's row): the reply must stay on the waiting list, and the next copy or
    /// retry of the parent's activity must attach it. It used to be taken off the list first,
    /// and a retry only found the parent already kept ("duplicate"): the reply was gone.
    @Test func aWaitingReplySurvivesAFailureWhileItIsAttached() async throws {
        let remote = try FakeInstance(names: ["alice", "bob"])
        try await remote.start()
        defer { remote.stop() }
        let blog = try await BlogFixture(remote: remote)
        defer { blog.stop() }
        let parent = remote.base.value + "/notes/bob-late"
        let waiting = remote.base.value + "/notes/alice-early"
        try await sendWaitingReply(waiting, to: parent, content: "<p>answering a note not here yet.</p>", blog, remote)

        func refuse(_ id: String?) async throws {
            try await blog.store.database.write { db in
                guard let id else { return try db.execute(sql: "DROP TRIGGER refuse_one_reply") }
                try db.execute(sql: """
                    CREATE TRIGGER refuse_one_reply BEFORE INSERT ON comments
                    WHEN NEW.id = '\(id.replacingOccurrences(of: "'", with: "''"))'
                    BEGIN SELECT RAISE(ABORT, 'refused by the test'); END
                    """)
            }
        }
        try await refuse(waiting)
        let parentNote = blog.note(parent, by: remote, "bob", inReplyTo: blog.postID, content: "<p>bob, late.</p>")
        #expect(try await remote.send(blog.create(parentNote, by: remote, "bob"), as: "bob", to: blog.sharedInbox) == 202)
        #expect(try await eventually { try blog.store.comments.comment(id: parent) != nil && blog.store.inbox.inboundBacklog() == 1 },
                "the parent is kept; its activity waits to be retried")
        #expect(try blog.store.pendingReplies.pendingReplyCount() == 1, "the reply that failed still waits")
        #expect(try blog.store.comments.comment(id: waiting) == nil)

        try await refuse(nil)
        var again = blog.create(parentNote, by: remote, "bob")
        again["id"] = parent + "/activity-again"
        #expect(try await remote.send(again, as: "bob", to: blog.sharedInbox) == 202)
        #expect(try await eventually { try blog.store.comments.comment(id: waiting)?.parentID == parent })
        #expect(try await eventually { try blog.store.pendingReplies.pendingReplyCount() == 0 }, "taken off the list once attached")
        try await served("the reply under its parent") { try await blog.get(blog.post).body.contains("answering a note not here yet.") }

        // The day-old pass too: a reply it cannot store stays for the next pass, without
        // holding up the one behind it; after a week of failing it is given up.
        let orphan = remote.base.value + "/notes/alice-orphan", next = remote.base.value + "/notes/alice-next"
        try await sendWaitingReply(orphan, to: remote.base.value + "/notes/gone", context: blog.postID + "context", blog, remote)
        try await sendWaitingReply(next, to: remote.base.value + "/notes/gone", context: blog.postID + "context",
                                   waitingBefore: 1, blog, remote)
        try await refuse(orphan)
        let processor = blog.runtime.inboxProcessor()
        let dayLater = Date().addingTimeInterval(86_401)
        let failed = try await processor.settlePendingReplies(now: dayLater)
        #expect(failed.outcomes.map(\.reason) == ["settle-failed", "comment"] && failed.posts == [blog.post])
        #expect(try blog.store.pendingReplies.pendingReplyCount() == 1 && blog.store.comments.comment(id: next) != nil)
        try await refuse(nil)
        let settled = try await processor.settlePendingReplies(now: dayLater)
        #expect(settled.outcomes.map(\.reason) == ["comment"] && settled.posts == [blog.post])
        #expect(try blog.store.pendingReplies.pendingReplyCount() == 0)

        let stuck = remote.base.value + "/notes/alice-stuck"
        try await sendWaitingReply(stuck, to: remote.base.value + "/notes/gone", context: blog.postID + "context", blog, remote)
        try await refuse(stuck)
        #expect(try await processor.settlePendingReplies(now: Date().addingTimeInterval(7 * 86_400)).outcomes.map(\.reason) == ["settle-failed"])
        #expect(try blog.store.pendingReplies.pendingReplyCount() == 1, "kept while it has failed for less than a week")
        #expect(try await processor.settlePendingReplies(now: Date().addingTimeInterval(8 * 86_400 + 1)).outcomes.map(\.reason) == ["settle-failed"])
        #expect(try blog.store.pendingReplies.pendingReplyCount() == 0, "given up after a week of failing")
        #expect(try blog.store.comments.comment(id: stuck) == nil)
    }

    /// alice's reply `id` to `parent`, a note the blog cannot have yet; returns once it waits
    /// with `waitingBefore` others.
    private func sendWaitingReply(_ id: String, to parent: String, context: String? = nil, content: String = "<p>an orphan.</p>",
                                  waitingBefore: Int = 0, _ blog: BlogFixture, _ remote: FakeInstance) async throws {
        var note = blog.note(id, by: remote, "alice", inReplyTo: parent, content: content)
        note["context"] = context
        #expect(try await remote.send(blog.create(note, by: remote, "alice"), as: "alice", to: blog.sharedInbox) == 202)
        #expect(try await eventually { try blog.store.pendingReplies.pendingReplyCount() == waitingBefore + 1 })
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
        let store = blog.store
        let keys = RemoteKeyProvider(fetcher: activityPub.remoteKeys.fetcher, actors: store.actors, blocks: store.blocks)
        let restarted = InboxGate(inbox: store.inbox, actors: store.actors, blocks: store.blocks, following: store.following,
                                  deliveries: store.deliveries, keys: keys,
                                  audience: SignatureAudience(config: blog.runtime.config), actedOn: InboxProcessor.actedOn)
        let outcome = await restarted.receive(request)
        #expect(outcome.status == 401 && outcome.code == "replay", "\(outcome)")
    }
}
