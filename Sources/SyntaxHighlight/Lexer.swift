/// The lexer every language shares: one forward pass over the UTF-8 bytes that hands tokens to
/// an `HTMLEmitter`.
///
/// It keeps a stack of `LexFrame`s: at each step the top frame either consumes at least one byte,
/// pushes a frame after consuming its opener, or pops. Lookahead is bounded or covers bytes that
/// are then consumed, and the one unbounded scan that may fail, a `/regex/` candidate, remembers
/// how far it looked so it is never repeated: the total work is linear in the input.
///
/// Language files see the small API below (position, `emit`, frames) in their custom rules.
struct HighlightLexer {
    let bytes: UnsafeBufferPointer<UInt8>
    /// Where the next token starts.
    private(set) var pos = 0
    /// The top frame's limit: nothing reads at or past it.
    private(set) var end: Int
    /// The nesting, innermost last. Custom rules change it only through the methods below.
    var frames: [LexFrame]
    /// The top frame's language. Unowned: the frame holds it, and the hot loop then pays no
    /// reference counting for it.
    private(set) unowned(unsafe) var language: SyntaxLanguage
    private var emitter: HTMLEmitter
    /// The class and last byte of the previous significant token (not space, not a comment):
    /// enough context for `/regex/` against division and for `#include <…>`.
    private(set) var prevClass: TokenClass?
    private(set) var prevByte: UInt8 = 0
    /// Set by `func`, `class`…: the class of the next name.
    var pendingDeclaration: TokenClass?
    /// Heredoc and block-scalar bodies that start after the current line.
    var pendingBodies: [PendingBody] = []
    /// A `/regex/` scan from before here already failed at this point; later candidates before it
    /// would fail the same way.
    var regexHorizon = 0

    /// Interpolation deeper than this is shown as plain string text, which bounds the stack.
    static let maxFrames = 200

    init(bytes: UnsafeBufferPointer<UInt8>, language: SyntaxLanguage, options: HighlightOptions) {
        self.bytes = bytes
        end = bytes.count
        emitter = HTMLEmitter(bytes: bytes, options: options)
        frames = [LexFrame(kind: .code, language: language, limit: bytes.count)]
        self.language = language
        frames.reserveCapacity(16)
    }

    /// Lexes everything and returns the HTML.
    mutating func run() -> String {
        while !frames.isEmpty {
            let top = frames.count - 1
            switch frames[top].kind {
            case .code:
                if pos >= end { popFrame() } else { stepCode(top) }
            case .string:
                if pos >= end { popFrame() } else { stepString(top) }
            case .embed:
                activateEmbed(top)
            case .token:
                let cls = frames[top].cls
                if cls == .plain { emitSpace(to: end) } else { emit(cls, to: end) }
                popFrame()
            }
        }
        return emitter.finish()
    }

    // MARK: Reading

    /// The byte at `index`, or 0 at and past the end.
    @inline(__always)
    func byte(at index: Int) -> UInt8 {
        index < end ? bytes[index] : 0
    }

    func matches(_ sequence: [UInt8], at index: Int) -> Bool {
        guard index + sequence.count <= end else { return false }
        for offset in 0..<sequence.count where bytes[index + offset] != sequence[offset] { return false }
        return true
    }

    /// `sequence` (lowercase) matches ignoring ASCII case.
    func matchesIgnoringCase(_ sequence: [UInt8], at index: Int) -> Bool {
        guard index + sequence.count <= end else { return false }
        for offset in 0..<sequence.count where WordTable.lowercased(bytes[index + offset]) != sequence[offset] {
            return false
        }
        return true
    }

    /// The index of the line feed ending the line at `index` (or the end).
    func endOfLine(from index: Int) -> Int {
        var stop = index
        while stop < end && bytes[stop] != UInt8(ascii: "\n") { stop += 1 }
        return stop
    }

    /// Only spaces and tabs stand between the line's start and `index`.
    func isLineStart(_ index: Int) -> Bool {
        var before = index
        while before > 0 {
            let byte = bytes[before - 1]
            if byte == UInt8(ascii: "\n") { return true }
            guard byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") else { return false }
            before -= 1
        }
        return true
    }

    /// The number of spaces and tabs starting the line that contains `index`.
    func lineIndent(at index: Int) -> Int {
        var lineStart = index
        while lineStart > 0 && bytes[lineStart - 1] != UInt8(ascii: "\n") { lineStart -= 1 }
        var text = lineStart
        while text < index && (bytes[text] == UInt8(ascii: " ") || bytes[text] == UInt8(ascii: "\t")) { text += 1 }
        return text - lineStart
    }

    /// The length of the UTF-8 scalar starting at `index`, within the end.
    func scalarLength(at index: Int) -> Int {
        let lead = bytes[index]
        let length = lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4
        return min(length, end - index)
    }

    // MARK: Emitting

    /// Emits `bytes[pos..<stop]` as one token and moves past it.
    mutating func emit(_ cls: TokenClass, to stop: Int) {
        guard stop > pos else { return }
        emitter.add(cls, pos, stop)
        if cls != .comment {
            prevClass = cls
            prevByte = bytes[stop - 1]
            pendingDeclaration = nil
        }
        pos = stop
    }

    /// Emits plain text that is not a token of its own (whitespace, console output).
    mutating func emitSpace(to stop: Int) {
        guard stop > pos else { return }
        emitter.add(.plain, pos, stop)
        pos = stop
    }

    // MARK: Frames

    /// Free state for the top code frame's language (CSS: selector, declaration or value).
    var frameMode: UInt8 {
        get { frames[frames.count - 1].mode }
        set { frames[frames.count - 1].mode = newValue }
    }

    /// Free bits for the top code frame's language (CSS: which nesting levels hold rules).
    var frameBits: UInt64 {
        get { frames[frames.count - 1].bits }
        set { frames[frames.count - 1].bits = newValue }
    }

    /// Free nesting count for the top frame's language (CSS and YAML braces).
    var frameDepth: Int {
        get { frames[frames.count - 1].depth }
        set { frames[frames.count - 1].depth = newValue }
    }

    var canPush: Bool { frames.count < Self.maxFrames }

    mutating func push(_ frame: LexFrame) {
        var frame = frame
        frame.limit = min(frame.limit, end)
        frames.append(frame)
        end = frame.limit
        language = frame.language
    }

    mutating func popFrame() {
        frames.removeLast()
        end = frames.last?.limit ?? pos
        if let top = frames.last { language = top.language }
    }

    /// Code in `language` up to `limit`, or up to `closer` (nested by `opener`) shown as `closerClass`.
    mutating func pushCode(_ language: SyntaxLanguage, limit: Int = .max, closer: UInt8 = 0, opener: UInt8 = 0,
                           closerClass: TokenClass = .punctuation) {
        push(LexFrame(kind: .code, language: language, limit: limit, cls: closerClass, closer: closer, opener: opener))
    }

    /// `bytes[pos..<stop]` as one token, once the frames above it are done.
    mutating func pushToken(_ cls: TokenClass, to stop: Int) {
        push(LexFrame(kind: .token, language: language, limit: stop, cls: cls))
    }

    /// Code in `language` up to the next `terminator` (lowercase, matched ignoring case).
    mutating func pushEmbed(_ language: SyntaxLanguage, terminator: String) {
        push(LexFrame(kind: .embed, language: language, limit: end, close: Array(terminator.utf8)))
    }

    private mutating func activateEmbed(_ top: Int) {
        let terminator = frames[top].close
        var stop = pos
        while stop < end && !(bytes[stop] == terminator[0] && matchesIgnoringCase(terminator, at: stop)) { stop += 1 }
        frames[top].kind = .code
        frames[top].limit = stop
        end = stop
    }

    /// A string whose opening quote ends at `openEnd`; `close` ends it (after `hashes` `#`s).
    /// `nest` is an opening bracket that nests the closing one (`%w[a [b] c]`).
    mutating func openString(_ syntax: StringSyntax, openEnd: Int, close: [UInt8], hashes: Int = 0, nest: UInt8 = 0) {
        var cls = syntax.cls
        if let suffix = syntax.keySuffix, byteAfterString(syntax, from: openEnd, close: close) == suffix { cls = .key }
        emit(syntax.delimiterClass ?? cls, to: openEnd)
        push(LexFrame(kind: .string, language: language, limit: end, cls: cls, opener: nest, syntax: syntax,
                      close: close, hashes: hashes))
    }

    /// Lines that follow the current one as a string: heredoc or block-scalar bodies.
    mutating func pushBody(_ syntax: StringSyntax?, to stop: Int) {
        if let syntax {
            push(LexFrame(kind: .string, language: language, limit: stop, cls: syntax.cls, syntax: syntax))
        } else {
            pushToken(.string, to: stop)
        }
    }
}
