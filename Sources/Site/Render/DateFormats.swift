import Dates
import Foundation

/// Formatting of dates for pages, feeds and HTTP headers, by calendar arithmetic (`CivilTime`):
/// a `DateFormatter` loads ICU's locale and calendar data when first used, 1.5–2 ms of every
/// build that renders a page (`perf` of a one-post rebuild), to print three fixed patterns.
/// Dates before 1583 (where ICU's calendar turns Julian) or after 9999 go to a `DateFormatter`
/// made for that call, so the output is the formatter's for every date.
public struct DateFormats: Sendable {
    public let timeZone: TimeZone

    public init(timeZone: TimeZone) {
        self.timeZone = timeZone
    }

    /// "5 March 2025", in the site's time zone.
    public func human(_ date: Date) -> String {
        guard let time = Self.civil(date, offset: timeZone.secondsFromGMT(for: date)) else {
            return Self.formatter("d MMMM yyyy", timeZone).string(from: date)
        }
        return "\(time.day) \(CivilTime.monthNames[time.month - 1]) \(time.year)"
    }

    /// "2025-03-05T09:30:00Z" (RFC 3339, for Atom, JSON Feed, sitemap and HTML `datetime`).
    public func iso8601(_ date: Date) -> String {
        guard let time = Self.civil(date, offset: 0) else {
            return Self.formatter("yyyy-MM-dd'T'HH:mm:ss'Z'", Self.utc).string(from: date)
        }
        return "\(time.year)-\(CivilTime.twoDigits(time.month))-\(CivilTime.twoDigits(time.day))T\(time.clock)Z"
    }

    /// "Wed, 05 Mar 2025 09:30:00 GMT" (RFC 822 for RSS, IMF-fixdate for HTTP).
    public func rfc822(_ date: Date) -> String {
        guard let time = Self.civil(date, offset: 0) else {
            return Self.formatter("EEE, dd MMM yyyy HH:mm:ss 'GMT'", Self.utc).string(from: date)
        }
        return time.imfFixdate
    }

    private static let utc = TimeZone(identifier: "UTC")!

    /// The date's fields at `offset` seconds from UTC; nil outside 1583...9999, where the
    /// formatters' calendar is not the proleptic Gregorian one.
    private static func civil(_ date: Date, offset: Int) -> CivilTime? {
        // To the nearest millisecond first, as CoreFoundation hands dates to ICU: 59.9996 s
        // prints as 1:00 (a comment's `published` is stored with microseconds).
        let millis = (date.timeIntervalSince1970 * 1000 + 0.5).rounded(.down)
        // 1583-01-01 and 10000-01-01, in milliseconds since 1970.
        guard millis.isFinite, millis >= -12_212_553_600_000, millis < 253_402_300_800_000 else { return nil }
        return CivilTime(millisecondsSince1970: Int(millis) + offset * 1000)
    }

    /// The formatter for dates outside the arithmetic's range.
    static func formatter(_ pattern: String, _ timeZone: TimeZone) -> DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = timeZone
        formatter.dateFormat = pattern
        return formatter
    }
}
