import Foundation

/// Decides whether a request for a post URL wants the ActivityPub `Article` or the HTML page.
///
/// ActivityPub is chosen when `application/activity+json` or `application/ld+json` (with the
/// ActivityStreams profile, or none) has a quality above zero that is at least that of HTML;
/// `*/*` alone, a browser's Accept, or no Accept header means HTML.
public enum ContentNegotiation {
    public static func wantsActivityJSON(accept: String?) -> Bool {
        guard let accept, !accept.isEmpty, mentionsJSON(accept) else { return false }
        // On UTF-8 bytes: the Foundation version (split, trim, lowercase per range) was 15 % of a
        // server's samples under a stampede of Article fetches, run up to three times a request.
        var activity = 0.0
        var html = 0.0
        for range in accept.utf8.split(separator: UInt8(ascii: ",")) {
            let parts = range.split(separator: UInt8(ascii: ";")).map(trimmed)
            guard let type = parts.first else { continue }
            var quality = 1.0
            var profile: Substring.UTF8View?
            for whole in parts.dropFirst() {
                // As `split(separator: "=", maxSplits: 1)` read it: leading `=` skipped, both sides
                // present, else ignored.
                let parameter = whole.drop { $0 == UInt8(ascii: "=") }
                guard let equals = parameter.firstIndex(of: UInt8(ascii: "=")),
                      parameter.index(after: equals) != parameter.endIndex else { continue }
                let name = trimmed(parameter[..<equals])
                let value = trimmed(parameter[parameter.index(after: equals)...])
                if equalsLowercased(name, "q") {
                    quality = Double(String(decoding: value, as: UTF8.self)) ?? 0
                } else if equalsLowercased(name, "profile") {
                    profile = unquoted(value)
                }
            }
            if equalsLowercased(type, "application/activity+json") {
                activity = max(activity, quality)
            } else if equalsLowercased(type, "application/ld+json"),
                      profile.map({ $0.split(separator: UInt8(ascii: " ")).contains { $0.elementsEqual("https://www.w3.org/ns/activitystreams".utf8) } }) ?? true {
                activity = max(activity, quality)
            } else if equalsLowercased(type, "text/html") || equalsLowercased(type, "application/xhtml+xml") {
                html = max(html, quality)
            }
        }
        return activity > 0 && activity >= html
    }

    private static func trimmed(_ bytes: Substring.UTF8View) -> Substring.UTF8View {
        var bytes = bytes
        while let first = bytes.first, first == 0x20 || first == 0x09 { bytes.removeFirst() }
        while let last = bytes.last, last == 0x20 || last == 0x09 { bytes.removeLast() }
        return bytes
    }

    /// The value without the double quotes around it (or at either end).
    private static func unquoted(_ bytes: Substring.UTF8View) -> Substring.UTF8View {
        var bytes = bytes
        while bytes.first == UInt8(ascii: "\"") { bytes.removeFirst() }
        while bytes.last == UInt8(ascii: "\"") { bytes.removeLast() }
        return bytes
    }

    /// ASCII case-insensitive comparison with a lowercase literal.
    private static func equalsLowercased(_ bytes: Substring.UTF8View, _ literal: StaticString) -> Bool {
        guard bytes.count == literal.utf8CodeUnitCount else { return false }
        var index = 0
        for byte in bytes {
            let lower = (0x41...0x5A).contains(byte) ? byte | 0x20 : byte
            guard lower == literal.utf8Start[index] else { return false }
            index += 1
        }
        return true
    }

    /// Browsers never ask for JSON; checking the bytes for "json" first keeps their requests
    /// (the most frequent) away from the parsing below.
    private static func mentionsJSON(_ accept: String) -> Bool {
        var matched = 0
        let needle: [UInt8] = Array("json".utf8)
        for byte in accept.utf8 {
            let lower = byte | 0x20
            matched = lower == needle[matched] ? matched + 1 : (lower == needle[0] ? 1 : 0)
            if matched == needle.count { return true }
        }
        return false
    }
}
