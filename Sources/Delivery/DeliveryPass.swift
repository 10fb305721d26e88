import Foundation
import HTTPClient
import HTTPSignatures
import Store

extension DeliveryWorker {
    /// One pass over the queue: keeps a buffer of leased jobs, starts them while respecting the
    /// per-host limit, and records each outcome as it arrives.
    struct Pass {
        let worker: DeliveryWorker
        var buffer: [DeliveryJob] = []
        var inFlight: [Int64: (job: DeliveryJob, usedRFC9421: Bool)] = [:]
        var perHost: [String: Int] = [:]
        var exhausted = false
        var report = Report()

        init(worker: DeliveryWorker) { self.worker = worker }

        mutating func next(freeSlots: Int) -> [(token: Int64, request: OutgoingRequest)] {
            if buffer.count < worker.settings.concurrency * 2, !exhausted {
                let leased = (try? worker.store.leaseDeliveries(limit: worker.settings.concurrency * 4,
                                                                lease: worker.settings.lease)) ?? []
                exhausted = leased.isEmpty
                buffer += leased
            }
            var started: [(token: Int64, request: OutgoingRequest)] = []
            var index = 0
            while started.count < freeSlots, index < buffer.count {
                let job = buffer[index]
                guard perHost[job.host, default: 0] < worker.settings.perHost else { index += 1; continue }
                buffer.remove(at: index)
                let useRFC9421 = worker.settings.rfc9421 && job.acceptsRFC9421 != false
                do {
                    started.append((job.id, try request(for: job, rfc9421: useRFC9421)))
                    inFlight[job.id] = (job, useRFC9421)
                    perHost[job.host, default: 0] += 1
                } catch {
                    record(job, .fail, status: nil, error: "signing: \(error)")
                }
            }
            return started
        }

        func request(for job: DeliveryJob, rfc9421: Bool) throws -> OutgoingRequest {
            var parts = HTTPRequestParts(method: "POST", url: job.inbox,
                                         headers: [("Content-Type", "application/activity+json"),
                                                   ("Accept", "application/activity+json")],
                                         body: Array(job.json.utf8))
            if rfc9421 { try worker.rfc9421.sign(&parts) } else { try worker.cavage.sign(&parts) }
            return OutgoingRequest(method: "POST", url: job.inbox, headers: parts.headers, body: parts.body)
        }

        mutating func completed(token: Int64, result: Result<IncomingResponse, HTTPClientError>) {
            guard let (job, usedRFC9421) = inFlight.removeValue(forKey: token) else { return }
            perHost[job.host, default: 1] -= 1
            let status = try? result.get().status
            let error: HTTPClientError? = if case .failure(let failure) = result { failure } else { nil }
            let store = worker.store
            // Double-knock: a host that refuses an RFC 9421 signature gets draft-cavage from now on.
            if usedRFC9421, job.acceptsRFC9421 == nil, let status {
                if status == 400 || status == 401 {
                    try? store.setAcceptsRFC9421(host: job.host, false)
                    var retry = job
                    retry.acceptsRFC9421 = false
                    buffer.insert(retry, at: 0)
                    return
                }
                if (200..<300).contains(status) { try? store.setAcceptsRFC9421(host: job.host, true) }
            }
            let decision = worker.settings.policy.decide(status: status, error: error,
                                                         retryAfter: try? result.get().header("retry-after"),
                                                         attempts: job.attempts, queuedAt: job.createdAt, now: Date())
            record(job, decision, status: status, error: error.map(\.description) ?? status.map { "HTTP \($0)" } ?? "")
        }

        mutating func record(_ job: DeliveryJob, _ decision: RetryPolicy.Decision, status: Int?, error: String) {
            let store = worker.store
            do {
                switch decision {
                case .delivered:
                    try store.markDelivered(job.id, status: status ?? 0, host: job.host)
                    report.delivered += 1
                case .retry(let at):
                    try store.markAttemptFailed(job.id, host: job.host, status: status, error: error, retryAt: at)
                    report.retrying += 1
                case .fail, .gone:
                    try store.markAttemptFailed(job.id, host: job.host, status: status, error: error, retryAt: nil)
                    if decision == .gone { _ = try store.removeFollowers(inbox: job.inbox) }
                    report.failed += 1
                }
            } catch {
                worker.logger.error("could not record the delivery of \(job.activityID) to \(job.inbox): \(error)")
            }
            worker.logger.info("delivery \(job.activityID) → \(job.inbox): \(status.map(String.init) ?? "no answer") \(decision)\(error.isEmpty || decision == .delivered ? "" : " (\(error))")")
        }
    }
}
