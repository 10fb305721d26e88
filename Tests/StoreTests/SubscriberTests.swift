import Foundation
import Storage
import Testing

/// The newsletter's tables: what the form may queue, what a post queues, what is forgotten.
@Suite struct SubscriberTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    @Test func oneConfirmationADayPerAddressAndACapPerHour() throws {
        let store = try Store.inMemory()
        let subscribers = store.subscribers
        #expect(try subscribers.subscribe(email: "a@x.example", mailbox: "a@x.example", unsubscribeHash: "ha", hourlyCap: 2, now: now) == .confirmationQueued)
        #expect(try subscribers.subscribe(email: "a@x.example", mailbox: "a@x.example", unsubscribeHash: "ha", hourlyCap: 2, now: now.addingTimeInterval(3600)) == .tooSoon)
        #expect(try subscribers.subscribe(email: "b@x.example", mailbox: "b@x.example", unsubscribeHash: "hb", hourlyCap: 2, now: now) == .confirmationQueued)
        #expect(try subscribers.subscribe(email: "c@x.example", mailbox: "c@x.example", unsubscribeHash: "hc", hourlyCap: 2, now: now) == .capReached)
        #expect(try subscribers.subscribe(email: "c@x.example", mailbox: "c@x.example", unsubscribeHash: "hc", hourlyCap: 2, now: now.addingTimeInterval(3601)) == .confirmationQueued)
        // A day later the same address may ask again: its one confirmation row is queued afresh.
        #expect(try subscribers.subscribe(email: "a@x.example", mailbox: "a@x.example", unsubscribeHash: "ha", hourlyCap: 2, now: now.addingTimeInterval(86_401)) == .confirmationQueued)
        #expect(try store.mails.lease(limit: 10, now: now.addingTimeInterval(86_401)).filter { $0.email == "a@x.example" }.count == 1)
    }

    /// `ada+1@`, `ada+2@`… are one mailbox: one confirmation a day for all of them.
    @Test func tagsDoNotMultiplyConfirmations() throws {
        let store = try Store.inMemory()
        #expect(try store.subscribers.subscribe(email: "ada+1@x.example", mailbox: "ada@x.example", unsubscribeHash: "h1", hourlyCap: 60, now: now) == .confirmationQueued)
        #expect(try store.subscribers.subscribe(email: "ada+2@x.example", mailbox: "ada@x.example", unsubscribeHash: "h2", hourlyCap: 60, now: now) == .tooSoon)
        #expect(try store.subscribers.subscribe(email: "ada@x.example", mailbox: "ada@x.example", unsubscribeHash: "h3", hourlyCap: 60, now: now) == .tooSoon)
    }

    /// A mail whose address changed state meanwhile is failed, not left queued (the sender
    /// would wake for it forever).
    @Test func mailsForAnAddressThatChangedStateAreNotLeftQueued() throws {
        let store = try Store.inMemory()
        _ = try store.subscribers.subscribe(email: "a@x.example", mailbox: "a@x.example", unsubscribeHash: "ha", hourlyCap: 60, now: now)
        try store.subscribers.add(email: "a@x.example", mailbox: "a@x.example", origin: .added, unsubscribeHash: "ha", now: now)
        #expect(try store.mails.lease(limit: 10, now: now).isEmpty)
        #expect(try store.mails.nextDue() == nil && store.mails.counts().failed == 1)
    }

    @Test func aPostIsQueuedOncePerConfirmedAddressAndRemovalLeavesNoTrace() throws {
        let store = try Store.inMemory()
        try store.subscribers.add(email: "a@x.example", mailbox: "a@x.example", origin: .added, unsubscribeHash: "ha", now: now)
        _ = try store.subscribers.subscribe(email: "p@x.example", mailbox: "p@x.example", unsubscribeHash: "hp", hourlyCap: 10, now: now)  // pending
        #expect(try store.mails.queuePost(path: "/2026/a/", now: now) == 1)
        #expect(try store.mails.queuePost(path: "/2026/a/", now: now) == 0, "an edit or a second publish sends nothing more")
        let leased = try store.mails.lease(limit: 10, now: now)
        #expect(Set(leased.map(\.kind)) == [.post, .confirmation] && leased.count == 2)
        #expect(try store.mails.lease(limit: 10, now: now.addingTimeInterval(60)).isEmpty, "leased mails are not taken twice")
        #expect(try store.mails.lease(limit: 10, now: now.addingTimeInterval(121)).count == 2, "a lapsed lease (a crash) sends again")
        #expect(try store.subscribers.remove(email: "a@x.example"))
        #expect(try store.mails.counts().queued == 1, "its mails went with it")
        #expect(try store.subscribers.forgetUnconfirmed(before: now.addingTimeInterval(7 * 86_400)) == 1)
        #expect(try store.subscribers.all().isEmpty && store.mails.counts().queued == 0)
    }

    @Test func threeRefusalsForGoodMarkAnAddressBouncing() throws {
        let store = try Store.inMemory()
        try store.subscribers.add(email: "a@x.example", mailbox: "a@x.example", origin: .imported, unsubscribeHash: "ha", now: now)
        for post in 1...3 {
            try store.mails.queuePost(path: "/2026/\(post)/", now: now)
            let mail = try #require(try store.mails.lease(limit: 1, now: now).first)
            try store.mails.failed(mail, error: "550", permanent: true, bouncingAfter: 3)
        }
        #expect(try store.subscribers.all().first?.state == .bouncing)
        try store.mails.queuePost(path: "/2026/4/", now: now)
        #expect(try store.mails.lease(limit: 10, now: now).isEmpty, "a bouncing address is mailed no more")
    }
}
