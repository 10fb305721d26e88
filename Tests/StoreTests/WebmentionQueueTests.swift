import Foundation
@testable import Storage
import Testing

/// The received-webmention queue's bounds: what one host, and everyone, can make it hold.
@Suite struct WebmentionQueueTests {
    func store() throws -> Store {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wm-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let store = try Store(path: folder.appendingPathComponent("lectern.sqlite").path)
        _ = try store.posts.syncPosts([CurrentPost(record: PostRecord(path: "/2025/a/", apID: "https://blog.example/2025/a/", title: "A",
                                                                contentHash: "1", publishedAt: Date()))])
        return store
    }

    func queue(_ store: Store, _ source: String, host: String) async throws -> Webmentions.WebmentionQueueResult {
        try await store.webmentions.enqueueWebmention(source: source, target: "https://blog.example/2025/a/", postPath: "/2025/a/", sourceHost: host)
    }

    @Test func boundedPerHostAndInAll() async throws {
        let store = try store()
        for index in 0..<Webmentions.webmentionsQueuedPerHost {
            #expect(try await queue(store, "https://a.example/\(index)", host: "a.example") == .queued)
        }
        #expect(try await queue(store, "https://a.example/one-more", host: "a.example") == .hostFull)
        #expect(try await queue(store, "https://a.example/0", host: "a.example") == .queued, "a re-send takes no new row")
        #expect(try store.webmentions.dueWebmentions(limit: 100).count == Webmentions.webmentionsQueuedPerHost)
        // Everyone together: 1,000.
        for index in 0..<(Webmentions.webmentionsQueuedInAll - Webmentions.webmentionsQueuedPerHost) {
            #expect(try await queue(store, "https://h\(index).example/p", host: "h\(index).example") == .queued)
        }
        #expect(try await queue(store, "https://late.example/p", host: "late.example") == .queueFull)
        #expect(try store.rowCounts()["webmention_queue"] == Webmentions.webmentionsQueuedInAll)
    }

    @Test func boundedPerHostPerHourOnceKept() async throws {
        let store = try store()
        for index in 0..<Webmentions.webmentionsKeptPerHostPerHour {
            try await store.webmentions.keepWebmention(KeptWebmention(source: "https://b.example/\(index)", target: "https://blog.example/2025/a/",
                                                          postPath: "/2025/a/", kind: .like, authorID: "https://b.example/#webmention-author"))
        }
        #expect(try await queue(store, "https://b.example/next", host: "b.example") == .hostFull)
        #expect(try await queue(store, "https://c.example/next", host: "c.example") == .queued)
        let later = Date().addingTimeInterval(3700)
        #expect(try await store.webmentions.enqueueWebmention(source: "https://b.example/next", target: "https://blog.example/2025/a/",
                                                  postPath: "/2025/a/", sourceHost: "b.example", now: later) == .queued)
    }
}
