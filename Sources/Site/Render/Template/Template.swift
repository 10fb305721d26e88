/// A parsed Mustache template: a tree of nodes, rendered by `TemplateLibrary`.
public struct Template: Sendable {
    let nodes: [TemplateNode]

    /// Parses `text`; a template that does not parse is an error with its line.
    public init(_ text: String) throws(TemplateError) {
        self = try TemplateParser.parse(text)
    }

    init(nodes: [TemplateNode]) { self.nodes = nodes }

    /// The partials and parents it uses, with their lines, for checking them up front.
    public var references: [(name: String, line: Int, tag: String)] {
        var names: [(name: String, line: Int, tag: String)] = []
        func collect(_ nodes: [TemplateNode]) {
            for node in nodes {
                switch node.kind {
                case .partial(let name, _, let line): names.append((name, line, "{{> \(name)}}"))
                case .parent(let name, let blocks, _, let line):
                    names.append((name, line, "{{< \(name)}}"))
                    blocks.values.forEach(collect)
                case .section(_, _, let children), .block(_, let children, _, _): collect(children)
                case .text, .value: break
                }
            }
        }
        collect(nodes)
        return names
    }
}

/// `{{.}}` or a dotted name.
enum TemplatePath: Sendable {
    case current
    case names([String])
}

struct TemplateNode: Sendable {
    enum Kind: Sendable {
        case text([UInt8])
        case value(TemplatePath, escaped: Bool)
        case section(TemplatePath, inverted: Bool, [TemplateNode])
        case partial(String, indentation: [UInt8], line: Int)
        /// `{{<name}}`: the named template, with these blocks in place of its own.
        case parent(String, blocks: [String: [TemplateNode]], indentation: [UInt8], line: Int)
        /// `{{$name}}default{{/name}}`.
        case block(String, [TemplateNode], standalone: Bool, indentation: [UInt8])
    }
    var kind: Kind
    /// First on its line: an indented partial puts its indentation here.
    var startsLine: Bool

    /// An override's own indentation comes off; the block it replaces puts its own on (spec: "Block reindentation").
    static func removingIndentation(_ indentation: [UInt8], from nodes: [TemplateNode]) -> [TemplateNode] {
        guard !indentation.isEmpty else { return nodes }
        return nodes.map { node in
            var node = node
            switch node.kind {
            case .text(let bytes) where node.startsLine && bytes.starts(with: indentation):
                node.kind = .text(Array(bytes.dropFirst(indentation.count)))
            case .section(let path, let inverted, let children):
                node.kind = .section(path, inverted: inverted, removingIndentation(indentation, from: children))
            default:
                break
            }
            return node
        }
    }
}
