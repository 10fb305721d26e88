import Dates
import Foundation

/// Dates in the forms sources write them, each read by the Dates module: RFC 822 (RSS
/// `pubDate`), RFC 3339 / ISO 8601 and the written forms of WordPress, Jekyll and front matter
/// (`WrittenDate`), and Unix milliseconds (old Ghost exports). Times without an offset are read
/// in `timeZone`.
enum DateReading {
    static func parse(_ text: String, timeZone: TimeZone) -> Date? {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty, !trimmed.hasPrefix("0000-00-00") else { return nil }
        if let first = trimmed.first, first.isNumber, trimmed.count >= 10,
           trimmed[trimmed.index(trimmed.startIndex, offsetBy: 4)] == "-" {
            return WrittenDate.parse(trimmed, timeZone: timeZone)
        }
        if trimmed.allSatisfy(\.isNumber), let milliseconds = Double(trimmed), trimmed.count >= 12 {
            return Date(timeIntervalSince1970: milliseconds / 1000)
        }
        return RFC822.parse(trimmed, timeZone: timeZone)
    }

    /// The offset a written date states (`2020-05-28 01:57:00 +0200` → UTC+2, `…Z` → UTC), nil
    /// without one. Hugo and Jekyll put the day of that offset in URLs, not the site's.
    static func statedOffset(_ text: String) -> TimeZone? {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.hasSuffix("Z") || trimmed.hasSuffix("z") { return TimeZone(identifier: "UTC") }
        guard let match = Patterns.matches(#"[T\d ]([+-])(\d{2}):?(\d{2})$"#, in: trimmed).first,
              let hours = Int(match[2]), let minutes = Int(match[3]) else { return nil }
        return TimeZone(secondsFromGMT: (match[1] == "-" ? -1 : 1) * (hours * 3600 + minutes * 60))
    }
}
