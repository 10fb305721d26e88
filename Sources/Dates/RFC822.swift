import Foundation

/// RFC 822 dates as feeds write them (RSS `pubDate`): `Tue, 14 May 2019 09:30:00 +0000` and its
/// relaxed forms (no weekday, two-digit year, no seconds, zone names). Without a zone the time
/// is in `timeZone`.
public enum RFC822 {
    private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
    private static let zones: [String: Int] = ["UT": 0, "UTC": 0, "GMT": 0, "Z": 0, "EST": -5, "EDT": -4, "CST": -6,
                                               "CDT": -5, "MST": -7, "MDT": -6, "PST": -8, "PDT": -7, "CET": 1,
                                               "CEST": 2, "BST": 1]

    public static func parse(_ text: String, timeZone: TimeZone) -> Date? {
        var words = text.replacingOccurrences(of: ",", with: " ").split(separator: " ").map(String.init)
        if let first = words.first, first.first?.isLetter == true { words.removeFirst() }  // weekday
        guard words.count >= 4, let day = Int(words[0]),
              let month = months.firstIndex(of: String(words[1].lowercased().prefix(3))).map({ $0 + 1 }),
              var year = Int(words[2]) else { return nil }
        if year < 100 { year += year < 50 ? 2000 : 1900 }
        let time = words[3].split(separator: ":").compactMap { Int($0) }
        guard time.count >= 2 else { return nil }
        var zone = timeZone
        if words.count >= 5 {
            let name = words[4]
            if let hours = zones[name.uppercased()] {
                zone = TimeZone(secondsFromGMT: hours * 3600)!
            } else if let sign = name.first, sign == "+" || sign == "-", name.count >= 5,
                      let value = Int(name.dropFirst().replacingOccurrences(of: ":", with: "")) {
                let seconds = (value / 100) * 3600 + (value % 100) * 60
                zone = TimeZone(secondsFromGMT: sign == "+" ? seconds : -seconds) ?? timeZone
            }
        }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        return calendar.date(from: DateComponents(year: year, month: month, day: day, hour: time[0], minute: time[1],
                                                  second: time.count > 2 ? time[2] : 0))
    }
}
