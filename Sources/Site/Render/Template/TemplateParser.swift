/// Parses Mustache (spec v1.4: interpolation, sections, inverted sections, comments, partials,
/// set delimiters, and the inheritance module's parents and blocks) into a `Template`.
///
/// Three passes: tags are cut out of the text (delimiters change as they go), lines holding one
/// standalone tag and only blanks lose those blanks and their newline (the spec's whitespace
/// rule), and the tokens nest into a tree, each node knowing whether it starts a line (where an
/// indented partial adds its indentation).
struct TemplateParser {
    private let source: [UInt8]
    private var position = 0
    private var line = 1
    private var open: [UInt8] = Array("{{".utf8)
    private var close: [UInt8] = Array("}}".utf8)

    init(_ text: String) { source = Array(text.utf8) }

    static func parse(_ text: String) throws(TemplateError) -> Template {
        var parser = TemplateParser(text)
        let tokens = Self.markStandalone(try parser.tokens())
        var index = 0
        let nodes = try Self.nest(tokens, from: &index, closing: nil)
        return Template(nodes: nodes)
    }

    // MARK: tags

    enum TagKind: Equatable {
        case value(escaped: Bool), section, inverted, close, comment, partial, delimiters, parent, block

        /// Tags that may stand alone on a line (and then take the line's blanks with them).
        var canStandAlone: Bool {
            switch self {
            case .value: false
            default: true
            }
        }
    }

    struct Token {
        enum Kind {
            case text([UInt8])
            case tag(TagKind, name: String)
        }
        var kind: Kind
        var line: Int
        var startsLine = false
        var indentation: [UInt8] = []
        var standalone = false

        var isStandaloneKind: Bool {
            if case .tag(let kind, _) = kind { kind.canStandAlone } else { false }
        }
    }

    private mutating func tokens() throws(TemplateError) -> [Token] {
        var tokens: [Token] = []
        var textStart = position
        func flushText(upTo end: Int, into tokens: inout [Token], line: Int) {
            // One token per line, so the standalone pass and indentation see lines.
            var start = textStart
            var pieceLine = line
            while start < end {
                var stop = start
                while stop < end, source[stop] != 0x0A { stop += 1 }
                if stop < end { stop += 1 }
                tokens.append(Token(kind: .text(Array(source[start..<stop])), line: pieceLine))
                pieceLine += 1
                start = stop
            }
        }
        var textLine = line
        while position < source.count {
            guard matches(open, at: position) else {
                if source[position] == 0x0A { line += 1 }
                position += 1
                continue
            }
            flushText(upTo: position, into: &tokens, line: textLine)
            let tagLine = line
            position += open.count
            let token = try tag(line: tagLine)
            tokens.append(token)
            textStart = position
            textLine = line
        }
        flushText(upTo: source.count, into: &tokens, line: textLine)
        return tokens
    }

    private mutating func tag(line tagLine: Int) throws(TemplateError) -> Token {
        guard position < source.count else { throw TemplateError(line: tagLine, message: "unclosed tag") }
        let sigil = source[position]
        var kind: TagKind
        var terminator = close
        switch sigil {
        case UInt8(ascii: "#"): kind = .section
        case UInt8(ascii: "^"): kind = .inverted
        case UInt8(ascii: "/"): kind = .close
        case UInt8(ascii: "!"): kind = .comment
        case UInt8(ascii: ">"): kind = .partial
        case UInt8(ascii: "<"): kind = .parent
        case UInt8(ascii: "$"): kind = .block
        case UInt8(ascii: "&"): kind = .value(escaped: false)
        case UInt8(ascii: "{"): kind = .value(escaped: false); terminator = Array("}".utf8) + close
        case UInt8(ascii: "="): kind = .delimiters; terminator = Array("=".utf8) + close
        default: kind = .value(escaped: true)
        }
        if case .value(escaped: true) = kind {} else { position += 1 }
        let contentStart = position
        while position < source.count, !matches(terminator, at: position) {
            if source[position] == 0x0A { line += 1 }
            position += 1
        }
        guard position < source.count else {
            throw TemplateError(line: tagLine, message: "unclosed tag: no “\(String(decoding: terminator, as: UTF8.self))”")
        }
        let content = String(decoding: source[contentStart..<position], as: UTF8.self)
        position += terminator.count
        let name = content.trimmingBlanks()
        switch kind {
        case .comment:
            break
        case .delimiters:
            let parts = name.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard parts.count == 2, !parts.contains(where: { $0.contains("=") }) else {
                throw TemplateError(line: tagLine, message: "bad set-delimiters tag “\(content)”")
            }
            open = Array(parts[0].utf8)
            close = Array(parts[1].utf8)
        default:
            guard !name.isEmpty, !name.contains(where: { $0 == " " || $0 == "\t" || $0 == "\n" }) else {
                throw TemplateError(line: tagLine, message: "bad tag name “\(content)”")
            }
            if name.contains("(") {
                throw TemplateError(line: tagLine, message: "“\(name)”: transforms are not part of Mustache")
            }
        }
        return Token(kind: .tag(kind, name: name), line: tagLine)
    }

    private func matches(_ bytes: [UInt8], at index: Int) -> Bool {
        guard index + bytes.count <= source.count else { return false }
        for offset in 0..<bytes.count where source[index + offset] != bytes[offset] { return false }
        return true
    }

    // MARK: standalone lines

    /// Applies the spec's whitespace rule line by line and marks the tokens that start a line.
    ///
    /// A parent's own tags (`{{<name}}` and its `{{/name}}`) do not count: only blocks matter
    /// inside one, so `{{<parent}}{{$block}}` alone on a line is as standalone as `{{$block}}`.
    private static func markStandalone(_ tokens: [Token]) -> [Token] {
        var result: [Token] = []
        result.reserveCapacity(tokens.count)
        var openKinds: [TagKind] = []
        var lineStart = 0
        while lineStart < tokens.count {
            var lineEnd = lineStart
            var tags: [Int] = []
            var parentTags = 0
            while lineEnd < tokens.count {
                defer { lineEnd += 1 }
                switch tokens[lineEnd].kind {
                case .text(let bytes):
                    if bytes.last == 0x0A { break }
                    continue
                case .tag(let kind, _):
                    var closesParent = false
                    switch kind {
                    case .section, .inverted, .block, .parent: openKinds.append(kind)
                    case .close: closesParent = openKinds.popLast() == .parent
                    default: break
                    }
                    if kind == .parent || closesParent { parentTags += 1 } else { tags.append(lineEnd) }
                    continue
                }
                break
            }
            let line = tokens[lineStart..<lineEnd]
            let blank = line.allSatisfy { token in
                if case .text(let bytes) = token.kind { isBlank(bytes) } else { true }
            }
            let standalone: Bool = blank && (tags.count == 1 ? tokens[tags[0]].isStandaloneKind : tags.isEmpty && parentTags > 0)
            var first = true
            for var token in line {
                if standalone {
                    guard case .tag = token.kind else { continue }
                    token.standalone = true
                    if case .text(let leading) = line.first!.kind { token.indentation = leading.filter { $0 == 0x20 || $0 == 0x09 } }
                } else {
                    token.startsLine = first
                    first = false
                }
                result.append(token)
            }
            lineStart = lineEnd
        }
        return result
    }

    /// Spaces and tabs, then nothing, `\n` or `\r\n`.
    private static func isBlank(_ bytes: [UInt8]) -> Bool {
        var end = bytes.count
        if end > 0, bytes[end - 1] == 0x0A { end -= 1; if end > 0, bytes[end - 1] == 0x0D { end -= 1 } }
        return bytes[..<end].allSatisfy { $0 == 0x20 || $0 == 0x09 }
    }

    // MARK: tree

    /// Deeper than any real template nests; a template nested deeper is an error, not a crash
    /// (parsing and rendering recurse once per level).
    static let maximumNesting = 100

    private static func nest(_ tokens: [Token], from index: inout Int, closing: (name: String, line: Int)?,
                             depth: Int = 0) throws(TemplateError) -> [TemplateNode] {
        if let closing, depth > maximumNesting {
            throw TemplateError(line: closing.line, message: "sections nested more than \(maximumNesting) deep")
        }
        var nodes: [TemplateNode] = []
        while index < tokens.count {
            let token = tokens[index]
            index += 1
            switch token.kind {
            case .text(let bytes):
                nodes.append(TemplateNode(kind: .text(bytes), startsLine: token.startsLine))
            case .tag(let kind, let name):
                switch kind {
                case .comment, .delimiters:
                    // Nothing to render, but a comment may still start a line that has text after it.
                    if token.startsLine { nodes.append(TemplateNode(kind: .text([]), startsLine: true)) }
                case .value(let escaped):
                    nodes.append(TemplateNode(kind: .value(try path(name, line: token.line), escaped: escaped),
                                              startsLine: token.startsLine))
                case .section, .inverted:
                    let children = try nest(tokens, from: &index, closing: (name, token.line), depth: depth + 1)
                    nodes.append(TemplateNode(kind: .section(try path(name, line: token.line), inverted: kind == .inverted,
                                                             children), startsLine: token.startsLine))
                case .block:
                    let children = try nest(tokens, from: &index, closing: (name, token.line), depth: depth + 1)
                    nodes.append(TemplateNode(kind: .block(name, children, standalone: token.standalone,
                                                           indentation: token.indentation), startsLine: token.startsLine))
                case .parent:
                    let children = try nest(tokens, from: &index, closing: (name, token.line), depth: depth + 1)
                    var blocks: [String: [TemplateNode]] = [:]
                    for child in children {
                        if case .block(let blockName, let content, _, let indentation) = child.kind {
                            blocks[blockName] = TemplateNode.removingIndentation(indentation, from: content)
                        }
                    }
                    nodes.append(TemplateNode(kind: .parent(name, blocks: blocks, indentation: token.indentation, line: token.line),
                                              startsLine: token.startsLine))
                case .partial:
                    nodes.append(TemplateNode(kind: .partial(name, indentation: token.indentation, line: token.line),
                                              startsLine: token.startsLine))
                case .close:
                    guard let closing else {
                        throw TemplateError(line: token.line, message: "{{/\(name)}} closes no section")
                    }
                    guard closing.name == name else {
                        throw TemplateError(line: token.line,
                                            message: "{{/\(name)}} closes {{#\(closing.name)}} of line \(closing.line)")
                    }
                    return nodes
                }
            }
        }
        if let closing { throw TemplateError(line: closing.line, message: "{{#\(closing.name)}} is never closed") }
        return nodes
    }

    private static func path(_ name: String, line: Int) throws(TemplateError) -> TemplatePath {
        if name == "." { return .current }
        let names = name.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard !names.contains(where: \.isEmpty) else { throw TemplateError(line: line, message: "bad name “\(name)”") }
        return .names(names)
    }
}

/// A template that does not parse: the line and what is wrong.
public struct TemplateError: Error, Sendable {
    public let line: Int?
    public let message: String
}

private extension String {
    func trimmingBlanks() -> String {
        let blanks: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        guard let first = firstIndex(where: { !blanks($0) }), let last = lastIndex(where: { !blanks($0) }) else { return "" }
        return String(self[first...last])
    }
}
