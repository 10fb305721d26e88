/// RFC 3339 timestamps (`2025-03-05T09:30:00Z`, `2025-03-05T10:30:00.123+01:00`): the
/// `published` and `updated` of every incoming note. By arithmetic over the UTF-8 bytes:
/// `ISO8601DateFormatter` builds an ICU formatter for each use and took 13 % of the server's CPU
/// under a stream of replies.
///
/// Accepted: a four-digit year, month and day in range (no 30 February), hours 00–23, minutes
/// 00–59, seconds 00–60 (a leap second counts as the next minute's first), an optional fraction
/// of any length, and `Z` or an offset `±HH:MM` (also `±HHMM`, which some servers send). `T` and
/// `Z` may be lower case (RFC 3339 §5.6). Anything else, trailing text included, is nil.
public enum RFC3339 {
    /// Seconds since 1970-01-01T00:00:00Z, with the fraction; nil when `text` is not a timestamp.
    public static func secondsSince1970(_ text: String) -> Double? {
        var text = text
        return text.withUTF8 { secondsSince1970(utf8: $0) }
    }

    public static func secondsSince1970(utf8 bytes: UnsafeBufferPointer<UInt8>) -> Double? {
        var reader = Reader(bytes: bytes)
        guard let year = reader.digits(4), reader.skip("-"), let month = reader.digits(2), reader.skip("-"),
              let day = reader.digits(2), reader.skip("T") || reader.skip("t"),
              let hour = reader.digits(2), reader.skip(":"), let minute = reader.digits(2), reader.skip(":"),
              let second = reader.digits(2) else { return nil }
        guard (1...12).contains(month), (1...daysIn(month: month, year: year)).contains(day),
              hour < 24, minute < 60, second <= 60 else { return nil }
        var fraction = 0.0
        if reader.skip(".") {
            guard let value = reader.fraction() else { return nil }
            fraction = value
        }
        guard let offset = reader.offset(), reader.atEnd else { return nil }
        let days = CivilTime.days(year: year, month: month, day: day)
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offset
        return Double(seconds) + fraction
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    private struct Reader {
        let bytes: UnsafeBufferPointer<UInt8>
        var position = 0

        var atEnd: Bool { position == bytes.count }

        mutating func skip(_ character: Unicode.Scalar) -> Bool {
            guard position < bytes.count, bytes[position] == UInt8(ascii: character) else { return false }
            position += 1
            return true
        }

        /// Exactly `count` ASCII digits as a number.
        mutating func digits(_ count: Int) -> Int? {
            guard bytes.count - position >= count else { return nil }
            var value = 0
            for _ in 0..<count {
                let digit = Int(bytes[position]) - 48
                guard (0...9).contains(digit) else { return nil }
                value = value * 10 + digit
                position += 1
            }
            return value
        }

        /// At least one digit after the point; digits past nanoseconds are read and dropped.
        mutating func fraction() -> Double? {
            var value = 0, scale = 1, count = 0
            while position < bytes.count, (48...57).contains(bytes[position]) {
                if count < 9 { value = value * 10 + Int(bytes[position]) - 48; scale *= 10 }
                count += 1
                position += 1
            }
            return count == 0 ? nil : Double(value) / Double(scale)
        }

        /// The offset east of UTC in seconds (what to subtract), or nil when there is none.
        mutating func offset() -> Int? {
            if skip("Z") || skip("z") { return 0 }
            let sign: Int
            if skip("+") { sign = 1 } else if skip("-") { sign = -1 } else { return nil }
            guard let hours = digits(2) else { return nil }
            _ = skip(":")
            guard let minutes = digits(2), hours < 24, minutes < 60 else { return nil }
            return sign * (hours * 3600 + minutes * 60)
        }
    }
}
