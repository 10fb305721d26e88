import Foundation

/// HTTP dates (RFC 9110 §5.6.7). Sends IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`) and reads it
/// with a fixed-layout parser: `DateFormatter` cost more than an RSA verification. The two
/// obsolete forms (RFC 850, asctime) still parse, through the slow path.
public enum HTTPDate {
    private static let months = CivilTime.monthNames.map { String($0.prefix(3)) }

    public static func format(_ date: Date) -> String {
        CivilTime(secondsSince1970: Int(date.timeIntervalSince1970.rounded(.down))).imfFixdate
    }

    public static func parse(_ text: String) -> Date? {
        var text = text
        return text.withUTF8 { imfFixdate($0) } ?? obsolete(text)
    }

    /// "Sun, 06 Nov 1994 08:49:37 GMT": every field at a fixed offset. Nil if the layout is
    /// another; `.some(nil)` if it is this one with impossible values.
    private static func imfFixdate(_ bytes: UnsafeBufferPointer<UInt8>) -> Date?? {
        guard bytes.count == 29, bytes[3] == UInt8(ascii: ","), bytes[4] == 32, bytes[7] == 32, bytes[11] == 32,
              bytes[16] == 32, bytes[19] == UInt8(ascii: ":"), bytes[22] == UInt8(ascii: ":"), bytes[25] == 32,
              bytes[26...28].elementsEqual("GMT".utf8) else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for byte in bytes[range] {
                guard (48...57).contains(byte) else { return nil }
                value = value * 10 + Int(byte - 48)
            }
            return value
        }
        guard let day = number(5..<7), let monthIndex = months.firstIndex(where: { $0.utf8.elementsEqual(bytes[8..<11]) }),
              let year = number(12..<16), let hour = number(17..<19), let minute = number(20..<22),
              let second = number(23..<25), (1...31).contains(day), hour < 24, minute < 60, second < 61 else { return .some(nil) }
        let dayNumber = CivilTime.days(year: year, month: monthIndex + 1, day: day)
        return Date(timeIntervalSince1970: TimeInterval(dayNumber * 86400 + hour * 3600 + minute * 60 + second))
    }

    private static let obsoleteFormats: [DateFormatter] = ["EEEE, dd-MMM-yy HH:mm:ss zzz", "EEE MMM d HH:mm:ss yyyy"].map {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = $0
        return formatter
    }

    private static func obsolete(_ text: String) -> Date? {
        // DateFormatter traps on some non-ASCII text ("Incorrect range CFRange…" for "S\u{301}"),
        // and HTTP dates are printable ASCII: anything else is no date (found by Fuzz/).
        guard text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else { return nil }
        return obsoleteFormats.lazy.compactMap { $0.date(from: text) }.first
    }
}
