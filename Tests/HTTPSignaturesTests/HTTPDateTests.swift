import Dates
import Foundation
import Testing
@testable import HTTPSignatures

@Suite struct HTTPDateTests {
    /// RFC 9110 §5.6.7's example, in all three forms it lists.
    @Test func rfc9110Example() {
        let expected = Date(timeIntervalSince1970: 784_111_777)
        #expect(HTTPDate.format(expected) == "Sun, 06 Nov 1994 08:49:37 GMT")
        #expect(HTTPDate.parse("Sun, 06 Nov 1994 08:49:37 GMT") == expected)
        #expect(HTTPDate.parse("Sunday, 06-Nov-94 08:49:37 GMT") == expected)
        #expect(HTTPDate.parse("Sun Nov  6 08:49:37 1994") == expected)
    }

    @Test func roundTripsAcrossCenturiesAndLeapDays() {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        var seconds: TimeInterval = -2_208_988_800  // 1900-01-01
        while seconds < 4_102_444_800 {             // 2100-01-01
            let date = Date(timeIntervalSince1970: seconds)
            #expect(HTTPDate.format(date) == formatter.string(from: date))
            #expect(HTTPDate.parse(HTTPDate.format(date)) == date)
            seconds += 86_400 * 37 + 3_607  // every ~37 days, at shifting times of day
        }
        #expect(HTTPDate.format(Date(timeIntervalSince1970: 951_782_400)) == "Tue, 29 Feb 2000 00:00:00 GMT")
    }

    @Test(arguments: ["", "Sun, 06 Foo 1994 08:49:37 GMT", "Sun, 32 Nov 1994 08:49:37 GMT",
                      "Sun, 06 Nov 1994 25:49:37 GMT", "Sun, 06 Nov 19x4 08:49:37 GMT"])
    func rejects(text: String) {
        #expect(HTTPDate.parse(text) == nil)
    }
}
