import Foundation
import GRDB
import Testing
@testable import Storage

/// A note addressed to someone stays addressed, even when its row is damaged.
@Suite struct SentObjectTests {
    @Test func damagedRecipientsAddressNobody() throws {
        let store = try Store.inMemory()
        try store.sentObjects.keepSentObject(SentObject(id: "https://b.example/actor/notes/1", type: "Note", json: "{}",
                                            recipients: ["https://a.example/users/x"], createdAt: Date()))
        #expect(try store.sentObjects.sentObject(id: "https://b.example/actor/notes/1")?.recipients == ["https://a.example/users/x"])
        try store.database.write { db in try db.execute(sql: "UPDATE sent_objects SET recipients = 'not json'") }
        #expect(try store.sentObjects.sentObject(id: "https://b.example/actor/notes/1")?.recipients == [], "not nil: nil would mean public")
    }
}
