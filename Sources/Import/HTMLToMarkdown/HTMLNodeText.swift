import HTMLMarkup

/// The converter's reading of an element's text, which differs from mf2's (`textContent`):
/// `<br>` is a line break and scripts are kept unless `skip` says otherwise.
extension HTMLNode {
    /// The text inside, in order (no whitespace folding): `<br>` as a line break, the elements
    /// `skip` picks left out, and with `spacedBlocks` a space around each block element (so
    /// words do not run together).
    func text(spacedBlocks: Bool = false, skip: (HTMLNode) -> Bool = { _ in false }) -> String {
        var text = ""
        func walk(_ element: HTMLNode) {
            for child in element.children {
                switch child.kind {
                case .text(let value): text += value
                case .comment: continue
                case .element(let name):
                    if name == "br" { text += "\n"; continue }
                    if skip(child) { continue }
                    let spaced = spacedBlocks && HTMLElementNames.block.contains(name)
                    if spaced { text += " " }
                    walk(child)
                    if spaced { text += " " }
                }
            }
        }
        walk(self)
        return text
    }

    /// Whether only whitespace text (and comments) is inside.
    var isBlank: Bool {
        children.allSatisfy { node in
            switch node.kind {
            case .text(let text): text.allSatisfy(\.isWhitespace)
            case .comment: true
            case .element: false
            }
        }
    }
}
