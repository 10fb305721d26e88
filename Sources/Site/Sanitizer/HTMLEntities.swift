/// Character references in text and attribute values: numeric ones, and the named ones that
/// fediverse software actually emits. An unknown name stays as written (and is escaped on output).
enum HTMLEntities {
    static let named: [String: String] = [
        "amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": "\u{A0}", "hellip": "…",
        "mdash": "—", "ndash": "–", "lsquo": "‘", "rsquo": "’", "ldquo": "“", "rdquo": "”", "laquo": "«",
        "raquo": "»", "copy": "©", "reg": "®", "trade": "™", "middot": "·", "bull": "•", "euro": "€", "times": "×",
        "shy": "\u{AD}", "zwj": "\u{200D}", "zwnj": "\u{200C}",
    ]

    static func decode(_ bytes: ArraySlice<UInt8>) -> String {
        guard bytes.contains(UInt8(ascii: "&")) else { return String(decoding: bytes, as: UTF8.self) }
        var output = ""
        var index = bytes.startIndex
        var runStart = index
        while index < bytes.endIndex {
            guard bytes[index] == UInt8(ascii: "&"), let (text, end) = reference(bytes, at: index) else {
                index += 1
                continue
            }
            output += String(decoding: bytes[runStart..<index], as: UTF8.self)
            output += text
            index = end
            runStart = end
        }
        output += String(decoding: bytes[runStart..<bytes.endIndex], as: UTF8.self)
        return output
    }

    /// The reference starting at `start` ("&"), and where it ends (after the optional ";").
    private static func reference(_ bytes: ArraySlice<UInt8>, at start: Int) -> (String, Int)? {
        var cursor = start + 1
        if cursor < bytes.endIndex, bytes[cursor] == UInt8(ascii: "#") {
            cursor += 1
            let hex = cursor < bytes.endIndex && (bytes[cursor] | 0x20) == UInt8(ascii: "x")
            if hex { cursor += 1 }
            let digitsStart = cursor
            var value: UInt32 = 0
            while cursor < bytes.endIndex, cursor - digitsStart < 8,
                  let digit = hexValue(bytes[cursor]), hex || digit < 10 {
                value = value * (hex ? 16 : 10) + UInt32(digit)
                cursor += 1
            }
            guard cursor > digitsStart else { return nil }
            if cursor < bytes.endIndex, bytes[cursor] == UInt8(ascii: ";") { cursor += 1 }
            // NUL, surrogates and out-of-range values become U+FFFD, as browsers do.
            let scalar = Unicode.Scalar(value).flatMap { value == 0 ? nil : $0 } ?? "\u{FFFD}"
            return (String(Character(scalar)), cursor)
        }
        let nameStart = cursor
        while cursor < bytes.endIndex, cursor - nameStart < 10, HTMLTokenizer.isLetter(bytes[cursor]) { cursor += 1 }
        guard cursor < bytes.endIndex, bytes[cursor] == UInt8(ascii: ";"),
              let text = named[String(decoding: bytes[nameStart..<cursor], as: UTF8.self)] else { return nil }
        return (text, cursor + 1)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 48...57: return byte - 48
        case 97...102: return byte - 87
        case 65...70: return byte - 55
        default: return nil
        }
    }
}
