import Foundation
import HTTPSignatures
import Store

/// Inbox requests whose signing key could not be had when they arrived: the key's server was
/// slow or failing, or lookups to it were over their budget (`KeyFetchBudget`). Answering those
/// with 503 loses the activity whenever the sender retries badly — GoToSocial 0.20 re-sends the
/// request with an empty body — so `InboxGate` answers 202 and keeps the request as received
/// (`held_inbound`), and `checkDue` runs it through the gate again later, as of the moment it
/// arrived. Nothing in it is applied before its signature verifies; what fails then is dropped.
///
/// Bounds: `Store.heldPerKeyHost` requests per actor host and `Store.heldInAll` in all (past
/// them the gate answers 503 as before); each is checked after 35 s, then after waits that
/// double, and given up an hour after it arrived: at most 7 key lookups each.
public struct HeldInbox: Sendable {
    /// The first check waits out the key host's failure memory: a host that just failed is not
    /// asked again sooner.
    public static let firstCheck: TimeInterval = KeyFetchBudget.hostFailureMemory + 5
    public static let lifetime: TimeInterval = 3600
    /// Requests checked in one pass.
    static let batch = 50

    public let store: Store
    /// Signalled when a request is held (wakes the service that checks them).
    public let signal: QueueSignal?

    public init(store: Store, signal: QueueSignal? = nil) { (self.store, self.signal) = (store, signal) }

    /// Keeps `request` for a later check; false when the bounds are reached.
    func hold(_ request: HTTPRequestParts, actorHost: String, now: Date) throws -> Bool {
        let held = try store.holdInbound(try Self.encode(request), keyHost: actorHost,
                                         firstAttemptAt: now.addingTimeInterval(Self.firstCheck), now: now)
        if held { signal?.signal() }
        return held
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
        for held in try store.dueHeldInbound(limit: Self.batch, now: now) {
            guard let request = Self.decode(held.request) else {
                try store.releaseHeldInbound(seq: held.seq)
                report.settled += 1
                continue
            }
            let outcome = await gate.receive(request, now: held.receivedAt, mayHold: false)
            let next = now.addingTimeInterval(Self.firstCheck * pow(2, Double(held.attempts + 1)))
            if outcome.status == 503, next.timeIntervalSince(held.receivedAt) <= Self.lifetime {
                try store.rescheduleHeldInbound(seq: held.seq, next: next)
                report.waiting += 1
                continue
            }
            try store.releaseHeldInbound(seq: held.seq)
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
