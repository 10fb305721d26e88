import Foundation

/// Dates as people and generators write them: front matter (`2025-03-01`, `2025-03-01 09:30`,
/// `2025-03-01T09:30:00.5+01:00`), WordPress's `2019-05-14 09:30:00`, Jekyll's
/// `2019-05-14 09:30:00 +0200`, and `… UTC`. Seconds, a fraction (`.` or `,`) and an offset
/// (`Z`, `±hh:mm`, `±hhmm`, `±hh`, `UTC`, `GMT`, after spaces or not) are optional; without an
/// offset the time is in `timeZone`. By UTF-8 byte: every post of every build is read through it.
/// A day that does not exist (30 February) is nil, as is anything after the date that is not
/// one of these.
public enum WrittenDate {
    public static func parse(_ text: String, timeZone: TimeZone) -> Date? {
        let bytes = Array(text.utf8)
        var index = 0, end = bytes.count
        while index < end, isSpace(bytes[index]) { index += 1 }
        while end > index, isSpace(bytes[end - 1]) { end -= 1 }
        func number(_ count: Int) -> Int? {
            guard index + count <= end else { return nil }
            var value = 0
            for byte in bytes[index..<(index + count)] {
                guard byte >= 48, byte <= 57 else { return nil }
                value = value * 10 + Int(byte - 48)
            }
            index += count
            return value
        }
        func take(_ character: Unicode.Scalar) -> Bool {
            guard index < end, bytes[index] == UInt8(ascii: character) else { return false }
            index += 1
            return true
        }
        guard let year = number(4), take("-"), let month = number(2), take("-"), let day = number(2) else { return nil }
        var (hour, minute, second) = (0, 0, 0)
        var zone = timeZone
        if index < end {
            guard take("T") || take("t") || take(" "), let h = number(2), take(":"), let m = number(2) else { return nil }
            (hour, minute) = (h, m)
            if take(":") {
                guard let s = number(2) else { return nil }
                second = s
                if take(".") || take(",") { while index < end, bytes[index] >= 48, bytes[index] <= 57 { index += 1 } }
            }
            while take(" ") {}
            if take("Z") || take("z") {
                zone = TimeZone(identifier: "UTC")!
            } else if index < end, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                let sign = bytes[index] == UInt8(ascii: "+") ? 1 : -1
                index += 1
                guard let hours = number(2) else { return nil }
                _ = take(":")
                let minutes = number(2) ?? 0
                guard let offset = TimeZone(secondsFromGMT: sign * (hours * 3600 + minutes * 60)) else { return nil }
                zone = offset
            } else if index < end {
                let rest = String(decoding: bytes[index..<end], as: UTF8.self).uppercased()
                guard rest == "UTC" || rest == "GMT" else { return nil }
                zone = TimeZone(identifier: "UTC")!
                index = end
            }
        }
        guard index == end, (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second <= 60 else {
            return nil
        }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        guard let date = calendar.date(from: DateComponents(year: year, month: month, day: day, hour: hour, minute: minute, second: second)),
              calendar.component(.day, from: date) == day else { return nil }  // rejects 2025-02-30
        return date
    }

    private static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }
}
