import Foundation

/// Readable URL slugs: "Café crème: a story!" → "cafe-creme-a-story".
public enum Slug {
    /// Letters that do not decompose into a base letter plus accent.
    private static let foldings: [Character: String] = [
        "ß": "ss", "æ": "ae", "œ": "oe", "ø": "o", "ł": "l", "đ": "d", "ð": "d", "þ": "th", "ı": "i",
    ]

    /// Lowercases, folds accents, keeps letters and digits (any script), turns everything else
    /// into single hyphens and trims them from the ends. Apostrophes vanish ("don't" → "dont").
    public static func make(_ text: String) -> String {
        if let ascii = asciiSlug(text) { return ascii }
        let folded = text.lowercased().folding(options: [.diacriticInsensitive, .widthInsensitive], locale: nil)
        var slug = ""
        var pendingHyphen = false
        for character in folded {
            if character == "'" || character == "’" { continue }
            let piece: String
            if let replacement = foldings[character] {
                piece = replacement
            } else if character.isLetter || character.isNumber {
                piece = String(character)
            } else {
                pendingHyphen = !slug.isEmpty
                continue
            }
            if pendingHyphen { slug += "-"; pendingHyphen = false }
            slug += piece
        }
        return slug
    }

    /// The common case without Unicode folding (which goes through ICU and is slow).
    private static func asciiSlug(_ text: String) -> String? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var pendingHyphen = false
        for byte in text.utf8 {
            guard byte < 128 else { return nil }
            if byte == UInt8(ascii: "'") { continue }
            let lower = (65...90).contains(byte) ? byte + 32 : byte
            if (97...122).contains(lower) || (48...57).contains(lower) {
                if pendingHyphen { bytes.append(UInt8(ascii: "-")); pendingHyphen = false }
                bytes.append(lower)
            } else {
                pendingHyphen = !bytes.isEmpty
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
