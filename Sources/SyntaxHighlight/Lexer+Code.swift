/// One step in a code frame: the interpolation closer, whitespace, prompts, the language's rules,
/// then names, numbers, operators and punctuation.
extension HighlightLexer {
    mutating func stepCode(_ top: Int) {
        let byte = bytes[pos]
        let closer = frames[top].closer
        if closer != 0 {
            if byte == closer {
                if frames[top].depth == 0 {
                    emit(frames[top].cls, to: pos + 1)
                    popFrame()
                    return
                }
                frames[top].depth -= 1
            } else if byte == frames[top].opener {
                frames[top].depth += 1
            }
        }
        unowned(unsafe) let language = self.language
        if language.hasPrompts && closer == 0 && (pos == 0 || bytes[pos - 1] == UInt8(ascii: "\n"))
            && startPromptLine(language) {
            return
        }
        if byte.isSpaceByte {
            scanWhitespace()
            return
        }
        if language.ruleTriggers.contains(byte) {
            for slot in language.dispatchStart[Int(byte)]..<language.dispatchStart[Int(byte) + 1] {
                unowned(unsafe) let rule = language.rules[Int(language.dispatch[slot])]
                if tryRule(rule) { return }
            }
        }
        if language.identifier.start.contains(byte) {
            scanWord(language)
        } else if let numbers = language.numbers, startsNumber(byte, numbers, language) {
            scanNumber(numbers)
        } else if language.operators.contains(byte) {
            emit(.operator, to: pos + 1)
        } else if language.punctuation.contains(byte) {
            emit(.punctuation, to: pos + 1)
        } else {
            emit(.plain, to: pos + scalarLength(at: pos))
        }
    }

    /// Whitespace up to and including one line feed; a pending heredoc body starts after it.
    private mutating func scanWhitespace() {
        var stop = pos
        while stop < end {
            let byte = bytes[stop]
            if byte == UInt8(ascii: "\n") {
                stop += 1
                break
            }
            guard byte.isSpaceByte else { break }
            stop += 1
        }
        emitSpace(to: stop)
        if bytes[stop - 1] == UInt8(ascii: "\n") && !pendingBodies.isEmpty { startPendingBodies() }
    }

    /// A console line: a prompt then a command, or program output (plain).
    private mutating func startPromptLine(_ language: SyntaxLanguage) -> Bool {
        for prompt in language.prompts where matches(prompt, at: pos) {
            emit(.meta, to: pos + prompt.count)
            return true
        }
        let lineEnd = endOfLine(from: pos)
        guard lineEnd > pos else { return false }
        emitSpace(to: lineEnd)
        return true
    }

    // MARK: Names

    @inline(__always)
    private mutating func scanWord(_ language: SyntaxLanguage) {
        let start = pos
        var stop = pos + 1
        let rest = language.identifier.rest
        while stop < end && rest.contains(bytes[stop]) { stop += 1 }
        if stop < end && language.identifier.trailing.contains(bytes[stop]) && byte(at: stop + 1) != UInt8(ascii: "=") {
            stop += 1
        }
        var cls = TokenClass.plain
        var next = TokenClass.plain
        if let keyClass = language.conventions.colonSuffix, byte(at: stop) == UInt8(ascii: ":"),
           byte(at: stop + 1) != UInt8(ascii: ":") {
            // `do:` and `if:` are keys too, so this comes before the keyword table.
            cls = keyClass
            stop += 1
        } else if let hook = language.wordHook, let hooked = hook(&self, start, stop) {
            cls = hooked
        } else if let entry = language.words.lookup(bytes, start, stop) {
            cls = entry.cls
            next = entry.next
        } else if let declared = pendingDeclaration {
            cls = declared
        } else {
            (cls, stop) = conventionalClass(language.conventions, start, stop)
        }
        emit(cls, to: stop)
        if next != .plain { pendingDeclaration = next }
    }

    /// The class of a name in no word list, by the language's conventions; the name may grow
    /// by the `!` of a Rust macro.
    private func conventionalClass(_ conventions: WordConventions, _ start: Int, _ stop: Int) -> (TokenClass, Int) {
        let next = byte(at: stop)
        let after = byte(at: stop + 1)
        if conventions.macroBang && next == UInt8(ascii: "!") && after != UInt8(ascii: "=") {
            return (.function, stop + 1)
        }
        if let cls = conventions.assignment, next == UInt8(ascii: "="), after != UInt8(ascii: "=") {
            return (cls, stop)
        }
        let capital = bytes[start].isUppercaseByte
        if capital && conventions.capitalized == .types { return (.type, stop) }
        if conventions.callsAreFunctions && next == UInt8(ascii: "(") { return (.function, stop) }
        if capital && conventions.capitalized == .typesUnlessCalled { return (.type, stop) }
        return (conventions.otherwise, stop)
    }

    // MARK: Numbers

    @inline(__always)
    private func startsNumber(_ byte: UInt8, _ numbers: NumberSyntax, _ language: SyntaxLanguage) -> Bool {
        if byte.isDigitByte { return true }
        guard byte == UInt8(ascii: "."), numbers.leadingDot, self.byte(at: pos + 1).isDigitByte else {
            return false
        }
        guard pos > 0 else { return true }
        let before = bytes[pos - 1]
        // Not `tuple.0`, `f().5`, nor the `.10` of a `0..10` range.
        return !language.identifier.rest.contains(before) && before != UInt8(ascii: ")") && before != UInt8(ascii: "]")
            && before != UInt8(ascii: ".")
    }

    private mutating func scanNumber(_ numbers: NumberSyntax) {
        var stop = pos
        if bytes[stop] == UInt8(ascii: "0") && numbers.radixLetters.contains(byte(at: stop + 1)) {
            stop = digits(from: stop + 2, .hexDigits, numbers.separators)
            if byte(at: stop) == UInt8(ascii: ".") && ByteSet.hexDigits.contains(byte(at: stop + 1)) {
                stop = digits(from: stop + 1, .hexDigits, numbers.separators)
            }
            stop = exponent(at: stop, letter: UInt8(ascii: "p"))
        } else {
            stop = digits(from: stop, .digits, numbers.separators)
            if byte(at: stop) == UInt8(ascii: ".") && byte(at: stop + 1).isDigitByte {
                stop = digits(from: stop + 1, .digits, numbers.separators)
            }
            stop = exponent(at: stop, letter: UInt8(ascii: "e"))
            if numbers.dates { stop = dateTail(from: stop) }
        }
        while stop < end && numbers.suffix.contains(bytes[stop]) { stop += 1 }
        if numbers.percent && byte(at: stop) == UInt8(ascii: "%") { stop += 1 }
        emit(.number, to: stop)
    }

    /// Digits of `set`, with separators between them.
    private func digits(from start: Int, _ set: ByteSet, _ separators: ByteSet) -> Int {
        var stop = start
        while stop < end {
            let byte = bytes[stop]
            if set.contains(byte) || (separators.contains(byte) && set.contains(self.byte(at: stop + 1))) {
                stop += 1
            } else {
                break
            }
        }
        return stop
    }

    /// `e10`, `E-5` (or `p+3` in a hex float) when a digit follows.
    private func exponent(at index: Int, letter: UInt8) -> Int {
        guard byte(at: index) | 0x20 == letter else { return index }
        var digit = index + 1
        if byte(at: digit) == UInt8(ascii: "+") || byte(at: digit) == UInt8(ascii: "-") { digit += 1 }
        guard ByteSet.digits.contains(byte(at: digit)) else { return index }
        return digits(from: digit, .digits, "_")
    }

    /// The rest of a date or time: `-05-27T07:32:00Z`, `:32:00.999`, or `-05-27 07:32:00`.
    private func dateTail(from start: Int) -> Int {
        var stop = start
        let dateBytes: ByteSet = .digits + ":-.+TZtz"
        guard byte(at: stop) == UInt8(ascii: "-") || byte(at: stop) == UInt8(ascii: ":") else { return stop }
        while stop < end && dateBytes.contains(bytes[stop]) { stop += 1 }
        // A space may separate date and time when a time (`07:`) follows.
        if byte(at: stop) == UInt8(ascii: " ") && ByteSet.digits.contains(byte(at: stop + 1))
            && ByteSet.digits.contains(byte(at: stop + 2)) && byte(at: stop + 3) == UInt8(ascii: ":") {
            stop += 1
            while stop < end && dateBytes.contains(bytes[stop]) { stop += 1 }
        }
        return stop
    }
}
