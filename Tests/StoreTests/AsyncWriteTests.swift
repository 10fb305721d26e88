import Foundation
import GRDB
import Testing
@testable import Storage

/// An async write asked for is done even when the asking task is cancelled (a server stopping):
/// the inbox worker records a batch it applied, instead of applying it again after a restart.
@Suite struct AsyncWriteTests {
    @Test func aCancelledTaskStillCompletesItsWrite() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lectern-async-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try Store(path: folder.appendingPathComponent("lectern.sqlite").path)
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            try await store.writeAsync { db in
                try db.execute(sql: "INSERT INTO received_activities (id, received_at) VALUES ('https://remote.example/1', 0)")
            }
        }
        try await task.value
        let stored = try await store.database.read { db in try String.fetchAll(db, sql: "SELECT id FROM received_activities") }
        #expect(stored == ["https://remote.example/1"])
    }
}
