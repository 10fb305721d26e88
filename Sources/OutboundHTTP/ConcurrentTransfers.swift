import CCurl
import Foundation

/// Many requests at once over one libcurl multi handle: connections are kept alive and reused
/// between requests to the same host (also across `run` calls), each request gets the
/// client's hardening (see `Transfer`), and the caller decides what to start next as slots free.
///
/// ```swift
/// let transfers = ConcurrentTransfers(client: FetchClient(), maximumInFlight: 32)
/// transfers.run(next: { free in queue.take(free) }, completed: { token, result in record(token, result) })
/// ```
/// `run` blocks its thread; call it from a dedicated one (the delivery worker does).
public final class ConcurrentTransfers: @unchecked Sendable {
    public let client: FetchClient
    public let maximumInFlight: Int
    /// Made by the first `run`: a process that never delivers (`lectern build`, which opens
    /// the blog and so its delivery worker) never loads libcurl.
    private var multiHandle: UnsafeMutableRawPointer?
    private let lock = NSLock()  // one `run` at a time: a multi handle is single-threaded

    public init(client: FetchClient, maximumInFlight: Int) {
        self.client = client
        self.maximumInFlight = max(1, maximumInFlight)
    }

    deinit { if let multiHandle { curl_multi_cleanup(multiHandle) } }

    /// Under `lock`; nil when libcurl cannot start.
    private func multi() -> UnsafeMutableRawPointer? {
        if let multiHandle { return multiHandle }
        guard FetchClient.initialized, let made = curl_multi_init() else { return nil }
        // Idle connections kept for reuse; transfers beyond this wait for one.
        lectern_curl_multi_setopt_long(made, CURLMOPT_MAXCONNECTS, maximumInFlight * 2)
        multiHandle = made
        return made
    }

    /// Starts what `next` returns (at most the number of free slots it is given), runs
    /// everything to completion, asks `next` again as slots free up, and returns when `next`
    /// has nothing more and nothing is in flight. Each result comes back with its token.
    public func run(next: (_ freeSlots: Int) -> [(token: Int64, request: OutgoingRequest)],
                    completed: (_ token: Int64, _ result: Result<IncomingResponse, HTTPClientError>) -> Void) {
        lock.lock()
        defer { lock.unlock() }
        guard let multi = multi() else {
            // Where libcurl cannot start, every request fails at once, saying why, until `next` has
            // no more (the delivery worker does not even start a pass then; see
            // `DeliveryWorker.runOnce`).
            let reason = FetchClient.initialized ? "curl_multi_init failed" : FetchClient.failure
            while case let requests = next(maximumInFlight), !requests.isEmpty {
                for (token, _) in requests { completed(token, .failure(.unavailable(reason))) }
            }
            return
        }
        var inFlight: [UnsafeMutableRawPointer: (token: Int64, transfer: Transfer)] = [:]
        var askAgain = true
        var lastAsked = ContinuousClock.now
        while true {
            // Ask for more when a slot freed up, or every half second while waiting.
            if inFlight.count < maximumInFlight, askAgain || ContinuousClock.now - lastAsked > .milliseconds(500) {
                askAgain = false
                lastAsked = .now
                for (token, request) in next(maximumInFlight - inFlight.count) {
                    do {
                        let transfer = try Transfer(request: request, client: client)
                        inFlight[transfer.handle] = (token, transfer)
                        curl_multi_add_handle(multi, transfer.handle)
                    } catch let error as HTTPClientError {
                        completed(token, .failure(error))
                        askAgain = true
                    } catch {
                        completed(token, .failure(.transport("\(error)")))
                    }
                }
            }
            // Done when nothing flies and `next` had nothing more (a request that failed to start
            // is not the end: `next` is asked again).
            if inFlight.isEmpty, !askAgain { return }
            for (handle, code) in Transfer.performAndCollect(multi) {
                guard let entry = inFlight.removeValue(forKey: handle) else { continue }
                completed(entry.token, Result { try entry.transfer.finish(code: code) }.mapError {
                    $0 as? HTTPClientError ?? .transport("\($0)")
                })
                askAgain = true
            }
            if !inFlight.isEmpty, !askAgain { curl_multi_poll(multi, nil, 0, 100, nil) }
        }
    }
}
