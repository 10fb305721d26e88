import Foundation

/// `comments:` in `lectern.yml`: how replies become comments.
public struct CommentSettings: Sendable, Equatable {
    public enum Moderation: String, Sendable, CaseIterable {
        /// Shown at once.
        case open
        /// A commenter's first comment waits for approval; later ones are shown at once.
        case firstTime = "first-time"
        /// Stored, never shown (until approved one by one).
        case closed
    }

    public var moderation = Moderation.open
    /// Post pages load a small script that refreshes comments while a reader is on the page. The
    /// pages show their comments without it; `liveRefresh: false` leaves it out everywhere.
    public var liveRefresh = true
    /// Comments with one of these words or phrases wait for approval.
    public var hold = KeywordFilter([])
    /// Comments with one of these are not kept at all (counted as `filtered`).
    public var drop = KeywordFilter([])
    public init() {}
}

/// `digest:` in `lectern.yml`: the owner's direct message listing new comments.
public struct DigestSettings: Sendable, Equatable {
    /// At most one digest per interval (seconds; `1h`, `30m`, `1d` in the file).
    public var interval: TimeInterval = 3600
    public init() {}
}

/// `delivery:` in `lectern.yml`: how the outbox worker sends.
public struct DeliverySettings: Sendable, Equatable {
    /// Requests in flight at once.
    public var concurrency = 32
    /// Requests in flight to one host at once.
    public var perHost = 4
    /// Which HTTP signature standard outgoing requests use: `auto` signs with RFC 9421 and falls
    /// back to draft-cavage for hosts that refuse it (remembered per host); the others force one.
    public var signatures = Signatures.auto
    public enum Signatures: String, Sendable, Equatable, CaseIterable { case auto, rfc9421, cavage }
    /// The longest one request may take, connecting included (seconds; `30s`, `1m` in the file).
    public var timeout: TimeInterval = 30
    /// The wait before the first retry; each next one doubles (seconds).
    public var firstRetry: TimeInterval = 30
    /// How long delivered rows are kept (for `lectern deliveries`) before the hourly prune.
    public var keepDelivered: TimeInterval = 7 * 86_400
    public init() {}
}

package extension YAMLFields {
    func commentSettings() throws -> CommentSettings {
        var settings = CommentSettings()
        guard let block = try nested("comments") else { return settings }
        try block.rejectUnknown(allowed: ["moderation", "liveRefresh", "hold", "drop"])
        settings.liveRefresh = try block.bool("liveRefresh") ?? true
        settings.hold = KeywordFilter(try block.strings("hold"))
        settings.drop = KeywordFilter(try block.strings("drop"))
        if let mode = try block.string("moderation") {
            guard let moderation = CommentSettings.Moderation(rawValue: mode) else {
                throw block.error("moderation", "must be one of open, first-time, closed")
            }
            settings.moderation = moderation
        }
        return settings
    }

    func digestSettings() throws -> DigestSettings {
        var settings = DigestSettings()
        guard let block = try nested("digest") else { return settings }
        try block.rejectUnknown(allowed: ["interval"])
        if let text = try block.string("interval") {
            guard let seconds = Self.duration(text), seconds >= 60 else {
                throw block.error("interval", "must be a duration of at least a minute, such as 30m, 1h or 1d")
            }
            settings.interval = seconds
        }
        return settings
    }

    func deliverySettings() throws -> DeliverySettings {
        var settings = DeliverySettings()
        guard let block = try nested("delivery") else { return settings }
        try block.rejectUnknown(allowed: ["concurrency", "perHost", "signatures", "rfc9421", "timeout", "firstRetry", "keepDelivered"])
        settings.concurrency = try block.positiveInt("concurrency") ?? settings.concurrency
        settings.perHost = try block.positiveInt("perHost") ?? settings.perHost
        // `rfc9421: true|false`, from before `signatures`: true was the double-knock, false draft-cavage only.
        if let old = try block.bool("rfc9421") { settings.signatures = old ? .auto : .cavage }
        if let text = try block.string("signatures") {
            guard let signatures = DeliverySettings.Signatures(rawValue: text) else {
                throw block.error("signatures", "must be auto, rfc9421 or cavage")
            }
            settings.signatures = signatures
        }
        guard settings.concurrency <= 1024 else { throw block.error("concurrency", "must be at most 1024") }
        if let text = try block.string("timeout") {
            guard let seconds = Self.duration(text), (1...300).contains(seconds) else {
                throw block.error("timeout", "must be a duration from 1s to 5m (e.g. 30s)")
            }
            settings.timeout = seconds
        }
        if let text = try block.string("firstRetry") {
            guard let seconds = Self.duration(text), (1...86_400).contains(seconds) else {
                throw block.error("firstRetry", "must be a duration from 1s to 1d (e.g. 30s)")
            }
            settings.firstRetry = seconds
        }
        if let text = try block.string("keepDelivered") {
            guard let seconds = Self.duration(text), (3600...366 * 86_400).contains(seconds) else {
                throw block.error("keepDelivered", "must be a duration from 1h to 366d (e.g. 7d)")
            }
            settings.keepDelivered = seconds
        }
        return settings
    }

    /// `90`, `90s`, `30m`, `1h`, `2d` → seconds.
    static func duration(_ text: String) -> TimeInterval? {
        let trimmed = text.trimmingCharacters(in: .whitespaces).lowercased()
        let units: [Character: Double] = ["s": 1, "m": 60, "h": 3600, "d": 86_400]
        if let last = trimmed.last, let unit = units[last] { return Double(trimmed.dropLast()).map { $0 * unit } }
        return Double(trimmed)
    }
}
