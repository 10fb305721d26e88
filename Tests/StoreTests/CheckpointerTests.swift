import Foundation
import GRDB
import Testing
@testable import Storage

/// The server's writer no longer checkpoints (its hook replaces SQLite's automatic checkpoint):
/// the checkpointer's thread copies the log into the database.
@Suite struct CheckpointerTests {
    @Test func theLogIsCopiedIntoTheDatabaseBesideTheWriter() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lectern-checkpoint-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("lectern.sqlite").path
        let store = try Store(path: path)
        try await store.writeAsync { db in try db.execute(sql: "CREATE TABLE filler (data BLOB)") }
        // 4,000 pages of 4 KiB in 200 commits: four times the mark that wakes the checkpointer.
        let blob = Data(repeating: 7, count: 20 * 4096)
        for _ in 0..<200 {
            try await store.writeAsync { db in try db.execute(sql: "INSERT INTO filler VALUES (?)", arguments: [blob]) }
        }
        func size(_ file: String) -> Int {
            ((try? FileManager.default.attributesOfItem(atPath: file))?[.size] as? NSNumber)?.intValue ?? 0
        }
        // Copied into the database by the checkpointer, all but what a log begun again after a
        // complete checkpoint holds below the mark (as SQLite's own checkpoint leaves it). The
        // writer's hook replaced that checkpoint: without the checkpointer nothing would be
        // copied before 20,000 pages.
        let copied = 200 * blob.count - Int(Checkpointer.pages) * 4096
        let deadline = Date().addingTimeInterval(10)
        while size(path) < copied, Date() < deadline { try await Task.sleep(for: .milliseconds(20)) }
        #expect(size(path) >= copied)
    }
}
