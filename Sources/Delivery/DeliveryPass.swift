import Foundation
import HTTPClient
import HTTPSignatures
import Store

extension DeliveryWorker {
    /// One pass over the queue: keeps a buffer of leased jobs, starts them while respecting the
    /// per-host limit, and records outcomes in batches (one commit per batch).
    struct Pass {
        let worker: DeliveryWorker
        var buffer: [DeliveryJob] = []
        var inFlight: [Int64: (job: DeliveryJob, usedRFC9421: Bool)] = [:]
        var perHost: [String: Int] = [:]
        var exhausted = false
        var outcomes: [Store.DeliveryOutcome] = []
        var report = Report()
        /// Leasing clock; nil is the real one.
        let now: Date?

        init(worker: DeliveryWorker, now: Date?) {
            self.worker = worker
            self.now = now
        }

        mutating func next(freeSlots: Int) -> [(token: Int64, request: OutgoingRequest)] {
            flush()
            if buffer.count < worker.settings.concurrency, !exhausted {
                let leased = (try? worker.store.leaseDeliveries(limit: worker.settings.concurrency * 2, now: now ?? Date(),
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
                    record(job, .failed, status: nil, error: "signing: \(error)")
                }
            }
            // Jobs may have waited in the buffer for their host: their leases restart now.
            try? worker.store.renewLeases(started.map(\.token),
                                          until: (now ?? Date()).addingTimeInterval(worker.settings.lease))
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
            // Double-knock: a host that refuses an RFC 9421 signature gets draft-cavage from now on.
            if usedRFC9421, job.acceptsRFC9421 == nil, let status {
                if status == 400 || status == 401 {
                    try? worker.store.setAcceptsRFC9421(host: job.host, false)
                    var retry = job
                    retry.acceptsRFC9421 = false
                    buffer.insert(retry, at: 0)
                    return
                }
                if (200..<300).contains(status) { try? worker.store.setAcceptsRFC9421(host: job.host, true) }
            }
            let decision = worker.settings.policy.decide(status: status, error: error,
                                                         retryAfter: try? result.get().header("retry-after"),
                                                         attempts: job.attempts, queuedAt: job.createdAt, now: now ?? Date())
            let outcome: Store.DeliveryOutcome.Result = switch decision {
            case .delivered: .delivered
            case .retry(let at): .retry(at: at)
            case .fail: .failed
            case .gone: .gone
            }
            record(job, outcome, status: status, error: error.map(\.description) ?? status.map { "HTTP \($0)" } ?? "")
        }

        mutating func record(_ job: DeliveryJob, _ result: Store.DeliveryOutcome.Result, status: Int?, error: String) {
            outcomes.append(Store.DeliveryOutcome(id: job.id, host: job.host, inbox: job.inbox, status: status, error: error,
                                                  result: result))
            switch result {
            case .delivered: report.delivered += 1
            case .retry: report.retrying += 1
            case .failed, .gone: report.failed += 1
            }
            let answer = status.map { "HTTP \($0)" } ?? error
            worker.logger.info("delivery \(job.activityID) → \(job.inbox): \(answer), \(result)")
        }

        /// Writes the outcomes gathered so far.
        mutating func flush() {
            guard !outcomes.isEmpty else { return }
            do {
                try worker.store.recordOutcomes(outcomes)
                outcomes.removeAll()
            } catch {
                worker.logger.error("could not record \(outcomes.count) delivery outcomes (they will be retried): \(error)")
                outcomes.removeAll()
            }
        }
    }
}
