/// A value a template can show. Contexts are built from strings, numbers, booleans, optionals,
/// arrays and `[String: any TemplateValue]` dictionaries; every lookup is a protocol call, with
/// no reflection and no dynamic casts (swift-mustache's `Mirror` and `as?` per `{{name}}` were a
/// third of a build's CPU).
public protocol TemplateValue: Sendable {
    /// `name` inside this value (`{{a.name}}`, or a name looked up through the context stack).
    func member(_ name: String) -> (any TemplateValue)?
    /// How `{{#value}}` treats it.
    var section: TemplateSection { get }
    /// What `{{value}}` shows, before escaping.
    var text: String { get }
    /// Calls `body` for each item of a list (only called when `section` is `.list`).
    func forEachItem(_ body: (any TemplateValue) throws -> Void) rethrows
}

/// Mustache's truthiness: `false`, nil and empty lists hide a section; lists repeat it; anything
/// else (an empty string and `0` included, as in swift-mustache before) shows it once with the
/// value on top of the context stack.
public enum TemplateSection: Sendable {
    case hidden, once, list
}

extension TemplateValue {
    public func member(_ name: String) -> (any TemplateValue)? { nil }
    public var section: TemplateSection { .once }
    public func forEachItem(_ body: (any TemplateValue) throws -> Void) rethrows {}
}

extension String: TemplateValue {
    public var text: String { self }
}

extension Int: TemplateValue {
    public var text: String { String(self) }
}

extension Double: TemplateValue {
    public var text: String { String(describing: self) }
}

extension Bool: TemplateValue {
    public var section: TemplateSection { self ? .once : .hidden }
    public var text: String { self ? "true" : "false" }
}

extension Optional: TemplateValue where Wrapped: TemplateValue {
    public func member(_ name: String) -> (any TemplateValue)? { self?.member(name) }
    public var section: TemplateSection { self?.section ?? .hidden }
    public var text: String { self?.text ?? "" }
    public func forEachItem(_ body: (any TemplateValue) throws -> Void) rethrows { try self?.forEachItem(body) }
}

extension Array: TemplateValue where Element: TemplateValue {
    public var section: TemplateSection { isEmpty ? .hidden : .list }
    public var text: String { "[" + map(\.text).joined(separator: ", ") + "]" }
    public func forEachItem(_ body: (any TemplateValue) throws -> Void) rethrows {
        for item in self { try body(item) }
    }
}

extension Dictionary: TemplateValue where Key == String, Value == any TemplateValue {
    public func member(_ name: String) -> (any TemplateValue)? { self[name] }
    public var text: String { "[" + keys.sorted().joined(separator: ", ") + "]" }
}

