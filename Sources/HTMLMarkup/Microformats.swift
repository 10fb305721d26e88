import Foundation

/// microformats2 (https://microformats.org/wiki/microformats2-parsing), read only as far as
/// Webmention needs: root `h-*` items with their `p-`, `u-`, `dt-` and `e-` properties, nested
/// items (as properties and as children), the value-class pattern's plain form, and the implied
/// `name`, `photo` and `url`. No backward-compatible (classic microformats) parsing, no `rels`.
///
/// Our own because no Swift mf2 library exists in the package mirror; it reads the page through
/// the project's one tokenizer (`HTMLNode` over `HTMLTokenizer`), and `MicroformatsTests` check it
/// differentially against mf2py on the microformats test suite's cases and on real pages.
///
/// ```swift
/// let items = Microformats.parse(html, base: "https://a.example/post")
/// items.first?.types                     // ["h-entry"]
/// items.first?.text("name")              // "Hello"
/// ```
public enum Microformats {
    /// One item (`h-entry`, `h-card`…).
    public struct Item: Sendable, Equatable {
        public var types: [String]
        public var properties: [String: [Value]]
        public var children: [Item]
        /// Set when the item is a property's value: that property's plain reading.
        public var value: String?
        /// The properties the parser implied (`name`, `photo`, `url`), not written on the page.
        public var implied: Set<String> = []

        /// The first value of `property` as text (an item's `value`, an `e-` property's text).
        public func text(_ property: String) -> String? { properties[property]?.first?.text }

        public func items(_ property: String) -> [Item] {
            properties[property, default: []].compactMap { if case .item(let item) = $0 { item } else { nil } }
        }

        public func has(_ type: String) -> Bool { types.contains(type) }
    }

    public enum Value: Sendable, Equatable {
        case text(String)
        /// A `u-` property from an `<img>` with an `alt`.
        case image(url: String, alt: String)
        /// An `e-` property: its HTML (as written, not sanitized) and its text.
        case html(html: String, text: String)
        case item(Item)

        public var text: String {
            switch self {
            case .text(let text): text
            case .image(let url, _): url
            case .html(_, let text): text
            case .item(let item): item.value ?? ""
            }
        }
    }

    /// The top-level items of a page. `base` is the page's URL (its `<base href>`, when it has
    /// one, is resolved against it): relative `u-` values are resolved against the result.
    public static func parse(_ html: String, base: String) -> [Item] {
        let root = HTMLNode.parse(html, options: .webmention)
        var baseURL = URL(string: base)
        if let tag = root.descendants().first(where: { $0.name == "base" && $0.attribute("href") != nil }),
           let href = tag.attribute("href"), let resolved = URL(string: href.trimmingCharacters(in: .whitespaces), relativeTo: baseURL) {
            baseURL = resolved.absoluteURL
        }
        let parser = Parser(base: baseURL, budget: Budget())
        return parser.items(under: root)
    }

    /// At most this many property classes of one element are read (the first ones, `p-`, `u-`,
    /// `dt-`, `e-` in that order): a page cannot make one element's value count thousands of times.
    public static let maximumPropertiesPerElement = 16
    /// At most this many property values in one document; past them, properties are not read.
    public static let maximumPropertyValues = 4_096
    /// At most this many characters copied into values (text and `e-` HTML) in one document:
    /// nested `e-`/`p-` elements each copy what is below them, so a deep page would copy its
    /// whole size once per level. Past the budget, values are empty.
    public static let maximumValueCharacters = 8 << 20
    /// At most this many nodes visited by the walks that read values (text, HTML, value classes)
    /// in one document: nested properties each walk what is below them, so a deep page would be
    /// walked once per level. A value whose walk does not fit is empty.
    public static let maximumVisits = 2_000_000

    /// What one parse may still produce (see the limits above).
    final class Budget {
        var values = Microformats.maximumPropertyValues
        var characters = Microformats.maximumValueCharacters
        var visits = Microformats.maximumVisits
        /// Each element's root types, as read once (`Parser.rootTypes`).
        var rootTypes: [ObjectIdentifier: [String]] = [:]
        /// Each node's count of nodes, itself included.
        var sizes: [ObjectIdentifier: Int] = [:]

        func size(_ node: HTMLNode) -> Int {
            let key = ObjectIdentifier(node)
            if let known = sizes[key] { return known }
            let total = node.children.reduce(1) { $0 + size($1) }
            sizes[key] = total
            return total
        }

        /// Whether `walks` walks of `node`'s subtree fit in what is left (then charged for them).
        func walk(_ node: HTMLNode, _ walks: Int) -> Bool {
            let cost = size(node) * walks
            guard visits >= cost else { return false }
            visits -= cost
            return true
        }

        /// `text` when the budget still has room (then charged for it), else "".
        func charge(_ text: @autoclosure () -> String) -> String {
            guard characters > 0 else { return "" }
            let text = text()
            characters -= text.utf8.count
            return text
        }
    }

    struct Parser {
        let base: URL?
        let budget: Budget

        /// Root classes: `h-` then lower-case letters and digits in `-`-separated runs. Read
        /// once per element: the value-class and implied-property walks ask again and again.
        func rootTypes(_ node: HTMLNode) -> [String] {
            let key = ObjectIdentifier(node)
            if let known = budget.rootTypes[key] { return known }
            let types = node.classes.filter { Self.isName($0, prefix: "h-") }.sorted()
            budget.rootTypes[key] = types
            return types
        }

        static func isName(_ name: String, prefix: String) -> Bool {
            guard name.hasPrefix(prefix) else { return false }
            let rest = name.dropFirst(prefix.count)
            guard !rest.isEmpty, rest.first != "-", rest.last != "-" else { return false }
            return rest.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" }
                && rest.contains { ("a"..."z").contains($0) }
        }

        /// The items found below `node` without being inside another item.
        func items(under node: HTMLNode) -> [Item] {
            var found: [Item] = []
            for child in node.elementChildren {
                if !rootTypes(child).isEmpty { found.append(item(child)) } else { found += items(under: child) }
            }
            return found
        }

        func item(_ node: HTMLNode) -> Item {
            var item = Item(types: rootTypes(node), properties: [:], children: [], value: nil)
            var explicit = Set<String>()   // prefixes seen: "p-", "u-", "e-", "dt-"
            var nested = false
            collect(under: node, into: &item, explicit: &explicit, nested: &nested)
            if item.properties["name"] == nil, !explicit.contains("p-"), !explicit.contains("e-"), !nested {
                item.properties["name"] = [.text(impliedName(node))]
                item.implied.insert("name")
            }
            if item.properties["photo"] == nil, !explicit.contains("u-"), !nested, let photo = impliedPhoto(node) {
                item.properties["photo"] = [photo]
                item.implied.insert("photo")
            }
            if item.properties["url"] == nil, !explicit.contains("u-"), !nested, let url = impliedURL(node) {
                item.properties["url"] = [.text(url)]
                item.implied.insert("url")
            }
            return item
        }

        /// Properties of the item at the root of the walk, from the elements below `node`;
        /// nested items are read whole and not walked into.
        func collect(under node: HTMLNode, into item: inout Item, explicit: inout Set<String>, nested: inout Bool) {
            for child in node.elementChildren {
                let classes = child.classes
                let types = classes.filter { Self.isName($0, prefix: "h-") }.sorted()
                // Each prefix's names, the first `maximumPropertiesPerElement` in all; each
                // prefix's value is computed once and shared by its names.
                var names: [(prefix: String, names: [String])] = []
                var count = 0
                for prefix in ["p-", "u-", "dt-", "e-"] where count < Microformats.maximumPropertiesPerElement {
                    var found: [String] = []
                    for name in classes where count < Microformats.maximumPropertiesPerElement && Self.isName(name, prefix: prefix) {
                        found.append(String(name.dropFirst(prefix.count)))
                        count += 1
                    }
                    if !found.isEmpty { names.append((prefix, found)) }
                }
                for (prefix, _) in names { explicit.insert(prefix) }
                if budget.values < count { names = [] } else { budget.values -= count }
                if !types.isEmpty {
                    nested = true
                    var inner = self.item(child)
                    if names.isEmpty {
                        item.children.append(inner)
                    } else {
                        for (prefix, group) in names {
                            inner.value = nestedValue(prefix: prefix, node: child, item: inner)
                            for name in group { item.properties[name, default: []].append(.item(inner)) }
                        }
                    }
                    continue
                }
                for (prefix, group) in names {
                    let shared = value(prefix: prefix, node: child)
                    for name in group { item.properties[name, default: []].append(shared) }
                }
                collect(under: child, into: &item, explicit: &explicit, nested: &nested)
            }
        }

        /// A nested item's `value`: its `name` for `p-`, its `url` for `u-`, else its text.
        func nestedValue(prefix: String, node: HTMLNode, item: Item) -> String {
            switch prefix {
            case "p-": if let name = item.text("name") { return name }
            case "u-": if let url = item.text("url") { return url }
            default: break
            }
            return plainValue(prefix: prefix, node: node)
        }

        func plainValue(prefix: String, node: HTMLNode) -> String {
            switch value(prefix: prefix, node: node) {
            case .text(let text): text
            case .image(let url, _): url
            case .html(_, let text): text
            case .item(let item): item.value ?? ""
            }
        }

        func value(prefix: String, node: HTMLNode) -> Value {
            let name = node.name
            // At most a value-class walk and a text (or HTML and text) walk of the subtree.
            guard budget.walk(node, 2) else { return prefix == "e-" ? .html(html: "", text: "") : .text("") }
            switch prefix {
            case "u-":
                if ["a", "area", "link"].contains(name), let href = node.attribute("href") { return .text(resolve(href)) }
                if name == "img", let src = node.attribute("src") {
                    if let alt = node.attribute("alt") { return .image(url: resolve(src), alt: alt) }
                    return .text(resolve(src))
                }
                if ["audio", "video", "source", "iframe"].contains(name), let src = node.attribute("src") { return .text(resolve(src)) }
                if name == "video", let poster = node.attribute("poster") { return .text(resolve(poster)) }
                if name == "object", let data = node.attribute("data") { return .text(resolve(data)) }
                if let parts = valueClass(node) { return .text(resolve(parts)) }
                if name == "abbr", let title = node.attribute("title") { return .text(resolve(title)) }
                if ["data", "input"].contains(name), let value = node.attribute("value") { return .text(resolve(value)) }
                return .text(resolve(trimmed(budget.charge(node.textContent()))))
            case "dt-":
                if let parts = valueClass(node, dates: true) { return .text(parts) }
                if ["time", "ins", "del"].contains(name), let datetime = node.attribute("datetime") { return .text(datetime) }
                if name == "abbr", let title = node.attribute("title") { return .text(title) }
                if ["data", "input"].contains(name), let value = node.attribute("value") { return .text(value) }
                return .text(trimmed(budget.charge(node.textContent())))
            case "e-":
                return .html(html: trimmed(budget.charge(node.innerHTML)), text: trimmed(budget.charge(node.textContent(images: imageText))))
            default:
                if let parts = valueClass(node) { return .text(parts) }
                if ["abbr", "link"].contains(name), let title = node.attribute("title") { return .text(title) }
                if ["data", "input"].contains(name), let value = node.attribute("value") { return .text(value) }
                if ["img", "area"].contains(name), let alt = node.attribute("alt") { return .text(alt) }
                return .text(trimmed(budget.charge(node.textContent(images: imageText))))
            }
        }

        /// The value-class pattern: the `value` (or `value-title`) children's values, joined.
        /// Dates join a date and a time with a space (the pattern's common form).
        func valueClass(_ node: HTMLNode, dates: Bool = false) -> String? {
            var parts: [String] = []
            func walk(_ node: HTMLNode) {
                for child in node.elementChildren {
                    let classes = child.classes
                    if !rootTypes(child).isEmpty { continue }
                    if classes.contains("value-title"), let title = child.attribute("title") {
                        parts.append(title)
                    } else if classes.contains("value") {
                        let name = child.name
                        if ["img", "area"].contains(name), let alt = child.attribute("alt") {
                            parts.append(alt)
                        } else if ["data"].contains(name), let value = child.attribute("value") {
                            parts.append(value)
                        } else if ["abbr"].contains(name), let title = child.attribute("title") {
                            parts.append(title)
                        } else if dates, ["time", "ins", "del"].contains(name), let datetime = child.attribute("datetime") {
                            parts.append(datetime)
                        } else {
                            parts.append(budget.charge(child.textContent()))
                        }
                    } else {
                        walk(child)
                    }
                }
            }
            walk(node)
            guard !parts.isEmpty else { return nil }
            return dates ? parts.map(trimmed).joined(separator: " ") : parts.joined()
        }

        /// The text an `<img>` stands for in a property's text: its `alt`, else its URL padded with spaces.
        func imageText(_ node: HTMLNode) -> String {
            if let alt = node.attribute("alt") { return alt }
            if let src = node.attribute("src") { return " " + resolve(src) + " " }
            return ""
        }

        // MARK: implied properties

        func impliedName(_ node: HTMLNode) -> String {
            if ["img", "area"].contains(node.name), let alt = node.attribute("alt") { return alt }
            if node.name == "abbr", let title = node.attribute("title") { return title }
            for candidate in [onlyChild(node), onlyChild(node).flatMap(onlyChild)] {
                guard let candidate, rootTypes(candidate).isEmpty else { continue }
                if ["img", "area"].contains(candidate.name), let alt = candidate.attribute("alt"), !alt.isEmpty { return alt }
                if candidate.name == "abbr", let title = candidate.attribute("title"), !title.isEmpty { return title }
            }
            guard budget.walk(node, 1) else { return "" }
            return trimmed(budget.charge(node.textContent(images: imageText)))
        }

        func impliedPhoto(_ node: HTMLNode) -> Value? {
            func photo(_ node: HTMLNode) -> Value? {
                if node.name == "img", let src = node.attribute("src") {
                    if let alt = node.attribute("alt") { return .image(url: resolve(src), alt: alt) }
                    return .text(resolve(src))
                }
                if node.name == "object", let data = node.attribute("data") { return .text(resolve(data)) }
                return nil
            }
            if let found = photo(node) { return found }
            if let only = onlyChild(node, of: ["img"]) ?? onlyChild(node, of: ["object"]), rootTypes(only).isEmpty,
               let found = photo(only) { return found }
            if let child = onlyChild(node), rootTypes(child).isEmpty,
               let only = onlyChild(child, of: ["img"]) ?? onlyChild(child, of: ["object"]), rootTypes(only).isEmpty,
               let found = photo(only) { return found }
            return nil
        }

        func impliedURL(_ node: HTMLNode) -> String? {
            if ["a", "area"].contains(node.name), let href = node.attribute("href") { return resolve(href) }
            if let only = onlyChild(node, of: ["a"]) ?? onlyChild(node, of: ["area"]), rootTypes(only).isEmpty,
               let href = only.attribute("href") { return resolve(href) }
            if let child = onlyChild(node), rootTypes(child).isEmpty,
               let only = onlyChild(child, of: ["a"]) ?? onlyChild(child, of: ["area"]), rootTypes(only).isEmpty,
               let href = only.attribute("href") { return resolve(href) }
            return nil
        }

        /// The only element child.
        func onlyChild(_ node: HTMLNode) -> HTMLNode? {
            let children = node.elementChildren
            return children.count == 1 ? children[0] : nil
        }

        /// The only element child among those named `names`.
        func onlyChild(_ node: HTMLNode, of names: Set<String>) -> HTMLNode? {
            let matching = node.elementChildren.filter { names.contains($0.name) }
            return matching.count == 1 ? matching[0] : nil
        }

        func resolve(_ url: String) -> String {
            let url = url.trimmingCharacters(in: .whitespacesAndNewlines)
            if url.isEmpty, let base { return base.absoluteString }  // "" is the page itself
            guard let base, let resolved = URL(string: url, relativeTo: base) else { return url }
            return resolved.absoluteString
        }

        func trimmed(_ text: String) -> String { text.trimmingCharacters(in: .whitespacesAndNewlines) }
    }
}
