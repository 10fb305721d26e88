import BlogModel
import Foundation
import Site

/// Posts that form a series by their titles ("Ownership in Rust, Part 1: Moves", "… Part 2 …",
/// "Building a Parser (part 3)"): the series name and each post's number, for Lectern's
/// `series:` and `seriesOrder:`. A name needs at least two parts to count as a series.
enum SeriesDetector {
    struct Membership: Equatable {
        var name: String
        var order: Int
    }

    static func parse(_ title: String) -> Membership? {
        let pattern = #"^(.+?)[\s,:;—–-]*\(?\b(?:[Pp]art|PART|[Pp]t\.?)\s+(\d{1,3})\b\)?(?:\s*(?:of\s+\d+)?\s*[:—–-]?.*)?$"#
        guard let match = Patterns.matches(pattern, in: title).first, let order = Int(match[2]) else { return nil }
        let name = match[1].trimmingCharacters(in: CharacterSet(charactersIn: " ,:;—–-("))
        return name.isEmpty ? nil : Membership(name: name, order: order)
    }

    /// For each title, its membership when at least one other title shares the series name.
    static func detect(_ titles: [String]) -> [Membership?] {
        let parsed = titles.map(parse)
        var counts: [String: Int] = [:]
        for membership in parsed.compactMap({ $0 }) { counts[Slug.make(membership.name), default: 0] += 1 }
        return parsed.map { membership in
            guard let membership, counts[Slug.make(membership.name), default: 0] >= 2 else { return nil }
            return membership
        }
    }
}
