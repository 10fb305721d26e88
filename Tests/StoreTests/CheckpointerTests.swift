import Foundation
import GRDB
import Testing
@testable import Store

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
        let written = 200 * blob.count
        let deadline = Date().addingTimeInterval(10)
        while size(path) < written, Date() < deadline { try await Task.sleep(for: .milliseconds(20)) }
        // All of it copied into the database by the checkpointer, the last pages of the burst
        // too: the writer's hook replaced SQLite's own checkpoint, so without the checkpointer
        // nothing would be copied before 20,000 pages.
        #expect(size(path) >= written)
    }
}
