/// Words or phrases to look for in comments (`comments.hold` and `comments.drop` in
/// `lectern.yml`): matched case-insensitively on whole words, so `spam` does not catch `spammer`
/// and `cheap pills` needs both words in a row.
public struct KeywordFilter: Sendable, Equatable {
    public let phrases: [[String]]

    public init(_ phrases: [String]) {
        self.phrases = phrases.map(Self.words).filter { !$0.isEmpty }
    }

    public var isEmpty: Bool { phrases.isEmpty }

    /// The first phrase found in `text`, as written in the configuration's words.
    public func match(in text: String) -> String? {
        guard !phrases.isEmpty else { return nil }
        let words = Self.words(text)
        for phrase in phrases where words.count >= phrase.count {
            for start in 0...(words.count - phrase.count) where words[start..<(start + phrase.count)].elementsEqual(phrase) {
                return phrase.joined(separator: " ")
            }
        }
        return nil
    }

    /// Lower-cased runs of letters and digits.
    static func words(_ text: String) -> [String] {
        text.lowercased().split(whereSeparator: { !($0.isLetter || $0.isNumber) }).map(String.init)
    }
}
