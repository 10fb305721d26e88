import Foundation
import HTTPClient

/// What to do after an attempt: the rules of design §5 in one place.
public struct RetryPolicy: Sendable {
    /// First retry after this; each next one waits twice as long (± 20 % jitter).
    public var firstDelay: TimeInterval = 30
    public var longestDelay: TimeInterval = 6 * 3600
    /// Give up on a delivery this long after it was queued (about two days).
    public var giveUpAfter: TimeInterval = 2 * 86_400

    public init() {}

    public enum Decision: Equatable, Sendable {
        case delivered
        case retry(at: Date)
        /// Final: the delivery is marked failed.
        case fail
        /// Final, and the inbox's follower goes (410 Gone).
        case gone
    }

    public func decide(status: Int?, error: HTTPClientError?, retryAfter: String?, attempts: Int, queuedAt: Date,
                       now: Date, jitter: Double = Double.random(in: 0.8...1.2)) -> Decision {
        if let status, (200..<300).contains(status) { return .delivered }
        if status == 410 { return .gone }
        let retryable: Bool
        if let status {
            retryable = status == 408 || status == 429 || status >= 500
        } else {
            switch error {
            case .timedOut?, .transport?: retryable = true
            default: retryable = false  // refused addresses and bad URLs do not get better
            }
        }
        guard retryable else { return .fail }
        var delay = min(longestDelay, firstDelay * pow(2, Double(min(attempts, 20)))) * jitter
        if let retryAfter, let asked = Self.retryAfter(retryAfter, now: now) { delay = max(delay, asked) }
        let at = now.addingTimeInterval(delay)
        return at.timeIntervalSince(queuedAt) > giveUpAfter ? .fail : .retry(at: at)
    }

    /// `Retry-After`: seconds, or an HTTP date. At most a day is honoured.
    static func retryAfter(_ value: String, now: Date) -> TimeInterval? {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        if let seconds = TimeInterval(trimmed) { return min(max(0, seconds), 86_400) }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        return formatter.date(from: trimmed).map { min(max(0, $0.timeIntervalSince(now)), 86_400) }
    }
}
