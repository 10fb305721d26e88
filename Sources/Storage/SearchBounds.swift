import Foundation

/// What one search may ask of the index, and a query held to it before it runs.
///
/// FTS5 reads one list per term; a prefix shorter than the shortest indexed one (two letters,
/// migration 0006) merges the list of every word that starts so, and snippets repeat that work
/// per result: 26 one-letter prefixes OR'd took a second of one core on 5,000 posts. So a query
/// keeps at most `maximumTerms` terms (the rest is cut off, as a long query is cut to
/// `SearchIndex.maximumQueryLength`), a prefix needs `shortestPrefix` letters or the query is not run,
/// and what runs stops after `cpuLimit` of its thread's CPU time (`Store.search`).
public enum SearchBounds {
    public static let maximumTerms = 8
    public static let shortestPrefix = 2
    public static let cpuLimit: Duration = .milliseconds(100)

    /// The query to run, cut after its last allowed term, or why none runs.
    enum Bounded: Equatable {
        case whole(String)
        case cut(String)
        case refused(SearchLimit)
    }

    /// Reads `query` as FTS5 does, to the extent that decides cost: words (runs of letters and
    /// digits, in or out of quotes), the `*` after one, and, outside quotes, the operators
    /// `AND OR NOT NEAR` and column names before `:`, which are not terms. A query FTS5 would
    /// refuse as syntax is bounded the same way; its words are then searched instead.
    static func bound(_ query: String) -> Bounded {
        let scalars = Array(query.unicodeScalars)
        var index = 0
        var quoted = false
        var terms = 0
        /// Where the last term ended (past its `*`, if one followed), and its length in letters.
        var lastTerm: (end: Int, letters: Int)?
        while index < scalars.count {
            let scalar = scalars[index]
            if scalar == "\"" {
                quoted.toggle()
                index += 1
            } else if scalar == "*" {
                // The prefix mark applies to the term just before it (quotes and spaces between).
                if let term = lastTerm, scalars[term.end..<index].allSatisfy({ $0 == "\"" || $0.properties.isWhitespace }) {
                    guard term.letters >= shortestPrefix else { return .refused(.prefixTooShort(minimum: shortestPrefix)) }
                    lastTerm = (index + 1, term.letters)
                }
                index += 1
            } else if isWordScalar(scalar) {
                let start = index
                var letters = 0
                while index < scalars.count, isWordScalar(scalars[index]) {
                    if !isMark(scalars[index]) { letters += 1 }
                    index += 1
                }
                let word = String(String.UnicodeScalarView(scalars[start..<index]))
                if !quoted, operators.contains(word) { continue }
                if !quoted, scalars[index...].first(where: { !$0.properties.isWhitespace }) == ":" { continue }
                terms += 1
                if terms > maximumTerms, let kept = lastTerm {
                    var text = String(String.UnicodeScalarView(scalars[..<kept.end]))
                    // A phrase cut in the middle is closed where it was cut.
                    if scalars[..<kept.end].filter({ $0 == "\"" }).count % 2 == 1 { text += "\"" }
                    return .cut(text)
                }
                lastTerm = (index, letters)
            } else {
                index += 1
            }
        }
        return .whole(query)
    }

    private static let operators: Set<String> = ["AND", "OR", "NOT", "NEAR"]

    /// Letters, digits, private-use characters and marks continue a word, as in FTS5's
    /// `unicode61` tokenizer; everything else separates words.
    private static func isWordScalar(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
             .decimalNumber, .letterNumber, .otherNumber, .privateUse,
             .nonspacingMark, .spacingMark, .enclosingMark:
            true
        default:
            false
        }
    }

    /// Marks do not count as letters: `remove_diacritics` folds them away.
    private static func isMark(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark: true
        default: false
        }
    }
}

/// Why a search did less than it was asked.
public enum SearchLimit: Sendable, Equatable {
    /// Only the first `kept` terms were searched.
    case termsCut(kept: Int)
    /// A prefix was too short: nothing was searched.
    case prefixTooShort(minimum: Int)
    /// The search used up its CPU time and was stopped: nothing to show.
    case stopped(after: Duration)

    /// Whether any results were found at all.
    public var searched: Bool {
        if case .termsCut = self { return true }
        return false
    }

    /// A sentence for the reader.
    public var message: String {
        switch self {
        case .termsCut(let kept):
            "That query has more words than a search takes: only its first \(kept) words were searched."
        case .prefixTooShort(let minimum):
            "A prefix* needs at least \(minimum) letters; one letter matches almost every word. Nothing was searched."
        case .stopped:
            "That search asked too much and was stopped; try fewer words or longer prefixes."
        }
    }
}
