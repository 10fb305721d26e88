/// Turns the lexer's token stream into escaped HTML in one UTF-8 buffer.
///
/// Tokens arrive in order and touch each other; neighbours of one class are merged before they
/// are written, so `);` is one span, not two. With line numbers or marked lines every line is
/// wrapped in `<span class="hl-line">` and a token that spans lines is closed at each line end
/// and reopened on the next, so no span ever crosses a line boundary.
struct HTMLEmitter {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var output: OutputBuffer
    private let lineMode: Bool
    private let numbered: Bool
    private let marked: Set<Int>
    private var line = 0
    private var lineOpen = false
    private var pendingClass = TokenClass.plain
    private var pendingStart = 0
    private var pendingEnd = 0

    init(bytes: UnsafeBufferPointer<UInt8>, options: HighlightOptions) {
        self.bytes = bytes
        numbered = options.lineNumbers
        marked = options.highlightedLines
        lineMode = options.lineNumbers || !options.highlightedLines.isEmpty
        // Tags and escapes make dense code over four times longer. Reserving more than that
        // avoids regrowing; pages that stay unused are never touched, so cost nothing.
        output = OutputBuffer(capacity: bytes.count * 8 + 256)
    }

    /// Adds the token `bytes[start..<end]`, which begins where the previous one ended.
    @inline(__always)
    mutating func add(_ cls: TokenClass, _ start: Int, _ end: Int) {
        if cls == pendingClass && start == pendingEnd {
            pendingEnd = end
            return
        }
        flush()
        pendingClass = cls
        pendingStart = start
        pendingEnd = end
    }

    /// Writes what is pending and returns the HTML.
    mutating func finish() -> String {
        flush()
        if lineOpen { output.append(Self.closeTag) }
        return output.string()
    }

    private mutating func flush() {
        guard pendingEnd > pendingStart else { return }
        if !lineMode {
            writeSpan(pendingClass, pendingStart, pendingEnd)
            return
        }
        var start = pendingStart
        while start < pendingEnd {
            var newline = start
            while newline < pendingEnd && bytes[newline] != UInt8(ascii: "\n") { newline += 1 }
            if newline > start {
                openLineIfNeeded()
                writeSpan(pendingClass, start, newline)
            }
            guard newline < pendingEnd else { break }
            openLineIfNeeded()
            output.append(UInt8(ascii: "\n"))
            output.append(Self.closeTag)
            lineOpen = false
            start = newline + 1
        }
    }

    private mutating func openLineIfNeeded() {
        guard !lineOpen else { return }
        line += 1
        lineOpen = true
        output.append(marked.contains(line) ? "<span class=\"hl-line hl-mark\">" : "<span class=\"hl-line\">")
        if numbered {
            output.append("<span class=\"hl-ln\">")
            for digit in String(line).utf8 { output.append(digit) }
            output.append(Self.closeTag)
        }
    }

    private static let closeTag: StaticString = "</span>"

    private mutating func writeSpan(_ cls: TokenClass, _ start: Int, _ end: Int) {
        guard cls != .plain else {
            writeEscaped(start, end)
            return
        }
        output.append(cls.openTag)
        writeEscaped(start, end)
        output.append(Self.closeTag)
    }

    private mutating func writeEscaped(_ start: Int, _ end: Int) {
        output.appendEscaped(bytes, start, end)
    }
}

extension TokenClass {
    /// `<span class="hl-kw">` and so on, as static text: no allocation, no reference counting.
    var openTag: StaticString {
        switch self {
        case .plain: ""
        case .keyword: "<span class=\"hl-kw\">"
        case .type: "<span class=\"hl-ty\">"
        case .string: "<span class=\"hl-str\">"
        case .number: "<span class=\"hl-num\">"
        case .comment: "<span class=\"hl-com\">"
        case .function: "<span class=\"hl-fn\">"
        case .attribute: "<span class=\"hl-attr\">"
        case .operator: "<span class=\"hl-op\">"
        case .punctuation: "<span class=\"hl-pun\">"
        case .variable: "<span class=\"hl-var\">"
        case .literal: "<span class=\"hl-lit\">"
        case .escape: "<span class=\"hl-esc\">"
        case .substitution: "<span class=\"hl-sub\">"
        case .regex: "<span class=\"hl-re\">"
        case .meta: "<span class=\"hl-meta\">"
        case .tag: "<span class=\"hl-tag\">"
        case .heading: "<span class=\"hl-head\">"
        case .inserted: "<span class=\"hl-ins\">"
        case .deleted: "<span class=\"hl-del\">"
        case .key: "<span class=\"hl-key\">"
        }
    }
}

/// A growable byte buffer written through a raw pointer: the emitter appends many short pieces,
/// and `Array.append(contentsOf:)` costs a uniqueness and capacity check plus a call per piece.
struct OutputBuffer {
    /// Owns the memory, so that it is freed however the buffer's user ends.
    private final class Storage {
        var pointer: UnsafeMutablePointer<UInt8>
        init(capacity: Int) { pointer = .allocate(capacity: capacity) }
        deinit { pointer.deallocate() }
    }

    private let storage: Storage
    private var base: UnsafeMutablePointer<UInt8>
    private var count = 0
    private var capacity: Int

    init(capacity: Int) {
        storage = Storage(capacity: capacity)
        base = storage.pointer
        self.capacity = capacity
    }

    @inline(__always)
    private mutating func reserve(_ extra: Int) {
        guard count + extra > capacity else { return }
        let grown = Swift.max(capacity * 2, count + extra)
        let pointer = UnsafeMutablePointer<UInt8>.allocate(capacity: grown)
        pointer.update(from: base, count: count)
        storage.pointer.deallocate()
        storage.pointer = pointer
        base = pointer
        capacity = grown
    }

    @inline(__always)
    mutating func append(_ byte: UInt8) {
        reserve(1)
        base[count] = byte
        count += 1
    }

    @inline(__always)
    mutating func append(_ text: StaticString) {
        let length = text.utf8CodeUnitCount
        reserve(length)
        (base + count).update(from: text.utf8Start, count: length)
        count += length
    }

    /// `bytes[start..<end]` with `&`, `<`, `>`, `"` and `'` replaced by entities, in one pass that
    /// stores each byte as it checks it (tokens are short: a second copying pass costs more).
    @inline(__always)
    mutating func appendEscaped(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) {
        reserve((end - start) * 6)  // `&quot;` is the longest replacement
        var out = base + count
        for index in start..<end {
            let byte = bytes[index]
            // All five special bytes are below 64: one shift and mask passes everything else.
            guard byte < 64 && (Self.specialBytes >> UInt64(byte)) & 1 != 0 else {
                out.pointee = byte
                out += 1
                continue
            }
            let entity: StaticString = switch byte {
            case UInt8(ascii: "&"): "&amp;"
            case UInt8(ascii: "<"): "&lt;"
            case UInt8(ascii: ">"): "&gt;"
            case UInt8(ascii: "\""): "&quot;"
            default: "&#39;"
            }
            out.update(from: entity.utf8Start, count: entity.utf8CodeUnitCount)
            out += entity.utf8CodeUnitCount
        }
        count = out - base
    }

    /// Bit `b` is set for the bytes `"`, `&`, `'`, `<` and `>`.
    private static let specialBytes: UInt64 = 1 << 0x22 | 1 << 0x26 | 1 << 0x27 | 1 << 0x3C | 1 << 0x3E

    func string() -> String {
        String(decoding: UnsafeBufferPointer(start: base, count: count), as: UTF8.self)
    }
}
