import Foundation

/// Dates as writers type them in front matter, and as feeds and HTTP print them.
package enum DateParsing {
    /// Accepts `2025-03-01`, `2025-03-01 09:30`, `2025-03-01T09:30:00`, with optional seconds,
    /// fraction and `Z`/`±hh:mm` offset. Times without an offset are in the site's time zone.
    package static func parse(_ text: String, timeZone: TimeZone) -> Date? {
        let text = text.trimmingCharacters(in: .whitespaces)
        let scalars = Array(text.utf8)
        func number(_ start: Int, _ count: Int) -> Int? {
            guard start + count <= scalars.count else { return nil }
            var value = 0
            for byte in scalars[start..<(start + count)] {
                guard byte >= 48, byte <= 57 else { return nil }
                value = value * 10 + Int(byte - 48)
            }
            return value
        }
        guard scalars.count >= 10, scalars[4] == 45, scalars[7] == 45,
              let year = number(0, 4), let month = number(5, 2), let day = number(8, 2) else { return nil }
        var parts = DateComponents(year: year, month: month, day: day, hour: 0, minute: 0, second: 0)
        var zone = timeZone
        var index = 10
        if index < scalars.count {
            guard scalars[index] == 84 || scalars[index] == 116 || scalars[index] == 32,
                  let hour = number(index + 1, 2), scalars.count > index + 3, scalars[index + 3] == 58,
                  let minute = number(index + 4, 2) else { return nil }
            parts.hour = hour
            parts.minute = minute
            index += 6
            if index < scalars.count, scalars[index] == 58 {
                guard let second = number(index + 1, 2) else { return nil }
                parts.second = second
                index += 3
                if index < scalars.count, scalars[index] == 46 {  // fraction: ignored
                    index += 1
                    while index < scalars.count, (48...57).contains(scalars[index]) { index += 1 }
                }
            }
            while index < scalars.count, scalars[index] == 32 { index += 1 }
            if index < scalars.count {
                if scalars[index] == 90 || scalars[index] == 122 {  // Z
                    zone = TimeZone(identifier: "UTC")!
                    index += 1
                } else if scalars[index] == 43 || scalars[index] == 45 {
                    let sign = scalars[index] == 43 ? 1 : -1
                    guard let oh = number(index + 1, 2) else { return nil }
                    var cursor = index + 3
                    if cursor < scalars.count, scalars[cursor] == 58 { cursor += 1 }
                    let om = number(cursor, 2) ?? 0
                    if number(cursor, 2) != nil { cursor += 2 }
                    guard let offsetZone = TimeZone(secondsFromGMT: sign * (oh * 3600 + om * 60)) else { return nil }
                    zone = offsetZone
                    index = cursor
                } else {
                    return nil
                }
            }
            guard index == scalars.count else { return nil }
        }
        guard (1...12).contains(month), (1...31).contains(day), (0...23).contains(parts.hour!),
              (0...59).contains(parts.minute!), (0...60).contains(parts.second!) else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        guard let date = calendar.date(from: parts),
              calendar.component(.day, from: date) == day else { return nil }  // rejects 2025-02-30
        return date
    }
}
