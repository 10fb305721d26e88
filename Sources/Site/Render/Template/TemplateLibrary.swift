import BlogModel

/// Named templates that render each other as partials and parents.
///
/// Output goes into one byte buffer; `{{value}}` is escaped by UTF-8 byte (by Unicode scalar:
/// see `HTMLText.appendEscaped`), so a quote followed by a combining mark still ends nothing.
public struct TemplateLibrary: Sendable {
    /// Deeper than any real theme nests; a partial that includes itself stops here instead of
    /// exhausting the stack.
    public static let maximumDepth = 64

    private var templates: [String: Template] = [:]

    public init() {}

    public mutating func register(_ template: Template, named name: String) { templates[name] = template }

    public func template(named name: String) -> Template? { templates[name] }

    public var names: Dictionary<String, Template>.Keys { templates.keys }

    /// Renders `name` with `context` at the bottom of the context stack.
    public func render(_ context: some TemplateValue, template name: String) throws(TemplateRenderError) -> String {
        guard let template = templates[name] else { throw .unknownTemplate(name) }
        var renderer = Renderer(library: self, stack: [context])
        renderer.output.reserveCapacity(16_384)
        try renderer.render(template.nodes, indentation: [])
        return String(decoding: renderer.output, as: UTF8.self)
    }
}

public enum TemplateRenderError: Error, Sendable, Equatable {
    case unknownTemplate(String)
    /// Partials that include each other without end.
    case tooDeep(String)
}

private struct Renderer {
    let library: TemplateLibrary
    var stack: [any TemplateValue]
    var output: [UInt8] = []
    /// Block overrides in force, innermost parent first consulted last (the outermost one wins).
    var overrides: [[String: [TemplateNode]]] = []
    var depth = 0

    mutating func render(_ nodes: [TemplateNode], indentation: [UInt8]) throws(TemplateRenderError) {
        for node in nodes {
            if node.startsLine, !indentation.isEmpty { output.append(contentsOf: indentation) }
            switch node.kind {
            case .text(let bytes):
                output.append(contentsOf: bytes)
            case .value(let path, let escaped):
                guard let value = lookUp(path) else { continue }
                if escaped { HTMLText.appendEscaped(value.text, to: &output) } else { output.append(contentsOf: value.text.utf8) }
            case .section(let path, let inverted, let children):
                let value = lookUp(path)
                let section = value?.section ?? .hidden
                if inverted {
                    if section == .hidden { try render(children, indentation: indentation) }
                } else if let value, section != .hidden {
                    try renderSection(value, section: section, children: children, indentation: indentation)
                }
            case .partial(let name, let own, _):
                try include(name, indentation: indentation + own, overriding: nil)
            case .parent(let name, let blocks, let own, _):
                try include(name, indentation: indentation + own, overriding: blocks)
            case .block(let name, let defaultNodes, let standalone, let own):
                if let replacement = overrides.last(where: { $0[name] != nil })?[name] {
                    try render(replacement, indentation: standalone ? indentation + own : indentation)
                } else {
                    try render(defaultNodes, indentation: indentation)
                }
            }
        }
    }

    private mutating func renderSection(_ value: any TemplateValue, section: TemplateSection,
                                        children: [TemplateNode], indentation: [UInt8]) throws(TemplateRenderError) {
        if section == .list {
            do {
                try value.forEachItem { item in
                    stack.append(item)
                    defer { stack.removeLast() }
                    try render(children, indentation: indentation)
                }
            } catch let error as TemplateRenderError { throw error } catch { preconditionFailure("\(error)") }
        } else {
            stack.append(value)
            defer { stack.removeLast() }
            try render(children, indentation: indentation)
        }
    }

    private mutating func include(_ name: String, indentation: [UInt8],
                                  overriding blocks: [String: [TemplateNode]]?) throws(TemplateRenderError) {
        // The spec renders an unknown partial as nothing; `Theme.load` refuses one up front.
        guard let template = library.template(named: name) else { return }
        guard depth < TemplateLibrary.maximumDepth else { throw .tooDeep(name) }
        depth += 1
        defer { depth -= 1 }
        // The outermost override wins, so a parent's own blocks go beneath those already in force.
        if let blocks {
            overrides.insert(blocks, at: 0)
            defer { overrides.removeFirst() }
            try render(template.nodes, indentation: indentation)
        } else {
            try render(template.nodes, indentation: indentation)
        }
    }

    /// The first name is looked up from the top of the stack down; the rest only inside what it found.
    private func lookUp(_ path: TemplatePath) -> (any TemplateValue)? {
        guard case .names(let names) = path else { return stack.last }
        var found: (any TemplateValue)?
        for value in stack.reversed() {
            if let member = value.member(names[0]) { found = member; break }
        }
        for name in names.dropFirst() {
            guard let current = found else { return nil }
            found = current.member(name)
        }
        return found
    }
}
