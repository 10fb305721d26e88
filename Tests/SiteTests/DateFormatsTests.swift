import Dates
import Foundation
import Testing
@testable import Site

/// The calendar arithmetic prints what `DateFormatter` (ICU) prints, for every pattern, zone and
/// date pages, feeds and HTTP headers show.
@Suite struct DateFormatsTests {
    private static let zones = ["UTC", "Europe/Paris", "America/New_York", "Asia/Kolkata", "Australia/Lord_Howe",
                                "Pacific/Chatham", "America/St_Johns", "Pacific/Kiritimati", "Pacific/Pago_Pago"]

    private func expected(_ pattern: String, _ zone: TimeZone, _ date: Date) -> String {
        DateFormats.formatter(pattern, zone).string(from: date)
    }

    private func check(_ dates: [Date]) {
        let utc = TimeZone(identifier: "UTC")!
        for name in Self.zones {
            let zone = TimeZone(identifier: name)!
            let formats = DateFormats(timeZone: zone)
            let human = DateFormats.formatter("d MMMM yyyy", zone)
            let iso = DateFormats.formatter("yyyy-MM-dd'T'HH:mm:ss'Z'", utc)
            let rfc = DateFormats.formatter("EEE, dd MMM yyyy HH:mm:ss 'GMT'", utc)
            for date in dates {
                #expect(formats.human(date) == human.string(from: date), "\(name) \(date.timeIntervalSince1970)")
                #expect(formats.iso8601(date) == iso.string(from: date), "\(date.timeIntervalSince1970)")
                #expect(formats.rfc822(date) == rfc.string(from: date), "\(date.timeIntervalSince1970)")
            }
        }
    }

    @Test func randomDatesAcrossFourCenturiesMatchTheFormatter() {
        var generator = SystemRandomNumberGenerator()
        // 1583 to 9999, with fractions of a second down to the microsecond (comments' dates).
        let dates = (0..<400).map { _ in
            Date(timeIntervalSince1970: Double(Int.random(in: -12_212_553_600...253_402_300_798, using: &generator))
                 + Double(Int.random(in: 0...999_999, using: &generator)) / 1_000_000)
        }
        check(dates)
    }

    @Test func edgesMatchTheFormatter() {
        let gregorian = { (y: Int, m: Int, d: Int, h: Int, min: Int, s: Int) -> Date in
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = TimeZone(identifier: "UTC")!
            return calendar.date(from: DateComponents(year: y, month: m, day: d, hour: h, minute: min, second: s))!
        }
        var dates = [Date(timeIntervalSince1970: 0), Date(timeIntervalSince1970: -1), Date(timeIntervalSince1970: -0.5),
                     Date(timeIntervalSince1970: 86_399.999), Date(timeIntervalSince1970: 1_700_000_000.5),
                     // within half a millisecond of the next second: the formatter rounds up
                     Date(timeIntervalSince1970: 59.9996), Date(timeIntervalSince1970: -0.0003),
                     Date(timeIntervalSince1970: 86_399.9995), Date(timeIntervalSince1970: 1_735_689_599.99951),
                     gregorian(2000, 2, 29, 12, 0, 0), gregorian(1900, 2, 28, 23, 59, 59), gregorian(2100, 3, 1, 0, 0, 0),
                     gregorian(1583, 1, 1, 0, 0, 0), gregorian(1583, 1, 1, 12, 0, 0), gregorian(9999, 12, 31, 23, 59, 59),
                     gregorian(2024, 12, 31, 23, 30, 0), gregorian(2025, 1, 1, 0, 30, 0)]
        // Around daylight-saving changes (Europe, America, Lord Howe's half hour).
        for (y, m, d) in [(2025, 3, 30), (2025, 10, 26), (2025, 3, 9), (2025, 11, 2), (2025, 4, 6), (2025, 10, 5)] {
            for hour in stride(from: -4, through: 28, by: 1) { dates.append(gregorian(y, m, d, 0, 0, 0).addingTimeInterval(Double(hour) * 1800)) }
        }
        // Outside the arithmetic's range, the formatter itself answers.
        dates += [gregorian(1582, 10, 15, 0, 0, 0), gregorian(1000, 6, 1, 0, 0, 0), gregorian(1582, 12, 31, 23, 59, 59)]
        check(dates)
    }

    @Test func namesAreEnglishWhateverTheZone() {
        let formats = DateFormats(timeZone: TimeZone(identifier: "Asia/Tokyo")!)
        let date = Date(timeIntervalSince1970: 1_741_167_000)  // 2025-03-05T09:30:00Z
        #expect(formats.human(date) == "5 March 2025")
        #expect(formats.iso8601(date) == "2025-03-05T09:30:00Z")
        #expect(formats.rfc822(date) == "Wed, 05 Mar 2025 09:30:00 GMT")
    }

    @Test func daysAndFieldsAreInverses() {
        for days in stride(from: -800_000, through: 3_000_000, by: 997) {
            let time = CivilTime(secondsSince1970: days * 86_400 + 3_723)
            #expect(CivilTime.days(year: time.year, month: time.month, day: time.day) == days)
            #expect((time.hour, time.minute, time.second) == (1, 2, 3))
        }
    }
}
