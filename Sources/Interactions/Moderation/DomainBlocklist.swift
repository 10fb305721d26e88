import BlogModel
import Foundation
import Storage

/// Shared domain blocklists in Mastodon's CSV export format (`#domain,#severity,#reject_media,
/// #reject_reports,#public_comment,#obfuscate`; older exports have no header): `suspend` blocks the
/// domain (retroactively, like any block), `silence` holds its comments for approval, `noop` is
/// skipped. Lines that are not a domain are reported, not guessed at.
public enum DomainBlocklist {
    public struct Entry: Sendable, Equatable {
        public var domain: String
        public var kind: Block.Kind
        public var comment: String?
    }

    public struct Parsed: Sendable, Equatable {
        public var entries: [Entry] = []
        /// `line N: why`, for lines left out.
        public var skipped: [String] = []
    }

    public static let header = "#domain,#severity,#reject_media,#reject_reports,#public_comment,#obfuscate"

    public static func parse(_ text: String) -> Parsed {
        var parsed = Parsed()
        var columns = ["domain", "severity", "reject_media", "reject_reports", "public_comment", "obfuscate"]
        for (index, raw) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let fields = csvFields(String(raw))
            guard let first = fields.first, !first.isEmpty else { continue }
            if index == 0, first.hasPrefix("#") || first == "domain" {
                columns = fields.map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "#")).lowercased() }
                continue
            }
            func field(_ name: String) -> String? {
                columns.firstIndex(of: name).flatMap { $0 < fields.count ? fields[$0] : nil }.flatMap { $0.isEmpty ? nil : $0 }
            }
            let line = index + 1
            guard let domain = field("domain").map({ $0.lowercased() }), isDomain(domain) else {
                parsed.skipped.append("line \(line): not a domain (\(field("domain") ?? first))")
                continue
            }
            switch (field("severity") ?? "suspend").lowercased() {
            case "suspend": parsed.entries.append(Entry(domain: domain, kind: .domain, comment: field("public_comment")))
            case "silence", "limit": parsed.entries.append(Entry(domain: domain, kind: .silence, comment: field("public_comment")))
            case "noop": parsed.skipped.append("line \(line): \(domain) is noop")
            case let other: parsed.skipped.append("line \(line): unknown severity \(other) for \(domain)")
            }
        }
        return parsed
    }

    /// The domain blocks and silences, in the same format.
    public static func export(_ blocks: [Block]) -> String {
        let rows = blocks.filter { $0.kind != .actor }.sorted { $0.value < $1.value }.map { block in
            [block.value, block.kind == .domain ? "suspend" : "silence", "false", "false", block.reason ?? "", "false"]
                .map(csvField).joined(separator: ",")
        }
        return ([header] + rows).joined(separator: "\n") + "\n"
    }

    /// Mastodon's obfuscated entries (`b*d.example`) are not domains and are refused.
    static func isDomain(_ text: String) -> Bool { DNSName.isValid(Substring(text)) }

    /// One CSV line's fields (RFC 4180 quoting).
    package static func csvFields(_ line: String) -> [String] {
        var fields: [String] = [], current = "", quoted = false
        var characters = line.makeIterator()
        while let character = characters.next() {
            switch character {
            case "\"" where quoted:
                // A doubled quote inside quotes is a quote; a single one closes.
                var lookahead = characters
                if lookahead.next() == "\"" { current.append("\""); characters = lookahead } else { quoted = false }
            case "\"" where current.isEmpty: quoted = true
            case "," where !quoted: fields.append(current.trimmingCharacters(in: .whitespaces)); current = ""
            default: current.append(character)
            }
        }
        fields.append(current.trimmingCharacters(in: .whitespaces))
        return fields
    }

    package static func csvField(_ value: String) -> String {
        value.contains(where: { ",\"\n\r".contains($0) }) ? "\"" + value.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : value
    }
}
