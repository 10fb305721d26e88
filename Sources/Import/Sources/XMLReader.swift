import BlogModel
import Foundation
import HTMLMarkup
import Site

/// Reads a feed's or an export's XML into an `XMLTree`. Our own reader rather than Foundation's
/// `XMLParser`: that one is built on libxml2, which with ICU and liblzma cost every start of
/// `lectern` (a build, a status, a server) 3.5 ms of loading (`--version` 15.7 → 12.2 ms), for
/// the one command that reads XML.
///
/// It reads elements, attributes, text, CDATA sections, comments and processing instructions.
/// The document type declaration is skipped whole: a declared entity is never expanded (a
/// "billion laughs" has nothing to multiply) and nothing external is fetched. What real exports
/// get wrong is forgiven: HTML's entity names (`&nbsp;`, `&eacute;`) and its reading of `&#150;`
/// as Windows-1252 (`–`), a bare `&`, control characters (dropped). A tag closed by another name,
/// text outside the root element, elements nested deeper than `maximumDepth`, or a file that
/// ends inside an element throws, with the line.
struct XMLReader {
    /// libxml2's own limit: no feed nests this deep, and the tree's readers recurse once per level.
    static let maximumDepth = 256

    private let bytes: [UInt8]
    private var position = 0

    static func parse(_ data: Data) throws -> XMLTree {
        var reader = XMLReader(bytes: try utf8(data))
        return try reader.document()
    }

    private init(bytes: [UInt8]) { self.bytes = bytes }

    // MARK: Encoding

    /// The document as UTF-8: by its byte-order mark, else by its declaration's `encoding`.
    static func utf8(_ data: Data) throws -> [UInt8] {
        let bytes = [UInt8](data)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { return try checkedUTF8(Array(bytes.dropFirst(3))) }
        guard let encoding = try otherEncoding(bytes) else { return try checkedUTF8(bytes) }
        guard let text = String(data: data, encoding: encoding) else { throw ImportError.unreadable("not \(encoding) text") }
        return Array(text.utf8)
    }

    /// The encoding of a document not in UTF-8, nil for UTF-8.
    private static func otherEncoding(_ bytes: [UInt8]) throws -> String.Encoding? {
        if bytes.starts(with: [0xFE, 0xFF]) || bytes.starts(with: [0xFF, 0xFE]) { return .utf16 }  // its mark says which
        // UTF-16 without a byte-order mark, told by how `<?` is written.
        if bytes.starts(with: [0x3C, 0x00, 0x3F, 0x00]) { return .utf16LittleEndian }
        if bytes.starts(with: [0x00, 0x3C, 0x00, 0x3F]) { return .utf16BigEndian }
        switch declaredEncoding(bytes) {
        case nil, "utf-8", "utf8", "us-ascii", "ascii": return nil
        case "iso-8859-1", "iso8859-1", "latin1", "latin-1", "iso-latin-1": return .isoLatin1
        case "windows-1252", "cp1252": return .windowsCP1252
        case let name?: throw ImportError.unreadable("the file's encoding \(name) is not supported (convert it to UTF-8)")
        }
    }

    private static func checkedUTF8(_ bytes: [UInt8]) throws -> [UInt8] {
        if String(validating: bytes, as: UTF8.self) != nil { return bytes }
        var decoder = UTF8()
        var iterator = bytes.makeIterator()
        var line = 1
        loop: while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar): if scalar == "\n" { line += 1 }
            case .emptyInput: break loop
            case .error: break loop
            }
        }
        throw ImportError.unreadable("line \(line): not UTF-8 text (declare the file's encoding, or convert it)")
    }

    /// `encoding` of an `<?xml … ?>` declaration at the very start, lowercased.
    private static func declaredEncoding(_ bytes: [UInt8]) -> String? {
        guard bytes.starts(with: Array("<?xml".utf8)), let end = ByteSearch.firstIndex(of: Array("?>".utf8), in: bytes, from: 5) else {
            return nil
        }
        let declaration = String(decoding: bytes[5..<end], as: UTF8.self)
        guard let range = declaration.range(of: "encoding") else { return nil }
        let rest = declaration[range.upperBound...].drop { $0 == " " || $0 == "=" || $0 == "\t" }
        guard let quote = rest.first, quote == "\"" || quote == "'" else { return nil }
        return String(rest.dropFirst().prefix { $0 != quote }).lowercased()
    }

    // MARK: Structure

    private mutating func document() throws -> XMLTree {
        var root: XMLTree?
        var open: [(element: XMLTree, name: String)] = []
        var namespaces = XMLNamespaces()
        var text: [UInt8] = []

        func flush() {
            guard !text.isEmpty else { return }
            open.last?.element.append(text: Self.cleaned(String(decoding: text, as: UTF8.self)))
            text.removeAll(keepingCapacity: true)
        }

        while position < bytes.count {
            if bytes[position] != UInt8(ascii: "<") {
                let start = position
                while position < bytes.count && bytes[position] != UInt8(ascii: "<") { position += 1 }
                let chunk = Self.normalizingNewlines(bytes[start..<position])
                if open.isEmpty {
                    guard chunk.allSatisfy({ Self.isSpace($0) }) else { throw failure("text outside the root element", at: start) }
                } else {
                    text += Array(HTMLEntities.decode(String(decoding: chunk, as: UTF8.self)).utf8)
                }
            } else if has("<!--") {
                position = try end(of: "-->", from: position + 4, what: "a comment")
            } else if has("<![CDATA[") {
                guard !open.isEmpty else { throw failure("a CDATA section outside the root element", at: position) }
                let start = position + 9
                position = try end(of: "]]>", from: start, what: "a CDATA section")
                text += Self.normalizingNewlines(bytes[start..<(position - 3)])
            } else if has("<!") {
                guard root == nil else { throw failure("a declaration inside the document", at: position) }
                try skipDeclaration()
            } else if has("<?") {
                position = try end(of: "?>", from: position + 2, what: "a processing instruction")
            } else if has("</") {
                flush()
                let start = position
                position += 2
                let name = readName()
                skipSpaces()
                guard position < bytes.count, bytes[position] == UInt8(ascii: ">") else {
                    throw failure("the end tag </\(name)> is not closed", at: start)
                }
                position += 1
                guard let current = open.last else { throw failure("</\(name)> closes no element", at: start) }
                guard current.name == name else { throw failure("</\(name)> closes <\(current.name)>", at: start) }
                open.removeLast()
                namespaces.close()
            } else {
                flush()
                let start = position
                let (name, attributes, selfClosing) = try startTag()
                guard root == nil || !open.isEmpty else { throw failure("a second root element <\(name)>", at: start) }
                guard open.count < Self.maximumDepth else {
                    throw failure("elements nested deeper than \(Self.maximumDepth) levels", at: start)
                }
                let element = XMLTree(name: namespaces.open(name, attributes: attributes), attributes: attributes)
                if let parent = open.last { parent.element.append(element: element) } else { root = element }
                if selfClosing { namespaces.close() } else { open.append((element, name)) }
            }
        }
        if let current = open.last { throw ImportError.unreadable("the XML ends inside <\(current.name)> (a truncated file?)") }
        guard let root else { throw ImportError.unreadable("no XML element in the file") }
        return root
    }

    /// `<name attr="value" …>` or `<name … />`, from its `<`.
    private mutating func startTag() throws -> (String, [String: String], Bool) {
        let start = position
        position += 1
        let name = readName()
        guard !name.isEmpty else { throw failure("a '<' that starts no tag", at: start) }
        var attributes: [String: String] = [:]
        while true {
            skipSpaces()
            guard position < bytes.count else { break }
            if bytes[position] == UInt8(ascii: ">") {
                position += 1
                return (name, attributes, false)
            }
            if has("/>") {
                position += 2
                return (name, attributes, true)
            }
            let attribute = readName()
            guard !attribute.isEmpty else { throw failure("an unexpected character in <\(name)>", at: position) }
            skipSpaces()
            guard position < bytes.count, bytes[position] == UInt8(ascii: "=") else {
                throw failure("the attribute \(attribute) of <\(name)> has no value", at: position)
            }
            position += 1
            skipSpaces()
            guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") || bytes[position] == UInt8(ascii: "'") else {
                throw failure("the value of \(attribute) in <\(name)> is not quoted", at: position)
            }
            let quote = bytes[position]
            let valueStart = position + 1
            guard let valueEnd = bytes[valueStart...].firstIndex(of: quote) else { break }
            position = valueEnd + 1
            guard attributes[attribute] == nil else { throw failure("<\(name)> has two \(attribute) attributes", at: start) }
            // XML reads a line break or tab in an attribute value as a space.
            let value = Self.normalizingNewlines(bytes[valueStart..<valueEnd]).map { $0 == 0x0A || $0 == 0x09 ? UInt8(ascii: " ") : $0 }
            attributes[attribute] = Self.cleaned(HTMLEntities.decode(String(decoding: value, as: UTF8.self)))
        }
        throw ImportError.unreadable("the XML ends inside the tag <\(name)> (a truncated file?)")
    }

    /// `<!DOCTYPE …>` with any internal subset in brackets, or another `<!…>` declaration.
    private mutating func skipDeclaration() throws {
        let start = position
        var depth = 0
        var quote: UInt8?
        position += 2
        while position < bytes.count {
            let byte = bytes[position]
            position += 1
            if let open = quote {
                if byte == open { quote = nil }
            } else if depth > 0 && byte == UInt8(ascii: "<") && has("!--", at: position) {
                // A comment or an instruction in the internal subset may hold quotes and brackets.
                position = try end(of: "-->", from: position + 3, what: "a comment")
            } else if depth > 0 && byte == UInt8(ascii: "<") && has("?", at: position) {
                position = try end(of: "?>", from: position + 1, what: "a processing instruction")
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                quote = byte
            } else if byte == UInt8(ascii: "[") {
                depth += 1
            } else if byte == UInt8(ascii: "]") {
                depth -= 1
            } else if byte == UInt8(ascii: ">") && depth <= 0 {
                return
            }
        }
        throw failure("a declaration that never ends", at: start)
    }

    // MARK: Pieces

    private func has(_ literal: StaticString) -> Bool { has(literal, at: position) }

    private func has(_ literal: StaticString, at index: Int) -> Bool {
        let count = literal.utf8CodeUnitCount
        guard index + count <= bytes.count else { return false }
        return literal.withUTF8Buffer { bytes[index..<(index + count)].elementsEqual($0) }
    }

    /// The index after `terminator`, searched from `start`.
    private func end(of terminator: String, from start: Int, what: String) throws -> Int {
        guard let found = ByteSearch.firstIndex(of: Array(terminator.utf8), in: bytes, from: start) else {
            throw failure("\(what) that never ends", at: position)
        }
        return found + terminator.utf8.count
    }

    private mutating func readName() -> String {
        let start = position
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x09, 0x0A, 0x0D, UInt8(ascii: "/"), UInt8(ascii: ">"), UInt8(ascii: "="), UInt8(ascii: "<"),
                 UInt8(ascii: "\""), UInt8(ascii: "'"):
                return String(decoding: bytes[start..<position], as: UTF8.self)
            default: position += 1
            }
        }
        return String(decoding: bytes[start..<position], as: UTF8.self)
    }

    private mutating func skipSpaces() {
        while position < bytes.count && Self.isSpace(bytes[position]) { position += 1 }
    }

    private static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }

    /// XML's line ends: CR LF and a lone CR read as LF.
    private static func normalizingNewlines(_ slice: ArraySlice<UInt8>) -> [UInt8] {
        guard slice.contains(0x0D) else { return Array(slice) }
        var output: [UInt8] = []
        output.reserveCapacity(slice.count)
        var previousWasCR = false
        for byte in slice {
            if byte == 0x0D {
                output.append(0x0A)
            } else if !(byte == 0x0A && previousWasCR) {
                output.append(byte)
            }
            previousWasCR = byte == 0x0D
        }
        return output
    }

    /// Without the control characters XML forbids (exports carry stray ones, literal or as references).
    private static func cleaned(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { $0.value < 0x20 && $0 != "\n" && $0 != "\r" && $0 != "\t" }) else { return text }
        var scalars = text.unicodeScalars
        scalars.removeAll { $0.value < 0x20 && $0 != "\n" && $0 != "\r" && $0 != "\t" }
        return String(scalars)
    }

    private func failure(_ message: String, at index: Int) -> ImportError {
        let line = 1 + bytes[..<min(index, bytes.count)].lazy.filter { $0 == 0x0A }.count
        return ImportError.unreadable("line \(line): \(message)")
    }
}

/// Element names qualified by a short key for their namespace (`content:encoded`, `wp:post_type`,
/// `atom:link`), whatever prefix the file declares: scopes follow the elements' `xmlns` attributes.
struct XMLNamespaces {
    private var scopes: [[String: String]] = [["xml": "http://www.w3.org/XML/1998/namespace"]]

    /// The qualified name of an element opening with `attributes`; its scope stays until `close()`.
    mutating func open(_ name: String, attributes: [String: String]) -> String {
        var scope = scopes[scopes.count - 1]
        for (key, value) in attributes {
            if key == "xmlns" { scope[""] = value } else if key.hasPrefix("xmlns:") { scope[String(key.dropFirst(6))] = value }
        }
        scopes.append(scope)
        let parts = name.split(separator: ":", maxSplits: 1).map(String.init)
        let (prefix, local) = parts.count == 2 ? (parts[0], parts[1]) : ("", parts.first ?? name)
        let namespace = scope[prefix].map(XMLTree.key(forNamespace:)) ?? prefix
        return namespace.isEmpty ? local : "\(namespace):\(local)"
    }

    mutating func close() { scopes.removeLast() }
}
