import HTMLMarkup

/// Finds footnotes in the shapes blog software writes them and rewrites the tree so the
/// converter emits Markdown footnotes:
///
/// - references: `<sup><a href="#fn1">1</a></sup>`, `<sup id="fnref:1"><a href="#fn:1">1</a></sup>`,
///   pandoc's `<a href="#fn1" class="footnote-ref"><sup>1</sup></a>`;
/// - definitions: the `<li id="fn1">` items they point to (or markdown-it/Eleventy's
///   `<div id="1" class="footnote-item">`), usually in `<section class="footnotes">`
///   or `<div class="footnotes">` after an `<hr>`, each ending with a back link (`↩`).
///
/// References become `<lectern-fnref label="1">`, the definitions move (back links removed) into
/// one `<lectern-footnotes>` element at the end, and the emptied container goes.
enum Footnotes {
    static let referenceName = "lectern-fnref"
    static let definitionsName = "lectern-footnotes"

    static func rewrite(_ root: HTMLNode) {
        var targets: [String: HTMLNode] = [:]
        var parents: [ObjectIdentifier: HTMLNode] = [:]
        func index(_ element: HTMLNode) {
            for child in element.elementChildren {
                parents[ObjectIdentifier(child)] = element
                if let id = child.attribute("id"), !id.isEmpty, isDefinition(child, parent: element) { targets[id] = child }
                index(child)
            }
        }
        index(root)
        guard !targets.isEmpty else { return }

        // References in document order; each definition gets the label of its first reference.
        var labels: [ObjectIdentifier: String] = [:]
        var order: [HTMLNode] = []
        var usedLabels = Set<String>()
        for anchor in root.descendants() where anchor.name == "a" {
            guard let href = anchor.attribute("href"), href.hasPrefix("#"),
                  let target = targets[String(href.dropFirst())], isReference(anchor, parent: parents[ObjectIdentifier(anchor)]) else {
                continue
            }
            let label: String
            if let existing = labels[ObjectIdentifier(target)] {
                label = existing
            } else {
                label = makeLabel(anchor.text(), taken: usedLabels, fallback: order.count + 1)
                usedLabels.insert(label)
                labels[ObjectIdentifier(target)] = label
                order.append(target)
            }
            let reference = HTMLNode(.element(referenceName), attributes: [HTMLAttribute(name: "label", value: label)])
            // Replace the <sup> when the link is all it holds, else the link itself.
            if let parent = parents[ObjectIdentifier(anchor)], parent.name == "sup", parent.elementChildren.count == 1,
               parent.children.allSatisfy({ if case .text(let text) = $0.kind { text.allSatisfy(\.isWhitespace) } else { true } }),
               let grand = parents[ObjectIdentifier(parent)] {
                replace(parent, with: reference, in: grand)
            } else if let parent = parents[ObjectIdentifier(anchor)] {
                replace(anchor, with: reference, in: parent)
            }
        }
        guard !order.isEmpty else { return }

        let definitions = HTMLNode(.element(definitionsName))
        for target in order {
            removeBackLinks(in: target)
            target.attributes = [HTMLAttribute(name: "label", value: labels[ObjectIdentifier(target)]!)]
            definitions.children.append(target)
            if let list = parents[ObjectIdentifier(target)] {
                list.children.removeAll { $0 === target }
                removeIfEmpty(list, parents: parents)
            }
        }
        root.children.append(definitions)
    }

    /// What a reference may point to: a list item (most generators), or another element that
    /// says it is a note (markdown-it/Eleventy's `<div id="1" class="footnote-item">`,
    /// `role="doc-endnote"`) or sits in a footnotes container.
    private static func isDefinition(_ element: HTMLNode, parent: HTMLNode) -> Bool {
        if element.name == "li" { return true }
        guard !HTMLNode.voidElements.contains(element.name), element.name != "a", element.name != "sup" else { return false }
        let role = element.attribute("role") ?? ""
        return element.classes.contains { $0.hasPrefix("footnote") } || role == "doc-endnote" || role == "doc-footnote"
            || isFootnoteContainer(parent)
    }

    /// A link to a list item counts as a footnote reference when it is, or sits in, a `<sup>`,
    /// or says so (`class="footnote-ref"`, `role="doc-noteref"`, `rel="footnote"`).
    private static func isReference(_ anchor: HTMLNode, parent: HTMLNode?) -> Bool {
        if parent?.name == "sup" { return true }
        if anchor.elementChildren.count == 1, anchor.elementChildren[0].name == "sup" { return true }
        let marks = (anchor.attribute("class") ?? "") + " " + (anchor.attribute("role") ?? "") + " " + (anchor.attribute("rel") ?? "")
        return marks.contains("footnote") || marks.contains("noteref")
    }

    private static func makeLabel(_ text: String, taken: Set<String>, fallback: Int) -> String {
        let cleaned = String(text.filter { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" })
        if !cleaned.isEmpty, cleaned.count <= 20, !taken.contains(cleaned) { return cleaned }
        var number = fallback
        while taken.contains(String(number)) { number += 1 }
        return String(number)
    }

    private static func replace(_ old: HTMLNode, with new: HTMLNode, in parent: HTMLNode) {
        if let index = parent.children.firstIndex(where: { $0 === old }) {
            parent.children[index] = new
        }
    }

    /// Back links: to `#fnref…`, marked as such, or just an arrow.
    private static func removeBackLinks(in element: HTMLNode) {
        element.children.removeAll { child in
            guard child.name == "a" else { return false }
            let href = child.attribute("href") ?? ""
            let marks = (child.attribute("class") ?? "") + " " + (child.attribute("role") ?? "") + " " + (child.attribute("rev") ?? "")
            let text = child.text().trimmingCharacters(in: .whitespaces)
            return href.contains("fnref") || marks.contains("backref") || marks.contains("reversefootnote")
                || marks.contains("backlink") || marks.contains("footnote-return") || marks.contains("footnote")
                || ["↩", "↩︎", "↩\u{FE0E}", "↑", "^", "⏎"].contains(text)
        }
        for child in element.elementChildren { removeBackLinks(in: child) }
    }

    /// Removes the emptied list and, going up, containers left with nothing (or only a rule).
    private static func removeIfEmpty(_ element: HTMLNode, parents: [ObjectIdentifier: HTMLNode]) {
        let container = isFootnoteContainer(element)
        let empty = element.children.allSatisfy { node in
            switch node.kind {
            case .text(let text): return text.allSatisfy(\.isWhitespace)
            case .comment: return true
            case .element(let name): return container && name == "hr"
            }
        }
        guard empty, let parent = parents[ObjectIdentifier(element)],
              let index = parent.children.firstIndex(where: { $0 === element }) else { return }
        parent.children.remove(at: index)
        // The rule markdown-it writes before the footnotes (`<hr class="footnotes-sep">`) goes with them.
        if container, let rule = parent.children[..<index].lastIndex(where: { node in
            if case .text(let text) = node.kind { return !text.allSatisfy(\.isWhitespace) }
            if case .comment = node.kind { return false }
            return true
        }), parent.children[rule].name == "hr" {
            parent.children.remove(at: rule)
        }
        removeIfEmpty(parent, parents: parents)   // up to the root, which has no parent
    }

    private static func isFootnoteContainer(_ element: HTMLNode) -> Bool {
        element.classes.contains { $0.hasPrefix("footnotes") } || element.attribute("id") == "footnotes"
            || element.attribute("role") == "doc-endnotes"
    }
}
