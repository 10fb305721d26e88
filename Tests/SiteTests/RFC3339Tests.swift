import Dates
import Foundation
import Testing

/// The timestamps of incoming notes read as `ISO8601DateFormatter` reads them (the oracle), and
/// what it would guess at (30 February, trailing text) refused.
@Suite struct RFC3339Tests {
    private func formatter(fraction: Bool, zone: TimeZone) -> ISO8601DateFormatter {
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = zone
        if fraction { formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds] }
        return formatter
    }

    @Test func randomTimestampsInManyZonesReadAsTheFormatterReadsThem() throws {
        var generator = SystemRandomNumberGenerator()
        let zones = ["UTC", "Europe/Paris", "America/St_Johns", "Asia/Kolkata", "Pacific/Chatham", "Pacific/Pago_Pago"]
        for name in zones {
            let zone = try #require(TimeZone(identifier: name))
            for fraction in [false, true] {
                let formatter = formatter(fraction: fraction, zone: zone)
                for _ in 0..<300 {
                    // 1972 (before it, zones' local mean times have offsets in seconds, which no
                    // timestamp carries) to 9999, milliseconds when the text has a fraction.
                    let seconds = Double(Int.random(in: 63_072_000...253_402_214_400, using: &generator))
                        + (fraction ? Double(Int.random(in: 0...999, using: &generator)) / 1000 : 0)
                    let text = formatter.string(from: Date(timeIntervalSince1970: seconds))
                    let oracle = try #require(formatter.date(from: text)).timeIntervalSince1970
                    let ours = try #require(RFC3339.secondsSince1970(text), "\(text)")
                    #expect(abs(ours - oracle) < 0.0005, "\(text): \(ours) vs \(oracle)")
                }
            }
        }
    }

    @Test func shapesRealServersSend() {
        let expected = 1_741_167_000.0  // 2025-03-05T09:30:00Z
        #expect(RFC3339.secondsSince1970("2025-03-05T09:30:00Z") == expected)              // Mastodon, GoToSocial
        #expect(RFC3339.secondsSince1970("2025-03-05T09:30:00.000Z") == expected)          // Misskey
        #expect(RFC3339.secondsSince1970("2025-03-05T09:30:00.250000Z") == expected + 0.25)  // Pleroma
        #expect(RFC3339.secondsSince1970("2025-03-05T10:30:00+01:00") == expected)
        #expect(RFC3339.secondsSince1970("2025-03-05T04:00:00-05:30") == expected)
        #expect(RFC3339.secondsSince1970("2025-03-05T10:30:00+0100") == expected)
        #expect(RFC3339.secondsSince1970("2025-03-05t09:30:00z") == expected)
        #expect(RFC3339.secondsSince1970("2025-03-05T09:30:00.123456789123Z") == expected + 0.123456789)
        #expect(RFC3339.secondsSince1970("1969-12-31T23:59:59Z") == -1)
        #expect(RFC3339.secondsSince1970("2024-02-29T00:00:00Z") == 1_709_164_800)
        #expect(RFC3339.secondsSince1970("2016-12-31T23:59:60Z") == 1_483_228_800)  // a leap second
    }

    @Test func anythingElseIsRefused() {
        for text in ["", "2025-03-05", "2025-03-05T09:30Z", "2025-03-05T09:30:00", "2025-03-05 09:30:00Z",
                     "2025-02-30T09:30:00Z", "2023-02-29T00:00:00Z", "2025-13-05T09:30:00Z", "2025-00-05T09:30:00Z",
                     "2025-03-00T09:30:00Z", "2025-03-05T24:00:00Z", "2025-03-05T09:60:00Z", "2025-03-05T09:30:61Z",
                     "2025-03-05T09:30:00.Z", "2025-03-05T09:30:00+24:00", "2025-03-05T09:30:00+01:60",
                     "2025-03-05T09:30:00+1", "2025-03-05T09:30:00Z trailing", "+2025-03-05T09:30:00Z",
                     "25-03-05T09:30:00Z", "2025-3-5T09:30:00Z", "２０２５-03-05T09:30:00Z", "2025-03-05T09:30:00UTC"] {
            #expect(RFC3339.secondsSince1970(text) == nil, "\(text)")
        }
    }
}
