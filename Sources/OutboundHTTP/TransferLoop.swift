import CCurl
import Foundation
import Parallel

/// The one place where single requests (`FetchClient.perform`: key fetches, object fetches,
/// WebFinger) wait for the network: a libcurl multi handle driven by a thread of its own.
///
/// Async callers suspend on a continuation; no thread of Swift's cooperative pool (nor of
/// Dispatch's global queues, which on Linux are the same threads) ever blocks on a peer. A
/// peer that accepts connections and never answers costs one socket until the client's total
/// timeout, nothing more.
///
/// Limits are refused at once rather than queued, so a caller can answer "try later"
/// (`HTTPClientError.busy`) instead of waiting behind a stalled host:
/// at most `maximumInFlight` requests overall and `maximumPerHost` to one host (with its port).
///
/// ```swift
/// let response = try await TransferLoop.shared.perform(request, client: FetchClient())
/// ```
public final class TransferLoop: @unchecked Sendable {
    public static let shared = TransferLoop(maximumInFlight: 256, maximumPerHost: 16)

    public let maximumInFlight: Int
    public let maximumPerHost: Int

    private struct Job {
        let transfer: Transfer
        let host: String
        let continuation: CheckedContinuation<IncomingResponse, any Error>
    }

    /// nil when libcurl cannot be loaded: then no `Transfer` can be made, so none reaches the loop.
    private let multi: UnsafeMutableRawPointer?
    // Guards `submitted`, `perHost`, `inFlight` and `started`; the loop thread owns `running`.
    private let lock = NSLock()
    private var submitted: [Job] = []
    private var perHost: [String: Int] = [:]
    private var inFlight = 0
    private var started = false
    private var running: [UnsafeMutableRawPointer: Job] = [:]

    public init(maximumInFlight: Int, maximumPerHost: Int) {
        self.maximumInFlight = max(1, maximumInFlight)
        self.maximumPerHost = max(1, maximumPerHost)
        multi = FetchClient.initialized ? curl_multi_init() : nil
    }

    /// Requests in flight now, overall (for tests and metrics).
    public var activeCount: Int { lock.withLock { inFlight } }

    public func perform(_ request: OutgoingRequest, client: FetchClient) async throws -> IncomingResponse {
        let transfer = try Transfer(request: request, client: client)
        guard let multi else { throw HTTPClientError.unavailable("curl_multi_init failed") }
        let host = Self.hostKey(request.url)
        return try await withCheckedThrowingContinuation { continuation in
            let refusal: HTTPClientError? = lock.withLock {
                if inFlight >= maximumInFlight { return .busy("\(inFlight) requests in flight") }
                if perHost[host, default: 0] >= maximumPerHost { return .busy("\(maximumPerHost) requests in flight to \(host)") }
                inFlight += 1
                perHost[host, default: 0] += 1
                submitted.append(Job(transfer: transfer, host: host, continuation: continuation))
                if !started {
                    started = true
                    NamedThread.start("lectern-http") { [self] in loop() }
                }
                return nil
            }
            if let refusal { continuation.resume(throwing: refusal); return }
            curl_multi_wakeup(multi)
        }
    }

    /// `host:port` of a URL, the unit the per-host limit counts.
    static func hostKey(_ url: String) -> String {
        guard let parts = URLComponents(string: url) else { return url }
        return (parts.host ?? "").lowercased() + ":" + String(parts.port ?? (parts.scheme == "http" ? 80 : 443))
    }

    private func loop() {
        // Started by the first `perform` whose `Transfer` was made, so libcurl is loaded.
        guard let multi else { return }
        while true {
            let newJobs: [Job] = lock.withLock { defer { submitted.removeAll() }; return submitted }
            for job in newJobs {
                running[job.transfer.handle] = job
                curl_multi_add_handle(multi, job.transfer.handle)
            }
            for (handle, code) in Transfer.performAndCollect(multi) {
                guard let job = running.removeValue(forKey: handle) else { continue }
                let result = Result { try job.transfer.finish(code: code) }
                lock.withLock {
                    inFlight -= 1
                    perHost[job.host, default: 1] -= 1
                    if perHost[job.host] == 0 { perHost[job.host] = nil }
                }
                job.continuation.resume(with: result)
            }
            // Sleeps until a socket is ready, a timer of libcurl's is due, or `perform` wakes it.
            curl_multi_poll(multi, nil, 0, 1000, nil)
        }
    }
}
