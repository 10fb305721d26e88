import Foundation

/// Dates in the forms sources write them: RFC 822 (RSS `pubDate`), RFC 3339 / ISO 8601 (Atom,
/// Ghost, front matter), WordPress's `2019-05-14 09:30:00`, and Unix milliseconds (old Ghost).
/// Times without an offset are read in `timeZone`.
enum DateReading {
    static func parse(_ text: String, timeZone: TimeZone) -> Date? {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty, !trimmed.hasPrefix("0000-00-00") else { return nil }
        if let first = trimmed.first, first.isNumber, trimmed.count >= 10,
           trimmed[trimmed.index(trimmed.startIndex, offsetBy: 4)] == "-" {
            return iso(trimmed, timeZone: timeZone)
        }
        if trimmed.allSatisfy(\.isNumber), let milliseconds = Double(trimmed), trimmed.count >= 12 {
            return Date(timeIntervalSince1970: milliseconds / 1000)
        }
        return rfc822(trimmed, timeZone: timeZone)
    }

    /// `2019-05-14`, `2019-05-14T09:30`, `2019-05-14 09:30:00.000`, with `Z`, `+02:00`, `+0200`
    /// or ` +0200` (Jekyll) after it.
    static func iso(_ text: String, timeZone: TimeZone) -> Date? {
        let characters = Array(text)
        var index = 0
        func number(_ count: Int) -> Int? {
            guard index + count <= characters.count else { return nil }
            let digits = characters[index..<(index + count)]
            guard digits.allSatisfy(\.isNumber), let value = Int(String(digits)) else { return nil }
            index += count
            return value
        }
        func take(_ character: Character) -> Bool {
            guard index < characters.count, characters[index] == character else { return false }
            index += 1
            return true
        }
        guard let year = number(4), take("-"), let month = number(2), take("-"), let day = number(2) else { return nil }
        var parts = DateComponents(year: year, month: month, day: day, hour: 0, minute: 0, second: 0)
        var zone = timeZone
        if index < characters.count, characters[index] == "T" || characters[index] == "t" || characters[index] == " " {
            index += 1
            guard let hour = number(2), take(":"), let minute = number(2) else { return nil }
            parts.hour = hour
            parts.minute = minute
            if take(":") {
                guard let second = number(2) else { return nil }
                parts.second = second
                if take(".") || take(",") { while index < characters.count, characters[index].isNumber { index += 1 } }
            }
            while take(" ") {}
            if take("Z") || take("z") {
                zone = TimeZone(identifier: "UTC")!
            } else if index < characters.count, characters[index] == "+" || characters[index] == "-" {
                let sign = characters[index] == "+" ? 1 : -1
                index += 1
                guard let hours = number(2) else { return nil }
                _ = take(":")
                let minutes = number(2) ?? 0
                guard let offset = TimeZone(secondsFromGMT: sign * (hours * 3600 + minutes * 60)) else { return nil }
                zone = offset
            } else if index < characters.count {
                let rest = String(characters[index...]).trimmingCharacters(in: .whitespaces)
                if ["UTC", "GMT"].contains(rest.uppercased()) { zone = TimeZone(identifier: "UTC")! } else { return nil }
                index = characters.count
            }
        }
        guard index == characters.count, (1...12).contains(month), (1...31).contains(day),
              (0...23).contains(parts.hour!), (0...59).contains(parts.minute!), (0...60).contains(parts.second!) else {
            return nil
        }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        return calendar.date(from: parts)
    }

    private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
    private static let zones: [String: Int] = ["UT": 0, "UTC": 0, "GMT": 0, "Z": 0, "EST": -5, "EDT": -4, "CST": -6,
                                               "CDT": -5, "MST": -7, "MDT": -6, "PST": -8, "PDT": -7, "CET": 1,
                                               "CEST": 2, "BST": 1]

    /// `Tue, 14 May 2019 09:30:00 +0000` and its relaxed forms (no weekday, two-digit year,
    /// no seconds, zone names).
    static func rfc822(_ text: String, timeZone: TimeZone) -> Date? {
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
