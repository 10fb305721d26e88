import Foundation
import GRDB
import OutboundHTTP
import HTTPSignatures
import Testing
@testable import WebServer

/// Clients that hold connections without finishing a request (slowloris), and requests whose
/// framing two parties could read differently.
@Suite(.serialized) struct ConnectionLimitTests {
    @Test func tricklingAndIdleClientsAreCutOff() async throws {
        let remote = try FakeInstance(names: ["alice"])
        try await remote.start()
        defer { remote.stop() }
        let blog = try await BlogFixture(remote: remote, requestTimeout: .seconds(1))
        defer { blog.stop() }
        // One byte every 200 ms: never idle, never done. Cut off after the request deadline.
        let trickle = try RawConnection(port: blog.port)
        let started = Date()
        var open = true
        for byte in "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa".map(String.init) {
            guard trickle.send(byte), trickle.receive(within: 0.2) != nil else { open = false; break }
        }
        #expect(!open, "the connection was closed")
        #expect(Date().timeIntervalSince(started) < 3)

        // A kept-alive connection that goes quiet after its response is closed too.
        let idle = try RawConnection(port: blog.port)
        idle.send("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        #expect(idle.receive(within: 2)?.hasPrefix("HTTP/1.1 200") == true)
        var closed = false
        let idleSince = Date()
        while Date().timeIntervalSince(idleSince) < 4 {
            if idle.receive(within: 0.2) == nil { closed = true; break }
        }
        #expect(closed, "an idle keep-alive connection is closed after the deadline")

        // A whole request in time is answered as usual.
        let fine = try RawConnection(port: blog.port)
        fine.send("GET /actor HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: application/activity+json\r\n\r\n")
        let answer = fine.receive(within: 2)
        #expect(answer?.hasPrefix("HTTP/1.1 200") == true, "\(answer ?? "closed")")
    }

    @Test func twoHostHeadersAreRefused() async throws {
        let remote = try FakeInstance(names: ["alice"])
        try await remote.start()
        defer { remote.stop() }
        let blog = try await BlogFixture(remote: remote)
        defer { blog.stop() }
        let connection = try RawConnection(port: blog.port)
        connection.send("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nHost: evil.example\r\n\r\n")
        #expect(connection.receive(within: 5)?.hasPrefix("HTTP/1.1 400") == true)
    }
}

/// A database another process holds locked (a long command, a backup gone wrong) makes the inbox
/// say "try later", never 500: the sender retries and nothing is lost.
@Suite(.serialized) struct BusyDatabaseTests {
    @Test func lockedDatabaseMeans503WithRetryAfter() async throws {
        let remote = try FakeInstance(names: ["alice"])
        try await remote.start()
        defer { remote.stop() }
        let blog = try await BlogFixture(remote: remote, busyTimeout: 1)
        defer { blog.stop() }
        let alice = remote.actorID("alice")
        func like(_ n: Int) throws -> HTTPRequestParts {
            try remote.signedPost(["id": alice + "/likes/\(n)", "type": "Like", "actor": alice, "object": blog.postID],
                                  as: "alice", to: blog.sharedInbox)
        }
        #expect(try await remote.post(try like(1)) == 202, "alice's key is known before the lock")
        #expect(try await eventually { try blog.store.inbox.inboundBacklog() == 0 })
        // inbox_counts is left out: the 503 below is counted, and flushed on a timer of its own.
        let before = try blog.store.rowCounts().filter { $0.key != "inbox_counts" }
        // Another process's lock: a write transaction held open on a second connection, on a
        // thread of its own, until released.
        let other = try DatabaseQueue(path: blog.root.appendingPathComponent("data/lectern.sqlite").path)
        let locked = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            try? other.inDatabase { db in
                try db.execute(sql: "BEGIN EXCLUSIVE")
                locked.signal()
                release.wait()
                try db.execute(sql: "ROLLBACK")
            }
        }
        locked.wait()
        let follow: [String: Any] = ["id": alice + "/follows/9", "type": "Follow", "actor": alice, "object": blog.actor]
        let request = try remote.signedPost(follow, as: "alice", to: blog.sharedInbox)
        let response = try await FetchClient(allowPrivateAddresses: true).perform(
            OutgoingRequest(method: "POST", url: request.targetURI, headers: request.headers, body: request.body), on: testTransfers)
        #expect(response.status == 503 && response.header("retry-after") != nil, "\(response.status)")
        release.signal()
        #expect(try blog.store.rowCounts().filter { $0.key != "inbox_counts" } == before, "nothing stored while locked")
        // The sender retries the same request later: accepted.
        #expect(try await remote.send(follow, as: "alice", to: blog.sharedInbox) == 202)
        #expect(try await eventually { try blog.store.followers.isFollower(alice) })
    }
}
