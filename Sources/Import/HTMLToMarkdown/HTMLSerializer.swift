import HTMLMarkup

/// Writes a tree back as HTML, for what stays raw HTML inside the Markdown. The output never
/// holds a blank line (it would end a Markdown HTML block): whitespace runs with line breaks
/// become one line break, and blank lines inside `<pre>` are written as `&#10;`.
enum HTMLSerializer {
    static func html(_ element: HTMLNode) -> String {
        var output = ""
        write(element, into: &output, preformatted: false)
        return output
    }

    static func html(children element: HTMLNode) -> String {
        var output = ""
        for child in element.children { write(child, into: &output, preformatted: element.name == "pre") }
        return output
    }

    private static func write(_ node: HTMLNode, into output: inout String, preformatted: Bool) {
        switch node.kind {
        case .text(let text):
            let escaped = HTMLNode.escape(text, attribute: false)
            output += preformatted ? keepLines(escaped) : foldBlankLines(escaped)
        case .comment(let text):
            output += "<!--" + foldBlankLines(text) + "-->"
        case .element(let name):
            output += node.startTag
            if HTMLNode.voidElements.contains(name) { return }
            if name == "script" || name == "style" {
                // Raw text: no escaping; blank lines dropped (they carry no meaning there).
                output += foldBlankLines(node.children.map { if case .text(let text) = $0.kind { text } else { "" } }.joined())
            } else {
                let inner = preformatted || name == "pre" || name == "textarea"
                for child in node.children { write(child, into: &output, preformatted: inner) }
            }
            output += node.endTag
        }
    }

    /// Outside `<pre>`, any whitespace run holding line breaks becomes a single line break.
    private static func foldBlankLines(_ text: String) -> String {
        guard text.contains("\n") else { return text }
        var output = ""
        var run = ""
        for character in text {
            if character == " " || character == "\t" || character == "\n" || character == "\r" {
                run.append(character)
            } else {
                if !run.isEmpty { output += run.contains("\n") ? "\n" : run; run = "" }
                output.append(character)
            }
        }
        if !run.isEmpty { output += run.contains("\n") ? "\n" : run }
        return output
    }

    /// Inside `<pre>`: every line kept, an empty line written as a character reference.
    private static func keepLines(_ text: String) -> String {
        var output = ""
        var previousWasNewline = false
        for character in text {
            if character == "\n" && previousWasNewline {
                output += "&#10;"
                previousWasNewline = false  // the reference is content: the next break starts a line again
                continue
            }
            output.append(character)
            previousWasNewline = character == "\n"
        }
        return output
    }
}
