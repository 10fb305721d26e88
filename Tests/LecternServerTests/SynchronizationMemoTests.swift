import HTTPSignatures
import Testing
@testable import Interactions

/// What the delivery worker remembers for FEP-8fcf: each activity's addressing for good, each
/// origin's digest for `lifetime`, and never more than `capacity` of either.
@Suite struct SynchronizationMemoTests {
    private func header(_ digest: String) -> CollectionSynchronization {
        CollectionSynchronization(collectionId: "https://blog.example/actor/followers",
                                  url: "https://blog.example/actor/followers?domain=a.example", digest: digest)
    }

    @Test func eachOriginsDigestIsMadeOnceWithinItsLifetime() async throws {
        let memo = SynchronizationMemo(lifetime: .seconds(2))
        var made = 0
        func digest(_ origin: String, _ value: String) -> CollectionSynchronization? {
            memo.digest(origin: origin) { made += 1; return header(value) }
        }
        #expect(digest("https://a.example", "1")?.digest == "1")
        #expect(digest("https://a.example", "2")?.digest == "1", "remembered")
        #expect(digest("https://b.example", "3")?.digest == "3", "each origin its own")
        #expect(made == 2)
        // No followers there is remembered too (nil), not asked again each time.
        #expect(memo.digest(origin: "https://c.example") { made += 1; return nil } == nil)
        #expect(memo.digest(origin: "https://c.example") { made += 1; return header("4") } == nil)
        #expect(made == 3)
        try await Task.sleep(for: .milliseconds(2_200))
        #expect(digest("https://a.example", "5")?.digest == "5", "made again after its lifetime")
    }

    @Test func addressingIsReadOncePerActivityAndTheMemoryIsBounded() {
        let memo = SynchronizationMemo()
        var reads = 0
        #expect(memo.addressed("https://blog.example/a/1") { reads += 1; return true })
        #expect(memo.addressed("https://blog.example/a/1") { reads += 1; return false })
        #expect(!memo.addressed("https://blog.example/a/2") { reads += 1; return false })
        #expect(reads == 2)
        // Filled to capacity, everything is forgotten at once: read again.
        for n in 0..<SynchronizationMemo.capacity { _ = memo.addressed("https://blog.example/x/\(n)") { true } }
        #expect(!memo.addressed("https://blog.example/a/1") { reads += 1; return false })
        #expect(reads == 3)
    }
}
