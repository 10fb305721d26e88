import Foundation
import Testing
@testable import Storage

/// Answers strangers ask for: one per actor and object a day, a cap per server and one in all.
@Suite struct AutomaticReplyTests {
    @Test func oneServerCannotUseUpEveryonesAnswers() throws {
        let store = try Store.inMemory()
        let now = Date()
        var granted = 0
        for n in 0..<(AutomaticReplies.automaticRepliesPerServerPerHour + 5) {
            if try store.automaticReplies.claimAutomaticReply(to: "https://loud.example/users/u\(n)", about: "quote q\(n)", now: now) { granted += 1 }
        }
        #expect(granted == AutomaticReplies.automaticRepliesPerServerPerHour)
        // Another server, an address literal and a port of their own, is answered still.
        #expect(try store.automaticReplies.claimAutomaticReply(to: "http://[2001:db8::1]:8080/users/a", about: "follow", now: now))
        #expect(try store.automaticReplies.claimAutomaticReply(to: "https://loud.example:8443/users/a", about: "follow", now: now))
        // The same actor and object again: once a day.
        #expect(try !store.automaticReplies.claimAutomaticReply(to: "http://[2001:db8::1]:8080/users/a", about: "follow", now: now))
        #expect(AutomaticReplies.originPrefix("http://[2001:db8::1]:8080/users/a") == "http://[2001:db8::1]:8080")
        // An hour later the server is answered again.
        #expect(try store.automaticReplies.claimAutomaticReply(to: "https://loud.example/users/later", about: "follow", now: now.addingTimeInterval(3601)))
    }
}
