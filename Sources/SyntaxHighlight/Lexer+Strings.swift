/// The inside of a string: text, escapes, interpolation, and the closing quote.
extension HighlightLexer {
    mutating func stepString(_ top: Int) {
        let syntax = frames[top].syntax!
        let cls = frames[top].cls
        let close = frames[top].close
        let closeFirst = close.first ?? 0
        let nest = frames[top].opener
        let stops = syntax.stops
        // The common case: a run of text up to the next byte that might mean something.
        var stop = pos
        while stop < end {
            let byte = bytes[stop]
            if stops.contains(byte) || byte == closeFirst || (byte == nest && nest != 0) { break }
            stop += 1
        }
        emit(cls, to: stop)
        guard pos < end else {
            popFrame()
            return
        }
        let byte = bytes[pos]
        for sequence in syntax.literalEscapes where byte == sequence[0] && matches(sequence, at: pos) {
            emit(.escape, to: pos + sequence.count)
            return
        }
        if byte == closeFirst && !close.isEmpty {
            if frames[top].depth > 0 {
                frames[top].depth -= 1
                emit(cls, to: pos + 1)
                return
            }
            let hashes = frames[top].hashes
            if matches(close, at: pos) && hashesFollow(pos + close.count, hashes) {
                var stop = pos + close.count + hashes
                emit(syntax.delimiterClass ?? cls, to: stop)
                while stop < end && syntax.modifiers.contains(bytes[stop]) { stop += 1 }
                emit(cls, to: stop)
                popFrame()
                return
            }
        }
        if nest != 0 && byte == nest {
            frames[top].depth += 1
            emit(cls, to: pos + 1)
            return
        }
        for interpolation in syntax.interpolations where byte == interpolation.firstByte {
            if startInterpolation(interpolation, hashes: frames[top].hashes) { return }
        }
        if byte == UInt8(ascii: "\\") && syntax.escapes != .none {
            emitEscape(syntax.escapes, hashes: frames[top].hashes, quote: closeFirst, cls: cls)
        } else if byte == UInt8(ascii: "\n") && !syntax.multiline {
            popFrame()  // unterminated: the string ends with its line
        } else {
            emit(cls, to: pos + 1)
        }
    }

    private func hashesFollow(_ index: Int, _ count: Int) -> Bool {
        for offset in 0..<count where byte(at: index + offset) != UInt8(ascii: "#") { return false }
        return true
    }

    /// A backslash escape; in a raw string only with its `#`s (`\#n`).
    private mutating func emitEscape(_ style: EscapeStyle, hashes: Int, quote: UInt8, cls: TokenClass) {
        let escaped = pos + 1 + hashes
        guard hashesFollow(pos + 1, hashes), escaped < end else {
            emit(cls, to: pos + 1)
            return
        }
        switch style {
        case .none:
            emit(cls, to: pos + 1)
        case .backslash:
            emit(.escape, to: escaped + escapeLength(at: escaped))
        case .quoteOnly:
            let byte = bytes[escaped]
            emit(byte == UInt8(ascii: "\\") || byte == quote ? .escape : cls, to: escaped + 1)
        case .verbatim:
            emit(cls, to: escaped + scalarLength(at: escaped))
        }
    }

    /// The length of what follows a backslash: `u{1F600}`, `u0041`, `U0001F600`, `x41`, `101`, `n`.
    private func escapeLength(at index: Int) -> Int {
        func run(_ set: ByteSet, from start: Int, max: Int) -> Int {
            var stop = start
            while stop < end && stop - start < max && set.contains(bytes[stop]) { stop += 1 }
            return stop - index
        }
        let byte = bytes[index]
        switch byte {
        case UInt8(ascii: "u") where self.byte(at: index + 1) == UInt8(ascii: "{"),
             UInt8(ascii: "N") where self.byte(at: index + 1) == UInt8(ascii: "{"):
            var stop = index + 2
            while stop < min(end, index + 64) && bytes[stop] != UInt8(ascii: "}") && bytes[stop] != UInt8(ascii: "\n") { stop += 1 }
            return self.byte(at: stop) == UInt8(ascii: "}") ? stop + 1 - index : 1
        case UInt8(ascii: "u"): return max(1, run(.hexDigits, from: index + 1, max: 4))
        case UInt8(ascii: "U"): return max(1, run(.hexDigits, from: index + 1, max: 8))
        case UInt8(ascii: "x"): return max(1, run(.hexDigits, from: index + 1, max: 2))
        case UInt8(ascii: "0")...UInt8(ascii: "7"): return run(ByteSet(UInt8(ascii: "0")...UInt8(ascii: "7")), from: index, max: 3)
        default: return scalarLength(at: index)
        }
    }

    /// Starts `interpolation` at the current byte; false if it does not match here.
    mutating func startInterpolation(_ interpolation: Interpolation, hashes: Int) -> Bool {
        switch interpolation {
        case .code(let open, let close):
            guard canPush, let length = openLength(open, hashes: hashes) else { return false }
            emit(.substitution, to: pos + length)
            let opener: UInt8 = switch close {
            case UInt8(ascii: ")"): UInt8(ascii: "(")
            case UInt8(ascii: "}"): UInt8(ascii: "{")
            case UInt8(ascii: "]"): UInt8(ascii: "[")
            default: 0
            }
            pushCode(language, closer: close, opener: opener, closerClass: .substitution)
        case .variable(let sigil, let specials, let sigilClass, let nameClass):
            guard bytes[pos] == sigil else { return false }
            let next = byte(at: pos + 1)
            if ByteSet.letters.contains(next) || next == UInt8(ascii: "_") {
                emit(sigilClass, to: pos + 1)
                var stop = pos
                while stop < end && ByteSet.asciiWord.contains(bytes[stop]) { stop += 1 }
                emit(nameClass, to: stop)
            } else if next != 0 && specials.contains(next) {
                emit(sigilClass, to: pos + 2)
            } else {
                return false
            }
        case .braced(let open, let close, let cls):
            guard matches(open, at: pos) else { return false }
            // `${NAME…}` is short: look a bounded way for the brace, else show just the opener.
            let limit = min(end, pos + open.count + 128)
            var stop = pos + open.count
            while stop < limit && bytes[stop] != close && bytes[stop] != UInt8(ascii: "\n") { stop += 1 }
            emit(cls, to: stop < limit && bytes[stop] == close ? stop + 1 : pos + open.count)
        }
        return true
    }

    /// The length of `open` here; in a raw string the `#`s go after its backslash (`\#(`).
    private func openLength(_ open: [UInt8], hashes: Int) -> Int? {
        guard hashes > 0 && open[0] == UInt8(ascii: "\\") else { return matches(open, at: pos) ? open.count : nil }
        guard bytes[pos] == open[0], hashesFollow(pos + 1, hashes), matches(Array(open[1...]), at: pos + 1 + hashes)
        else { return nil }
        return open.count + hashes
    }

    /// Where the string opened at `start` ends, skipping blanks: the byte there, or 0.
    /// Reads only what the string frame will then consume, so the look is paid for once.
    func byteAfterString(_ syntax: StringSyntax, from start: Int, close: [UInt8]) -> UInt8 {
        var index = start
        while index < end {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\\") && syntax.escapes != .none {
                index += 2
                continue
            }
            if byte == UInt8(ascii: "\n") && !syntax.multiline { return 0 }
            if let sequence = syntax.literalEscapes.first(where: { $0[0] == byte && matches($0, at: index) }) {
                index += sequence.count
                continue
            }
            if byte == close[0] && matches(close, at: index) {
                index += close.count
                while index < end && ByteSet.blank.contains(bytes[index]) { index += 1 }
                return self.byte(at: index)
            }
            index += 1
        }
        return 0
    }
}
