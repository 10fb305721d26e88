import Foundation
import OutboundHTTP
import HTTPSignatures
import Storage
import Parallel
import Synchronization

extension DeliveryWorker {
    /// One pass over the queue: keeps a buffer of leased jobs, starts them while respecting the
    /// per-host limit, and records outcomes in batches (one commit per batch).
    struct Pass {
        let worker: DeliveryWorker
        /// Leased jobs waiting for a slot, already signed (signing is the costly part: it is done
        /// for a whole lease at once, on every core).
        var buffer: [Prepared] = []
        /// The next lease, being signed on other threads while this loop sends what is ready:
        /// signing is off the loop's path except when there is nothing else to do.
        var signing: SigningBatch?
        var inFlight: [Int64: (job: DeliveryJob, remembered: Bool?, standard: SignatureStandard, second: Bool)] = [:]
        var perHost: [String: Int] = [:]
        var exhausted = false
        var outcomes: [DeliveryQueue.DeliveryOutcome] = []
        var report = Report()
        /// Leasing clock; nil is the real one.
        let now: Date?

        init(worker: DeliveryWorker, now: Date?) {
            self.worker = worker
            self.now = now
        }

        struct Prepared {
            let job: DeliveryJob
            /// What the double-knock knew of the inbox's origin when the job was signed.
            let remembered: Bool?
            let standard: SignatureStandard
            /// The double-knock's second try: its answer stands.
            var second = false
            let request: Result<OutgoingRequest, any Error>
            /// When the job's lease was last set: a job waiting in the buffer has it renewed.
            var leasedAt: Date
        }

        /// Signs jobs in parallel, each with the standard its host gets first (`SignatureKnock`).
        static func prepare(_ jobs: [DeliveryJob], worker: DeliveryWorker, leasedAt: Date) -> [Prepared] {
            ParallelMap.map(jobs) { job in
                let remembered = worker.rememberedStandard(for: job)
                let standard = worker.settings.signatures.first(remembered: remembered)
                return Prepared(job: job, remembered: remembered, standard: standard,
                                request: Result { try worker.request(for: job, standard: standard) }, leasedAt: leasedAt)
            }
        }

        /// A lease signed in the background; `take` waits for it if it is not done yet.
        final class SigningBatch: Sendable {
            private let done = DispatchSemaphore(value: 0)
            private let result = Mutex<[Prepared]?>(nil)

            /// Signed on a thread of its own (and `ParallelMap`'s), never on Dispatch's global
            /// queues, where the server's request tasks run.
            init(_ jobs: [DeliveryJob], worker: DeliveryWorker, leasedAt: Date) {
                NamedThread.start("lectern-sign") { [self] in
                    let prepared = Pass.prepare(jobs, worker: worker, leasedAt: leasedAt)
                    result.withLock { $0 = prepared }
                    done.signal()
                }
            }

            var isDone: Bool { result.withLock { $0 != nil } }

            func take() -> [Prepared] {
                done.wait()
                return result.withLock { $0 ?? [] }
            }
        }

        mutating func next(freeSlots: Int) -> [(token: Int64, request: OutgoingRequest)] {
            var started: [(token: Int64, request: OutgoingRequest)] = []
            // Until something starts or is in flight: a return with neither ends the pass, and a
            // lease being signed would wait out its lease before anyone sent it.
            repeat {
                flush()
                if let batch = signing, batch.isDone { buffer += batch.take(); signing = nil }
                signNextLease()
                // Nothing ready and nothing in flight: wait for the batch being signed, then start the next.
                if buffer.isEmpty, inFlight.isEmpty, let batch = signing {
                    buffer += batch.take()
                    signing = nil
                    signNextLease()
                }
                started += startReady(freeSlots - started.count)
            } while started.isEmpty && inFlight.isEmpty && (signing != nil || !buffer.isEmpty)
            renewWaitingLeases()
            // Jobs may have waited in the buffer for their host: their leases restart now.
            do {
                try worker.queue.renewLeases(started.map(\.token), until: (now ?? Date()).addingTimeInterval(worker.settings.lease))
            } catch {
                worker.logger.warning("could not renew \(started.count) leases (another worker may send them too): \(error)")
            }
            return started
        }

        /// Takes what can start from the buffer, in order, within the free slots and the per-host limit.
        private mutating func startReady(_ freeSlots: Int) -> [(token: Int64, request: OutgoingRequest)] {
            var started: [(token: Int64, request: OutgoingRequest)] = []
            var index = 0
            while started.count < freeSlots, index < buffer.count {
                let prepared = buffer[index]
                let job = prepared.job
                guard perHost[job.host, default: 0] < worker.settings.perHost else { index += 1; continue }
                buffer.remove(at: index)
                switch prepared.request {
                case .success(let request):
                    started.append((job.id, request))
                    inFlight[job.id] = (job, prepared.remembered, prepared.standard, prepared.second)
                    perHost[job.host, default: 0] += 1
                case .failure(let error):
                    let decision = DeliveryQueue.DeliveryDecision(next: .failed, hostDown: false, removeFollowers: false,
                                                          pauseHostIfDownSince: .distantPast)
                    record(job, decision, status: nil, error: "signing: \(error)")
                }
            }
            return started
        }

        /// Jobs wait in the buffer for a slot or for their host (two leases of them, behind
        /// requests that may each take the whole timeout): their leases are renewed once half
        /// over, so no other worker, nor this pass, leases and sends them a second time.
        private mutating func renewWaitingLeases() {
            let now = self.now ?? Date()
            let halfLife = worker.settings.lease / 2
            guard buffer.contains(where: { now.timeIntervalSince($0.leasedAt) >= halfLife }) else { return }
            do {
                try worker.queue.renewLeases(buffer.map(\.job.id), until: now.addingTimeInterval(worker.settings.lease))
                for index in buffer.indices { buffer[index].leasedAt = now }
            } catch {
                worker.logger.warning("could not renew \(buffer.count) waiting leases (another worker may send them too): \(error)")
            }
        }

        /// Leases and starts signing the next jobs as soon as the last lease is taken, while up
        /// to two leases wait: signing is the costly part, and a lease that waited for the buffer
        /// to drain left the cores idle (bench/fanout: 17 % idle, 2.7 s; see bench/RESULTS.md).
        mutating func signNextLease() {
            let leaseSize = worker.settings.concurrency * 2
            guard signing == nil, !exhausted, buffer.count < leaseSize * 2 else { return }
            do {
                let leased = try worker.queue.leaseDeliveries(limit: leaseSize, now: now ?? Date(), lease: worker.settings.lease)
                exhausted = leased.isEmpty
                if !leased.isEmpty { signing = SigningBatch(leased, worker: worker, leasedAt: now ?? Date()) }
            } catch {
                // A database error is not an empty queue: say so, and let the next pass try again.
                // A full disk is the service's to report, once a minute (`FullDiskBackoff`).
                if StorageFull.recognizes(error) { report.diskFull = "\(error)" } else { worker.logger.error("could not lease deliveries: \(error)") }
                exhausted = true
            }
        }

        mutating func completed(token: Int64, result: Result<IncomingResponse, HTTPClientError>) {
            guard let (job, remembered, standard, second) = inFlight.removeValue(forKey: token) else { return }
            perHost[job.host, default: 1] -= 1
            let response = try? result.get()
            let status = response?.status
            let error: HTTPClientError? = if case .failure(let failure) = result { failure } else { nil }
            let knock = worker.settings.signatures
            // Double-knock: a refused signature is tried once more at once, in the other standard
            // (or RFC 9421 as the host's `Accept-Signature` asks).
            if !second, let status,
               let (next, asked) = knock.second(after: standard, status: status, acceptSignature: response?.header("accept-signature"),
                                                request: worker.unsignedParts(for: job)) {
                worker.logger.info("delivery \(job.activityID) → \(job.inbox): HTTP \(status) to \(standard.rawValue), trying \(next.rawValue)")
                buffer.insert(Prepared(job: job, remembered: remembered, standard: next, second: true,
                                       request: Result { try worker.request(for: job, standard: next, asked: asked) },
                                       leasedAt: now ?? Date()), at: 0)
                return
            }
            if let status, (200..<300).contains(status), let lesson = knock.lesson(used: standard, remembered: remembered),
               let origin = SignatureKnock.origin(of: job.inbox) {
                remember(rfc9421: lesson, origin: origin)
            }
            let decision = worker.settings.policy.decide(status: status, error: error, retryAfter: response?.header("retry-after"),
                                                         attempts: job.attempts, queuedAt: job.createdAt, now: now ?? Date())
            record(job, decision, status: status, error: error.map(\.description) ?? status.map { "HTTP \($0)" } ?? "")
        }

        /// What the double-knock learned about a host; losing it only means knocking again.
        func remember(rfc9421: Bool, origin: String) {
            do { try worker.queue.setAcceptsRFC9421(origin: origin, rfc9421, now: now ?? Date()) } catch {
                worker.logger.warning("could not remember whether \(origin) takes RFC 9421 signatures: \(error)")
            }
        }

        mutating func record(_ job: DeliveryJob, _ decision: DeliveryQueue.DeliveryDecision, status: Int?, error: String) {
            outcomes.append(DeliveryQueue.DeliveryOutcome(id: job.id, host: job.host, inbox: job.inbox, status: status, error: error,
                                                  decision: decision))
            switch decision.next {
            case .delivered: report.delivered += 1
            case .retry: report.retrying += 1
            case .failed: report.failed += 1
            }
            let answer = status.map { "HTTP \($0)" } ?? error
            let outcome = switch decision.next {
            case .delivered: "delivered"
            case .retry(let at): "retry in \(Int(at.timeIntervalSinceNow)) s"
            case .failed: decision.removeFollowers ? "gone: followers behind this inbox removed" : "failed for good"
            }
            worker.logger.info("delivery \(job.activityID) → \(job.inbox): \(answer), \(outcome)")
        }

        /// Writes the outcomes gathered so far.
        mutating func flush() {
            guard !outcomes.isEmpty else { return }
            do {
                try worker.queue.recordOutcomes(outcomes)
                outcomes.removeAll()
            } catch {
                if StorageFull.recognizes(error) { report.diskFull = "\(error)" }
                worker.logger.error("could not record \(outcomes.count) delivery outcomes (they will be retried): \(error)")
                outcomes.removeAll()
            }
        }
    }

    /// What the double-knock knows of the job's origin; a read that fails knows nothing (and
    /// only costs a knock).
    func rememberedStandard(for job: DeliveryJob) -> Bool? {
        guard let origin = SignatureKnock.origin(of: job.inbox) else { return nil }
        do { return try queue.acceptsRFC9421(origin: origin, memory: settings.signatures.memory) } catch {
            logger.warning("could not read whether \(origin) takes RFC 9421 signatures (RFC 9421 first): \(error)")
            return nil
        }
    }

    /// The POST of a job to its inbox, before signing.
    func unsignedParts(for job: DeliveryJob) -> HTTPRequestParts {
        HTTPRequestParts(method: "POST", url: job.inbox,
                         headers: [("Content-Type", "application/activity+json"), ("Accept", "application/activity+json")],
                         body: Array(job.json.utf8))
    }

    /// The signed POST of a job to its inbox, with the `extraHeaders` the job gets.
    func request(for job: DeliveryJob, standard: SignatureStandard, asked: AcceptSignature? = nil) throws -> OutgoingRequest {
        var parts = unsignedParts(for: job)
        if let extraHeaders = settings.extraHeaders { parts.headers += try extraHeaders(job) }
        let (keyID, key) = try signingKey()
        try SignatureKnock.sign(&parts, with: standard, asked: asked, keyId: keyID, key: key)
        return OutgoingRequest(method: "POST", url: job.inbox, headers: parts.headers, body: parts.body)
    }
}
