/// Writing text so CommonMark (with GitHub's extensions) shows it as it is.
enum MarkdownEscaping {
    /// Escapes what would become markup mid-line: `\` `` ` `` `*` `[` `]` `~` always, `_` unless
    /// inside a word, `<` before what could start a tag, `&` before what could be a reference,
    /// `|` in table cells. `before` and `after` are the characters around the text, when known.
    static func text(_ text: String, before: Character?, after: Character?, inTable: Bool) -> String {
        let characters = Array(text)
        var output = ""
        output.reserveCapacity(text.utf8.count + 8)
        for (index, character) in characters.enumerated() {
            let previous = index > 0 ? characters[index - 1] : before
            let next = index + 1 < characters.count ? characters[index + 1] : after
            switch character {
            case "\\", "`", "*", "[", "]", "~":
                output += "\\"
            case "_":
                if !(isWordCharacter(previous) && isWordCharacter(next)) { output += "\\" }
            case "<":
                if let next, next.isLetter || next == "/" || next == "!" || next == "?" { output += "\\" }
                else if next == nil { output += "\\" }
            case "&":
                if looksLikeReference(characters, at: index) { output += "\\" }
            case "|":
                if inTable { output += "\\" }
            default:
                break
            }
            output.append(character)
        }
        return output
    }

    /// Escapes, at the start of each line, what would start a block: headings, quotes, list
    /// markers, setext underlines, thematic breaks. Lines begin only at hard breaks, and their
    /// mid-line specials are escaped already.
    static func lineStarts(_ markdown: String) -> String {
        guard !markdown.isEmpty else { return markdown }
        return markdown.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
            guard let first = line.first else { return String(line) }
            switch first {
            case "#", ">", "=":
                return "\\" + line
            case "-", "+":
                let second = line.dropFirst().first
                return second == nil || second == " " || second == "\t" || first == "-" && second == "-" ? "\\" + line : String(line)
            case "0"..."9":
                let digits = line.prefix(while: \.isNumber)
                let rest = line.dropFirst(digits.count)
                if digits.count <= 9, let marker = rest.first, marker == "." || marker == ")",
                   rest.dropFirst().first.map({ $0 == " " || $0 == "\t" }) ?? true {
                    return digits + "\\" + rest
                }
                return String(line)
            default:
                return String(line)
            }
        }.joined(separator: "\n")
    }

    /// A code span for `code`: backtick fences longer than any run inside, padded when needed.
    static func codeSpan(_ code: String, inTable: Bool) -> String {
        var code = code.replacingOccurrences(of: "\r\n", with: " ").replacingOccurrences(of: "\n", with: " ")
        if inTable { code = code.replacingOccurrences(of: "|", with: "\\|") }
        let fence = String(repeating: "`", count: longestRun(of: "`", in: code) + 1)
        let pad = code.hasPrefix("`") || code.hasSuffix("`")
            || (code.hasPrefix(" ") && code.hasSuffix(" ") && !code.allSatisfy({ $0 == " " }))
        return fence + (pad ? " " : "") + code + (pad ? " " : "") + fence
    }

    /// A link or image destination: plain when it can be, else in `<…>`.
    static func destination(_ url: String) -> String {
        var url = url.trimmingCharacters(in: .whitespacesAndNewlines)
        url = url.replacingOccurrences(of: "\n", with: "%0A").replacingOccurrences(of: "\r", with: "")
        if url.isEmpty { return "" }
        let hasSpace = url.contains(" ") || url.contains("\t")
        if hasSpace || url.contains("<") || url.contains(">") {
            let escaped = url.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "<", with: "\\<")
                .replacingOccurrences(of: ">", with: "\\>")
            return "<" + escaped + ">"
        }
        var depth = 0
        var balanced = true
        for character in url {
            if character == "(" { depth += 1 }
            if character == ")" { depth -= 1; if depth < 0 { balanced = false } }
        }
        var output = url.replacingOccurrences(of: "\\", with: "\\\\")
        if !balanced || depth != 0 {
            output = output.replacingOccurrences(of: "(", with: "\\(").replacingOccurrences(of: ")", with: "\\)")
        }
        return output
    }

    /// ` "title"` for a link or image, or nothing.
    static func title(_ title: String?) -> String {
        guard let title, !title.isEmpty else { return "" }
        let flat = title.split(whereSeparator: \.isNewline).joined(separator: " ")
        return " \"" + flat.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }

    /// Image descriptions are shown as plain text: escape everything that is markup.
    static func altText(_ alt: String) -> String {
        let flat = alt.split(whereSeparator: \.isNewline).joined(separator: " ")
        return text(flat, before: " ", after: " ", inTable: false)
    }

    static func longestRun(of character: Character, in text: String) -> Int {
        var longest = 0
        var current = 0
        for candidate in text {
            current = candidate == character ? current + 1 : 0
            longest = max(longest, current)
        }
        return longest
    }

    /// A fenced code block; the fence is longer than any backtick run in the code.
    static func codeBlock(_ code: String, language: String?) -> String {
        var body = code
        if body.hasSuffix("\n") { body.removeLast() }
        let fence = String(repeating: "`", count: max(3, longestRun(of: "`", in: body) + 1))
        return fence + (language ?? "") + "\n" + (body.isEmpty ? "" : body + "\n") + fence
    }

    private static func isWordCharacter(_ character: Character?) -> Bool {
        guard let character else { return false }
        return character.isLetter || character.isNumber
    }

    /// `&name;`, `&#123;` or `&#x1F;` starting at `index`.
    private static func looksLikeReference(_ characters: [Character], at index: Int) -> Bool {
        var cursor = index + 1
        var sawBody = false
        if cursor < characters.count, characters[cursor] == "#" { cursor += 1 }
        while cursor < characters.count, cursor - index < 40, characters[cursor].isASCII,
              characters[cursor].isLetter || characters[cursor].isNumber {
            cursor += 1
            sawBody = true
        }
        return sawBody && cursor < characters.count && characters[cursor] == ";"
    }
}
