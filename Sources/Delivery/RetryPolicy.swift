import Dates
import Foundation
import OutboundHTTP
import HTTPSignatures
import Storage

/// What to do after an attempt: the rules of design §5 in one place. It decides the whole
/// outcome — the delivery's next state, whether its host counts as down (and when a host down
/// that long is paused), whether the followers behind the inbox are gone — and the store only
/// saves it.
public struct RetryPolicy: Sendable {
    /// First retry after this; each next one waits twice as long (± 20 % jitter).
    public var firstDelay: TimeInterval = 30
    public var longestDelay: TimeInterval = 6 * 3600
    /// Give up on a delivery this long after it was queued (about two days).
    public var giveUpAfter: TimeInterval = 2 * 86_400
    /// A host failing this long is paused until it is heard from again.
    public var pauseHostAfter: TimeInterval = 7 * 86_400
    /// The longest `Retry-After` honoured.
    public var longestRetryAfter: TimeInterval = 86_400

    public init() {}

    /// Decides what an attempt (`status`, or `error` when there was no answer) means.
    public func decide(status: Int?, error: HTTPClientError?, retryAfter: String?, attempts: Int, queuedAt: Date,
                       now: Date, jitter: Double = Double.random(in: 0.8...1.2)) -> DeliveryQueue.DeliveryDecision {
        // Only a missing answer, a timeout or the server saying it is overloaded or broken counts
        // against the host; any other answer means it is up.
        // Nothing was sent when libcurl cannot start here: that says nothing about the host.
        let unavailable = if case .unavailable? = error { true } else { false }
        let hostDown = status.map { $0 == 408 || $0 == 429 || $0 >= 500 } ?? !unavailable
        var decision = DeliveryQueue.DeliveryDecision(next: .failed, hostDown: hostDown, removeFollowers: false,
                                              pauseHostIfDownSince: now.addingTimeInterval(-pauseHostAfter))
        if let status, (200..<300).contains(status) { decision.next = .delivered; return decision }
        if status == 410 { decision.removeFollowers = true; return decision }
        let retryable: Bool
        if status != nil {
            retryable = hostDown
        } else {
            switch error {
            case .timedOut?, .transport?, .busy?, .unavailable?: retryable = true
            default: retryable = false  // refused addresses and bad URLs do not get better
            }
        }
        guard retryable else { return decision }
        var delay = min(longestDelay, firstDelay * pow(2, Double(min(attempts, 20)))) * jitter
        if let retryAfter, let asked = retryAfterSeconds(retryAfter, now: now) { delay = max(delay, asked) }
        let at = now.addingTimeInterval(delay)
        if at.timeIntervalSince(queuedAt) <= giveUpAfter { decision.next = .retry(at: at) }
        return decision
    }

    /// `Retry-After`: seconds, or an HTTP date; at most `longestRetryAfter`.
    func retryAfterSeconds(_ value: String, now: Date) -> TimeInterval? {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        if let seconds = TimeInterval(trimmed) { return min(max(0, seconds), longestRetryAfter) }
        return HTTPDate.parse(trimmed).map { min(max(0, $0.timeIntervalSince(now)), longestRetryAfter) }
    }
}
