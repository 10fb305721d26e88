import Foundation
import OutboundHTTP
import HTTPSignatures
import LecternCrypto
import Logging
import Parallel
import Storage

/// Sends the store's delivery queue: leases due rows, signs each request for its inbox, runs
/// them concurrently over libcurl (`ConcurrentTransfers`: 32 at once, 4 per host by default,
/// keep-alive), and records every outcome (see `RetryPolicy`). Leases expire, so a worker
/// that dies mid-fan-out loses nothing: its rows come due again (at-least-once delivery).
///
/// ```swift
/// let worker = DeliveryWorker(store: store, keyID: activityPub.actorKeyID, key: actorKey, settings: .init(userAgent: ua))
/// let report = await worker.runOnce()   // `lectern deliver`
/// ```
public final class DeliveryWorker: Sendable {
    public struct Settings: Sendable {
        public var concurrency = 32
        public var perHost = 4
        /// Which HTTP signature standard each host gets (RFC 9421 first, draft-cavage for hosts
        /// that refuse it, remembered per host: see `SignatureKnock`).
        public var signatures = SignatureKnock()
        /// Headers a job carries besides its signature, decided above the transport (FEP-8fcf's
        /// `Collection-Synchronization`: `FollowersSynchronizationHeaders`); signed with the rest.
        public var extraHeaders: (@Sendable (DeliveryJob) throws -> [(String, String)])?
        public var allowPrivateAddresses = false
        public var userAgent: String
        public var policy = RetryPolicy()
        /// How long a leased row stays with this worker before another may take it; renewed
        /// when its request starts, so it only has to outlast one request (30 s at most).
        public var lease: TimeInterval = 60
        /// Connect and total timeouts of one request.
        public var connectTimeout: Duration = .seconds(5)
        public var requestTimeout: Duration = .seconds(30)

        public init(userAgent: String) { self.userAgent = userAgent }
    }

    public struct Report: Sendable, Equatable {
        public var delivered = 0, retrying = 0, failed = 0
        public var attempts: Int { delivered + retrying + failed }
        /// Why nothing was attempted, and what to do: libcurl cannot start here, or the key
        /// cannot be read (the queue is left as it is).
        public var unavailable: String?
        /// Why the queue could not be leased or its outcomes recorded when the disk is full (the
        /// rows stay queued; the caller waits, `FullDiskBackoff`); nil otherwise.
        public var diskFull: String?

        public init(delivered: Int = 0, retrying: Int = 0, failed: Int = 0) {
            (self.delivered, self.retrying, self.failed) = (delivered, retrying, failed)
        }
    }

    public let queue: DeliveryQueue
    public let settings: Settings
    /// Wakes `run` when activities were queued (shared, so a replacement worker hears it too).
    public let signal: QueueSignal
    /// The key to sign with, asked for each request: a rotated key is used from the moment it is
    /// current, whichever process rotated it. A pass starts only if it gives a key.
    let signingKey: @Sendable () throws -> (keyID: String, key: PrivateKey)
    let transfers: ConcurrentTransfers
    let logger: Logger

    public convenience init(queue: DeliveryQueue, keyID: String, key: PrivateKey, settings: Settings, signal: QueueSignal = QueueSignal(),
                            logger: Logger = Logger(label: "lectern.delivery")) {
        self.init(queue: queue, signingKey: { (keyID, key) }, settings: settings, signal: signal, logger: logger)
    }

    public init(queue: DeliveryQueue, signingKey: @escaping @Sendable () throws -> (keyID: String, key: PrivateKey), settings: Settings,
                signal: QueueSignal = QueueSignal(), logger: Logger = Logger(label: "lectern.delivery")) {
        self.signal = signal
        self.logger = logger
        self.queue = queue
        self.settings = settings
        self.signingKey = signingKey
        var client = FetchClient(allowPrivateAddresses: settings.allowPrivateAddresses)
        client.connectTimeout = settings.connectTimeout
        client.totalTimeout = settings.requestTimeout
        client.maximumBodySize = 64 * 1024  // inboxes answer with little or nothing
        client.userAgent = settings.userAgent
        transfers = ConcurrentTransfers(client: client, maximumInFlight: settings.concurrency)
    }

    /// Delivers everything due at `now`, then returns. (`now` in the future takes over rows
    /// leased by a worker that died: what a restart does once their lease runs out.)
    public func runOnce(now: Date? = nil) async -> Report {
        // When libcurl cannot start or there is no key to sign with, nothing is leased: the
        // deliveries wait, unchanged, for a fixed install (a failure recorded for each would count
        // against every host and, in time, give up).
        var report = Report()
        if case .failure(let error) = FetchClient.library() {
            report.unavailable = "\(error.description) (`lectern doctor` checks libcurl)"
            return report
        }
        do {
            _ = try signingKey()
        } catch {
            report.unavailable = "cannot sign: \(error) (`lectern doctor` checks the keys)"
            return report
        }
        return await withCheckedContinuation { continuation in
            // libcurl's multi loop blocks: it gets a thread of its own, off the async pool.
            NamedThread.start("lectern-deliver") { continuation.resume(returning: self.pass(now: now)) }
        }
    }

    private func pass(now: Date?) -> Report {
        var pass = Pass(worker: self, now: now)
        transfers.run(next: { pass.next(freeSlots: $0) }, completed: { pass.completed(token: $0, result: $1) })
        pass.flush()
        return pass.report
    }
}
