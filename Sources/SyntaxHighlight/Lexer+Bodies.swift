/// Bodies that start on the line after the construct that announces them: heredocs
/// (`cat <<EOF`, the rest of the line still being code) and YAML block scalars (`key: |`).
enum PendingBody {
    /// Lines up to one that is exactly `terminator` (after indentation, if `indented`).
    /// With a syntax, the body interpolates (`$HOME` in an unquoted shell heredoc).
    case heredoc(terminator: [UInt8], indented: Bool, body: StringSyntax?)
    /// Lines indented deeper than `parentIndent`, and blank lines among them.
    case indented(parentIndent: Int)
}

extension HighlightLexer {
    /// `<<WORD`, `<<-'WORD'`, `<<~WORD`: shows the operator and word, and queues the body.
    mutating func startHeredoc(_ syntax: HeredocSyntax) -> Bool {
        var index = pos + 2
        let indented = syntax.indentFlags.contains(byte(at: index))
        if indented {
            index += 1
        } else if byte(at: index) == UInt8(ascii: "<") {
            return false  // `<<<` is a here-string
        }
        let operatorEnd = index
        if syntax.spaceBeforeWord {
            while index < operatorEnd + 8 && ByteSet.blank.contains(byte(at: index)) { index += 1 }
        }
        let wordStart = index
        let quote = byte(at: index)
        let quoted = quote == UInt8(ascii: "'") || quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "\\")
        if quoted { index += 1 }
        let nameStart = index
        guard ByteSet.letters.contains(byte(at: index)) || byte(at: index) == UInt8(ascii: "_") else { return false }
        while index < end && ByteSet.asciiWord.contains(bytes[index]) { index += 1 }
        let name = Array(bytes[nameStart..<index])
        if quoted && quote != UInt8(ascii: "\\") {
            guard byte(at: index) == quote else { return false }
            index += 1
        }
        if !quoted && syntax.uppercaseWord && !ByteSet.uppercase.contains(bytes[nameStart]) { return false }
        emit(.operator, to: operatorEnd)
        emitSpace(to: wordStart)
        emit(.string, to: index)
        pendingBodies.append(.heredoc(terminator: name, indented: indented, body: quoted ? nil : syntax.body))
        return true
    }

    /// Called after a line feed in code: pushes the queued bodies, in order.
    mutating func startPendingBodies() {
        let bodies = pendingBodies
        pendingBodies.removeAll()
        var planned: [(syntax: StringSyntax?, cls: TokenClass, stop: Int)] = []
        var start = pos
        for body in bodies {
            if start > pos && byte(at: start) == UInt8(ascii: "\n") {
                planned.append((nil, .plain, start + 1))  // the line feed after the previous terminator
                start += 1
            }
            switch body {
            case .heredoc(let terminator, let indented, let syntax):
                let (bodyEnd, terminatorEnd) = findTerminator(terminator, indented: indented, from: start)
                planned.append((syntax, .string, bodyEnd))
                planned.append((nil, .string, terminatorEnd))
                start = terminatorEnd
            case .indented(let parentIndent):
                start = indentedBlockEnd(from: start, parentIndent: parentIndent)
                planned.append((nil, .string, start))
            }
        }
        // Frames run top first, so the last body goes on the stack first.
        for (syntax, cls, stop) in planned.reversed() {
            if let syntax {
                pushBody(syntax, to: stop)
            } else {
                pushToken(cls, to: stop)
            }
        }
    }

    /// The body's end (the start of the terminator line) and the terminator line's end.
    private func findTerminator(_ terminator: [UInt8], indented: Bool, from start: Int) -> (Int, Int) {
        var lineStart = start
        while lineStart < end {
            let lineEnd = endOfLine(from: lineStart)
            var text = lineStart
            if indented {
                while text < lineEnd && ByteSet.blank.contains(bytes[text]) { text += 1 }
            }
            var textEnd = lineEnd
            if textEnd > text && bytes[textEnd - 1] == UInt8(ascii: "\r") { textEnd -= 1 }
            if textEnd - text == terminator.count && matches(terminator, at: text) { return (lineStart, lineEnd) }
            lineStart = lineEnd + 1
        }
        return (end, end)
    }

    /// The end of the last line, from `start`, indented deeper than `parentIndent`.
    private func indentedBlockEnd(from start: Int, parentIndent: Int) -> Int {
        var lineStart = start
        var blockEnd = start
        while lineStart < end {
            let lineEnd = endOfLine(from: lineStart)
            var text = lineStart
            while text < lineEnd && ByteSet.whitespace.contains(bytes[text]) { text += 1 }
            if text < lineEnd {
                guard text - lineStart > parentIndent else { break }
                blockEnd = lineEnd
            }
            lineStart = lineEnd + 1
        }
        return blockEnd
    }
}
