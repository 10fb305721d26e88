/// Running a language's rules: conditions, then the shared actions.
extension HighlightLexer {
    /// Tries `rule` at the current position; false when it does not apply (nothing was emitted).
    /// The condition goes first, being cheapest: most rules fail it (`column0` in mid-line).
    mutating func tryRule(_ rule: LexRule) -> Bool {
        if rule.condition != .leftFlanking && !holds(rule.condition, prefixLength: 0) { return false }
        if case .string(let syntax) = rule.action { return startString(syntax, rule) }
        var prefixIndex = 0
        var length = 0
        if !rule.prefixes.isEmpty {
            guard let found = matchingPrefix(rule.prefixes) else { return false }
            prefixIndex = found
            length = rule.prefixes[found].count
        }
        if rule.condition == .leftFlanking && !holds(.leftFlanking, prefixLength: length) { return false }
        switch rule.action {
        case .toLineEnd(let cls):
            emit(cls, to: endOfLine(from: pos + length))
        case .prefix(let cls):
            emit(cls, to: pos + length)
        case .block(let close, let nests, let singleLine, let cls):
            scanBlock(open: rule.prefixes[prefixIndex], close: close, nests: nests, singleLine: singleLine, cls: cls)
        case .string:
            return false
        case .delimited(let syntax):
            return startDelimited(syntax, quote: pos + length)
        case .sigil(let cls, let name):
            var stop = pos + length
            while stop < end && name.contains(bytes[stop]) { stop += 1 }
            guard stop > pos + length else { return false }
            emit(cls, to: stop)
        case .regex(let flags):
            return scanRegex(flags: flags)
        case .heredoc(let syntax):
            return startHeredoc(syntax)
        case .interpolation(let interpolation):
            return startInterpolation(interpolation, hashes: 0)
        case .key(let separators, let chars):
            return scanKey(separators: separators, chars: chars)
        case .custom(let body):
            return body(&self, length)
        }
        return true
    }

    private func matchingPrefix(_ prefixes: [[UInt8]]) -> Int? {
        for (index, prefix) in prefixes.enumerated() where matches(prefix, at: pos) { return index }
        return nil
    }

    func holds(_ condition: RuleCondition, prefixLength: Int) -> Bool {
        switch condition {
        case .always:
            return true
        case .column0:
            return pos == 0 || bytes[pos - 1] == UInt8(ascii: "\n")
        case .lineStart:
            return isLineStart(pos)
        case .inputStart:
            return pos == 0
        case .afterWhitespace:
            return pos == 0 || ByteSet.whitespace.contains(bytes[pos - 1])
        case .wordStart:
            return pos == 0 || ByteSet.wordBoundary.contains(bytes[pos - 1])
        case .expectsValue:
            return expectsValue
        case .afterMeta:
            return prevClass == .meta
        case .keyPosition:
            return isLineStart(pos)
                || (prevClass == .punctuation && (prevByte == UInt8(ascii: "{") || prevByte == UInt8(ascii: ",")))
        case .leftFlanking:
            let after = byte(at: pos + prefixLength)
            return after != 0 && !ByteSet.whitespace.contains(after)
                && !(pos > 0 && ByteSet.identifierContinue.contains(bytes[pos - 1]))
        }
    }

    /// Whether the previous token leaves room for a value (so `/` starts a regex) rather than
    /// ending one (so `/` divides): after an operator, a keyword or an opening bracket.
    var expectsValue: Bool {
        guard let prevClass else { return true }
        switch prevClass {
        case .keyword, .operator:
            return true
        case .punctuation, .substitution:
            return prevByte != UInt8(ascii: ")") && prevByte != UInt8(ascii: "]")
        default:
            return false
        }
    }

    /// From `open` through the matching `close`, or to the end (of the line, if `singleLine`).
    private mutating func scanBlock(open: [UInt8], close: [UInt8], nests: Bool, singleLine: Bool, cls: TokenClass) {
        var stop = pos + open.count
        var depth = 0
        while stop < end {
            let byte = bytes[stop]
            if byte == close[0] && matches(close, at: stop) {
                stop += close.count
                if depth == 0 { break }
                depth -= 1
            } else if nests && byte == open[0] && matches(open, at: stop) {
                depth += 1
                stop += open.count
            } else if singleLine && byte == UInt8(ascii: "\n") {
                break
            } else {
                stop += 1
            }
        }
        emit(cls, to: min(stop, end))
    }

    /// A string rule: one of its prefixes, the `#`s of a raw string, then the opening quote.
    private mutating func startString(_ syntax: StringSyntax, _ rule: LexRule) -> Bool {
        // Most tries are at names that merely start like a prefix (`return` and `r"…"`): without
        // a quote (or `#`) within reach, none of the prefixes can match.
        let quote = syntax.open[0]
        var reach = pos
        while reach < min(end, pos + rule.longestPrefix + 1) && bytes[reach] != quote
            && !(syntax.hashed && bytes[reach] == UInt8(ascii: "#")) { reach += 1 }
        guard reach < min(end, pos + rule.longestPrefix + 1) else { return false }
        for prefix in rule.prefixes where matches(prefix, at: pos) {
            var quote = pos + prefix.count
            var hashes = 0
            if syntax.hashed {
                // Bounded: Rust allows 255 `#`s, real code uses one or two.
                while hashes < 16 && byte(at: quote) == UInt8(ascii: "#") {
                    hashes += 1
                    quote += 1
                }
            }
            guard matches(syntax.open, at: quote) else { continue }
            let openEnd = quote + syntax.open.count
            if rule.condition == .leftFlanking && !holds(.leftFlanking, prefixLength: openEnd - pos) { return false }
            openString(syntax, openEnd: openEnd, close: syntax.close, hashes: hashes)
            return true
        }
        return false
    }

    /// Ruby `%w[…]`, Elixir `~r/…/`: the byte at `quote` opens, its mirror closes; a quote
    /// tripled (`~S"""`) opens a multi-line one.
    private mutating func startDelimited(_ syntax: StringSyntax, quote: Int) -> Bool {
        let open = byte(at: quote)
        guard open != 0, ByteSet.delimiters.contains(open) else { return false }
        let mirror: [UInt8: UInt8] = [UInt8(ascii: "("): UInt8(ascii: ")"), UInt8(ascii: "["): UInt8(ascii: "]"),
                                      UInt8(ascii: "{"): UInt8(ascii: "}"), UInt8(ascii: "<"): UInt8(ascii: ">")]
        let close = mirror[open] ?? open
        var openEnd = quote + 1
        var closing = [close]
        if (open == UInt8(ascii: "\"") || open == UInt8(ascii: "'")) && byte(at: quote + 1) == open && byte(at: quote + 2) == open {
            openEnd += 2
            closing = [open, open, open]
        }
        openString(syntax, openEnd: openEnd, close: closing, nest: close != open ? open : 0)
        return true
    }

    /// A `/regex/` if it closes on this line; otherwise the `/` is left to be an operator.
    private mutating func scanRegex(flags: ByteSet) -> Bool {
        guard pos >= regexHorizon else { return false }
        let first = byte(at: pos + 1)
        guard first != 0, !ByteSet.whitespace.contains(first), first != UInt8(ascii: "*"), first != UInt8(ascii: "/")
        else { return false }
        var stop = pos + 1
        var inClass = false
        while stop < end {
            let byte = bytes[stop]
            if byte == UInt8(ascii: "\n") { break }
            if byte == UInt8(ascii: "\\") {
                if self.byte(at: stop + 1) == UInt8(ascii: "\n") { break }
                stop += 2
                continue
            }
            if byte == UInt8(ascii: "[") {
                inClass = true
            } else if byte == UInt8(ascii: "]") {
                inClass = false
            } else if byte == UInt8(ascii: "/") && !inClass {
                stop += 1
                while stop < end && flags.contains(bytes[stop]) { stop += 1 }
                emit(.regex, to: stop)
                return true
            }
            stop += 1
        }
        regexHorizon = min(stop, end)
        return false
    }

    /// A bare key (`name`, `a.b-c`) if, after blanks, a separator follows (`=` or `:`, not `::`).
    private mutating func scanKey(separators: ByteSet, chars: ByteSet) -> Bool {
        var stop = pos
        while stop < end && chars.contains(bytes[stop]) { stop += 1 }
        var next = stop
        while next < end && ByteSet.blank.contains(bytes[next]) { next += 1 }
        guard next < end, separators.contains(bytes[next]),
              !(bytes[next] == UInt8(ascii: ":") && byte(at: next + 1) == UInt8(ascii: ":")) else { return false }
        emit(.key, to: stop)
        return true
    }
}

extension ByteSet {
    /// ASCII punctuation that can delimit a percent literal or sigil.
    static let delimiters: ByteSet = "!\"#$%&'()*+,-./:;<=>?@[]^_`{|}~"
}
