import Foundation
import Testing
@testable import Storage

/// When a comment's `replies` collection is read: approved comments only, four rounds, and one
/// more reading when an approved reply is delivered into a finished thread, at most hourly.
@Suite struct ThreadBackfillScheduleTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)
    let author = "https://social.example/users/a"

    func comment(_ store: Store, _ id: String, state: CommentRecord.State) async throws {
        _ = try await store.comments.insertComment(CommentRecord(
            id: id, postPath: "/2025/p/", parentID: nil, authorID: author, url: nil, contentHTML: "<p>hi</p>", summary: nil,
            sensitive: false, language: "en", visibility: .public, state: state, publishedAt: now, receivedAt: now))
    }

    func store() async throws -> Store {
        let store = try Store.inMemory()
        try await store.actors.saveRemoteActor(RemoteActor(id: author, inbox: author + "/inbox"), keys: [])
        _ = try store.posts.syncPosts([CurrentPost(record: PostRecord(path: "/2025/p/", apID: "https://blog.example/2025/p/", title: "P",
                                                                      contentHash: "h", publishedAt: now))])
        return store
    }

    @Test func onlyApprovedCommentsAreReadAndAFinishedThreadIsRearmedAtMostHourly() async throws {
        let store = try await store()
        let held = author + "/notes/held", shown = author + "/notes/shown"
        try await comment(store, held, state: .pending)
        try await comment(store, shown, state: .approved)
        for id in [held, shown] { try await store.threadBackfill.schedule(commentID: id, postPath: "/2025/p/", depth: 0, host: "social.example", now: now) }
        var due = try store.threadBackfill.due(limit: 10, now: now)
        #expect(due.map(\.commentID) == [shown], "a comment held for approval is not read")
        #expect(try store.threadBackfill.nextDue() == now, "nor waited for")
        // Four readings: at once, after 10 min, 1 h and 1 day; then none.
        var clock = now
        for round in 0..<4 {
            due = try store.threadBackfill.due(limit: 10, now: clock)
            #expect(due.first?.round == round)
            try store.threadBackfill.advance(due[0], now: clock)
            clock = clock.addingTimeInterval(ThreadBackfill.delays[min(round, 2)] + 1)
        }
        #expect(try store.threadBackfill.due(limit: 10, now: clock.addingTimeInterval(86_400 * 30)).isEmpty)
        // A delivered reply: one more reading a minute later, not two within the hour.
        try await store.threadBackfill.rearm(commentID: shown, now: clock)
        due = try store.threadBackfill.due(limit: 10, now: clock.addingTimeInterval(61))
        #expect(due.count == 1)
        try store.threadBackfill.advance(due[0], now: clock.addingTimeInterval(61))
        try await store.threadBackfill.rearm(commentID: shown, now: clock.addingTimeInterval(120))
        #expect(try store.threadBackfill.due(limit: 10, now: clock.addingTimeInterval(300)).isEmpty, "at most hourly")
        try await store.threadBackfill.rearm(commentID: shown, now: clock.addingTimeInterval(3700))
        #expect(try store.threadBackfill.due(limit: 10, now: clock.addingTimeInterval(3800)).count == 1)
    }
}
