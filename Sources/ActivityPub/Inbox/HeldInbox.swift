import BlogModel
import Foundation
import HTTPSignatures
import Storage

/// Inbox requests whose signing key could not be had when they arrived: the key's server was
/// slow or failing, or lookups to it were over their budget (`FetchBudget`). Answering those
/// with 503 loses the activity whenever the sender retries badly — GoToSocial 0.20 re-sends the
/// request with an empty body — so `InboxGate` answers 202 and keeps the request as received
/// (`held_inbound`), and `checkDue` runs it through the gate again later, as of the moment it
/// arrived. Nothing in it is applied before its signature verifies; what fails then is dropped.
///
/// Only a request whose key is on its actor's own origin, a server the blog has met before, is
/// held, once per signature; `HeldInboundQueue.heldPerKeyHost` per key host and `HeldInboundQueue.heldInAll` in all
/// (past them, or for anyone else, the gate answers 503 as before). Each is checked after 35 s,
/// then after waits that double, and given up when the next check would come more than an hour
/// after it arrived: 6 checks (key lookups) in about 37 minutes at most.
public struct HeldInbox: Sendable {
    /// The first check waits out the key host's failure memory: a host that just failed is not
    /// asked again sooner.
    public static let firstCheck: TimeInterval = FetchBudget.hostFailureMemory + 5
    public static let lifetime: TimeInterval = 3600
    /// Requests checked in one pass.
    static let batch = 50

    public let queue: HeldInboundQueue
    /// Signalled when a request is held (wakes the service that checks them).
    public let signal: QueueSignal?

    public init(queue: HeldInboundQueue, signal: QueueSignal? = nil) { (self.queue, self.signal) = (queue, signal) }

    /// Keeps `request`, whose signature names `keyId` and has `replayKey`, for a later check when
    /// the rules above allow it; false when they do not (the gate answers 503).
    func hold(_ request: HTTPRequestParts, actor: String, keyId: String, replayKey: [UInt8], now: Date) async throws -> Bool {
        guard Origin.same(keyId, actor), let origin = Origin(keyId), try queue.knowsActors(onOrigin: origin.url) else { return false }
        let result = try await queue.holdInbound(try Self.encode(request), keyHost: origin.host,
                                                 signature: Data(replayKey).base64EncodedString(),
                                                 firstAttemptAt: now.addingTimeInterval(Self.firstCheck), now: now)
        if result == .held { signal?.signal() }
        return result != .full
    }

    public struct Report: Sendable, Equatable {
        /// Verified and queued for the inbox worker.
        public var queued = 0
        /// Refused or ignored once their key could be had, or given up.
        public var settled = 0
        /// Still waiting for their key.
        public var waiting = 0
    }

    /// Runs the held requests that are due through `gate`, each as of the moment it arrived.
    public func checkDue(gate: InboxGate, now: Date = Date()) async throws -> Report {
        var report = Report()
        for held in try queue.dueHeldInbound(limit: Self.batch, now: now) {
            // Rows this type wrote; one it cannot read again is given up, not retried for ever.
            guard let request = Self.decode(held.request) else {
                try await queue.releaseHeldInbound(held)
                report.settled += 1
                continue
            }
            let outcome = await gate.receive(request, now: held.receivedAt, mayHold: false)
            let next = now.addingTimeInterval(Self.firstCheck * pow(2, Double(held.attempts + 1)))
            // Still no key, the database busy or failing: later, while the hour lasts.
            if outcome.status >= 500, next.timeIntervalSince(held.receivedAt) <= Self.lifetime {
                try await queue.rescheduleHeldInbound(held, next: next)
                report.waiting += 1
                continue
            }
            try await queue.releaseHeldInbound(held)
            if outcome.queued { report.queued += 1 } else { report.settled += 1 }
        }
        return report
    }

    /// The request as JSON: its method, URL, headers in order and body.
    private struct Serialized: Codable {
        var method: String
        var url: String
        var headers: [[String]]
        var body: Data
    }

    static func encode(_ request: HTTPRequestParts) throws -> Data {
        try JSONEncoder().encode(Serialized(method: request.method, url: request.targetURI,
                                            headers: request.headers.map { [$0.name, $0.value] }, body: Data(request.body)))
    }

    static func decode(_ data: Data) -> HTTPRequestParts? {
        guard let serialized = try? JSONDecoder().decode(Serialized.self, from: data),
              serialized.headers.allSatisfy({ $0.count == 2 }) else { return nil }
        return HTTPRequestParts(method: serialized.method, url: serialized.url,
                                headers: serialized.headers.map { (name: $0[0], value: $0[1]) }, body: Array(serialized.body))
    }
}
