import Foundation

/// Decides whether a request for a post URL wants the ActivityPub `Article` or the HTML page.
///
/// ActivityPub is chosen when `application/activity+json` or `application/ld+json` (with the
/// ActivityStreams profile, or none) has a quality above zero that is at least that of HTML;
/// `*/*` alone, a browser's Accept, or no Accept header means HTML.
public enum ContentNegotiation {
    public static func wantsActivityJSON(accept: String?) -> Bool {
        guard let accept, !accept.isEmpty, mentionsJSON(accept) else { return false }
        var activity = 0.0
        var html = 0.0
        for range in accept.split(separator: ",") {
            let parts = range.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            guard let type = parts.first?.lowercased() else { continue }
            var quality = 1.0
            var profile: String?
            for parameter in parts.dropFirst() {
                let pair = parameter.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                guard pair.count == 2 else { continue }
                switch pair[0].lowercased() {
                case "q": quality = Double(pair[1]) ?? 0
                case "profile": profile = pair[1].trimmingCharacters(in: CharacterSet(charactersIn: "\""))
                default: break
                }
            }
            switch type {
            case "application/activity+json":
                activity = max(activity, quality)
            case "application/ld+json" where profile == nil || profile!.split(separator: " ").contains("https://www.w3.org/ns/activitystreams"):
                activity = max(activity, quality)
            case "text/html", "application/xhtml+xml":
                html = max(html, quality)
            default:
                break
            }
        }
        return activity > 0 && activity >= html
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
