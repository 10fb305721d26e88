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
}
