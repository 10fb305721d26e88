import Delivery
import Foundation
import OutboundHTTP
import Logging
import Parallel
import Storage

/// Sends the queue's webmention jobs (`deliveries.kind = 'webmention'`): for each, the target
/// is fetched and its endpoint discovered (`WebmentionDiscovery`; at most 3 redirects, each hop
/// judged again by the SSRF guard), then `source` and `target` are POSTed to it as a form,
/// unsigned. Leases, outcomes, retries with backoff, host pauses: the delivery worker's own
/// (`Store.leaseDeliveries`, `RetryPolicy`, `Store.recordOutcomes`). A target that advertises
/// no endpoint is done with (failed, "no webmention endpoint"), not retried.
public struct WebmentionSender: Sendable {
    public let queue: DeliveryQueue
    let client: FetchClient
    let policy: RetryPolicy
    let logger: Logger
    /// Jobs taken per pass, and sent at once.
    static let leaseSize = 16
    static let concurrency = 4
    static let maximumRedirects = 3

    public init(queue: DeliveryQueue, settings: DeliveryWorker.Settings, logger: Logger = Logger(label: "lectern.webmention")) {
        self.queue = queue
        var client = FetchClient(allowPrivateAddresses: settings.allowPrivateAddresses)
        client.connectTimeout = settings.connectTimeout
        client.totalTimeout = .seconds(10)
        client.maximumBodySize = 1 << 20
        client.userAgent = settings.userAgent
        self.client = client
        self.policy = settings.policy
        self.logger = logger
    }

    /// Sends everything due, then returns the counts.
    public func runOnce(now: Date? = nil) async -> DeliveryWorker.Report {
        var report = DeliveryWorker.Report()
        while !Task.isCancelled {
            let jobs: [DeliveryJob]
            do {
                jobs = try queue.leaseDeliveries(limit: Self.leaseSize, now: now ?? Date(), lease: 120, kind: .webmention)
            } catch {
                // A full disk is the caller's to report, once a minute (`FullDiskBackoff`).
                if StorageFull.recognizes(error) { report.diskFull = "\(error)" } else { logger.error("could not lease webmentions: \(error)") }
                break
            }
            if jobs.isEmpty { break }
            let outcomes = await withTaskGroup(of: DeliveryQueue.DeliveryOutcome?.self) { group in
                var outcomes: [DeliveryQueue.DeliveryOutcome] = []
                var next = jobs.makeIterator()
                for _ in 0..<Self.concurrency { if let job = next.next() { group.addTask { await send(job, now: now) } } }
                while let outcome = await group.next() {
                    if let outcome { outcomes.append(outcome) }
                    if let job = next.next() { group.addTask { await send(job, now: now) } }
                }
                return outcomes
            }
            for outcome in outcomes {
                switch outcome.decision.next {
                case .delivered: report.delivered += 1
                case .retry: report.retrying += 1
                case .failed: report.failed += 1
                }
            }
            do { try queue.recordOutcomes(outcomes) } catch {
                if StorageFull.recognizes(error) { report.diskFull = "\(error)" }
                logger.error("could not record \(outcomes.count) webmention outcomes (they will be sent again): \(error)")
            }
        }
        return report
    }

    /// One job: discovery, then the POST; nil when its JSON is unreadable (left for the lease to expire).
    func send(_ job: DeliveryJob, now: Date?) async -> DeliveryQueue.DeliveryOutcome? {
        guard let fields = try? JSONSerialization.jsonObject(with: Data(job.json.utf8)) as? [String: String],
              let source = fields["source"], let target = fields["target"] else { return nil }
        let result: Result<IncomingResponse, HTTPClientError>
        var note = ""
        switch await discover(target) {
        case .failure(let error):
            result = .failure(error)
        case .success((let page, nil)):
            let decision = DeliveryQueue.DeliveryDecision(next: (200..<300).contains(page.status) || page.status == 404 || page.status == 410
                                                  ? .failed : policy.decide(status: page.status, error: nil, retryAfter: page.header("retry-after"),
                                                                            attempts: job.attempts, queuedAt: job.createdAt, now: now ?? Date()).next,
                                                  hostDown: page.status >= 500, removeFollowers: false,
                                                  pauseHostIfDownSince: (now ?? Date()).addingTimeInterval(-policy.pauseHostAfter))
            let why = (200..<300).contains(page.status) ? "no webmention endpoint" : "target answered \(page.status)"
            logger.info("webmention \(source) → \(target): \(why)")
            return DeliveryQueue.DeliveryOutcome(id: job.id, host: job.host, inbox: job.inbox, status: page.status, error: why, decision: decision)
        case .success((_, let endpoint?)):
            note = " via \(endpoint)"
            do {
                result = .success(try await client.perform(OutgoingRequest(
                    method: "POST", url: endpoint, headers: [("Content-Type", "application/x-www-form-urlencoded")],
                    body: WebmentionDiscovery.form(source: source, target: target))))
            } catch let error as HTTPClientError {
                result = .failure(error)
            } catch {
                result = .failure(.transport("\(error)"))
            }
        }
        let response = try? result.get()
        let error: HTTPClientError? = if case .failure(let failure) = result { failure } else { nil }
        var decision = policy.decide(status: response?.status, error: error, retryAfter: response?.header("retry-after"),
                                     attempts: job.attempts, queuedAt: job.createdAt, now: now ?? Date())
        decision.removeFollowers = false  // a 410 from an endpoint says nothing about followers
        let answer = response.map { "HTTP \($0.status)" } ?? error?.description ?? ""
        logger.info("webmention \(source) → \(target)\(note): \(answer)")
        return DeliveryQueue.DeliveryOutcome(id: job.id, host: job.host, inbox: job.inbox, status: response?.status,
                                     error: error?.description ?? answer, decision: decision)
    }

    /// The target's page (after redirects) and its endpoint, if it advertises one.
    func discover(_ target: String) async -> Result<(IncomingResponse, String?), HTTPClientError> {
        var current = target
        do {
            for _ in 0...Self.maximumRedirects {
                let page = try await client.perform(OutgoingRequest(url: current, headers: [("Accept", "text/html, */*;q=0.5")]))
                if [301, 302, 303, 307, 308].contains(page.status), let location = page.header("location"),
                   let next = WebmentionDiscovery.resolve(location, against: current) {
                    current = next
                    continue
                }
                guard (200..<300).contains(page.status) else { return .success((page, nil)) }
                // The page (up to 1 MiB) is read on a thread of its own, not on the pool that serves requests.
                let url = current
                let endpoint = await withCheckedContinuation { continuation in
                    NamedThread.start("lectern-wm-find") {
                        continuation.resume(returning: WebmentionDiscovery.endpoint(finalURL: url, headers: page.headers, body: page.body,
                                                                                    contentType: page.header("content-type")))
                    }
                }
                return .success((page, endpoint))
            }
            return .failure(.badURL("\(target): more than \(Self.maximumRedirects) redirects"))  // final, not retried
        } catch let error as HTTPClientError {
            return .failure(error)
        } catch {
            return .failure(.transport("\(error)"))
        }
    }
}

extension DeliveryWorker.Report {
    /// Adds another pass's counts (the webmentions sent after the activities).
    public mutating func add(_ other: DeliveryWorker.Report) {
        delivered += other.delivered
        retrying += other.retrying
        failed += other.failed
        diskFull = diskFull ?? other.diskFull
    }
}
