/// A moment's fields on the proleptic Gregorian calendar, by arithmetic (Howard Hinnant's
/// civil-from-days and its inverse), with English names: what HTTP dates, feeds and pages print,
/// without `DateFormatter` and the ICU data it loads.
///
/// ```swift
/// let time = CivilTime(secondsSince1970: 1_741_167_000)  // 2025-03-05 09:30:00, a Wednesday
/// CivilTime.weekdayNames[time.weekday]                  // "Wed"
/// ```
public struct CivilTime: Sendable, Equatable {
    public let year, month, day, hour, minute, second: Int
    /// 0 is Sunday.
    public let weekday: Int

    public static let monthNames = ["January", "February", "March", "April", "May", "June", "July", "August",
                                    "September", "October", "November", "December"]
    public static let weekdayNames = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]

    /// The fields of the second that holds `milliseconds` (rounded down, before 1970 too).
    public init(millisecondsSince1970 milliseconds: Int) {
        self.init(secondsSince1970: Self.floorDivision(milliseconds, 1000))
    }

    public init(secondsSince1970 total: Int) {
        let days = Self.floorDivision(total, 86_400)
        let inDay = total - days * 86_400
        (hour, minute, second) = (inDay / 3600, inDay % 3600 / 60, inDay % 60)
        weekday = ((days + 4) % 7 + 7) % 7  // 1970-01-01 was a Thursday
        // Eras of 400 years, each starting on 1 March.
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthFromMarch = (5 * dayOfYear + 2) / 153
        day = dayOfYear - (153 * monthFromMarch + 2) / 5 + 1
        month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9
        year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
    }

    /// Days from 1970-01-01 to the given day (negative before it).
    public static func days(year: Int, month: Int, day: Int) -> Int {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    private static func floorDivision(_ value: Int, _ divisor: Int) -> Int {
        value >= 0 ? value / divisor : (value - divisor + 1) / divisor
    }

    /// "05", "12".
    public static func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : String(value) }

    /// "09:30:00".
    public var clock: String { "\(Self.twoDigits(hour)):\(Self.twoDigits(minute)):\(Self.twoDigits(second))" }

    /// "Wed, 05 Mar 2025 09:30:00 GMT" (IMF-fixdate, RFC 822 dates), for a time in UTC.
    public var imfFixdate: String {
        "\(Self.weekdayNames[weekday]), \(Self.twoDigits(day)) \(Self.monthNames[month - 1].prefix(3)) \(year) \(clock) GMT"
    }
}
