import Foundation

/// When a signature is acceptable, by Mastodon's rules: not made more than an hour in the
/// future; not used after its expiry (`expires`, else `created` + 5 minutes, never more than
/// `created` + 12 hours) plus an hour of clock skew.
public struct TimeWindow: Sendable {
    public static let clockSkew: TimeInterval = 3600
    public static let defaultLifetime: TimeInterval = 300
    public static let maximumLifetime: TimeInterval = 12 * 3600

    /// Throws when the signature is not acceptable now; returns the last moment it is (its
    /// expiry plus the skew), which is how long a replay cache must remember it.
    @discardableResult
    public static func check(created: Date, expires: Date?, now: Date) throws -> Date {
        if created > now.addingTimeInterval(clockSkew) { throw SignatureError.notYetValid }
        let deadline = min(expires ?? created.addingTimeInterval(defaultLifetime), created.addingTimeInterval(maximumLifetime))
        if now > deadline.addingTimeInterval(clockSkew) { throw SignatureError.expired }
        return deadline.addingTimeInterval(clockSkew)
    }

    /// How long a replay cache keeps a signature: past the last moment it could pass the checks
    /// above, so a clock step or a request held at the edge never finds it forgotten.
    public static let replayMemoryMargin: TimeInterval = 3600
}
