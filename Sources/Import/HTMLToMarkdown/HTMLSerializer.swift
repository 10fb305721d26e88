/// Writes a tree back as HTML, for what stays raw HTML inside the Markdown. The output never
/// holds a blank line (it would end a Markdown HTML block): whitespace runs with line breaks
/// become one line break, and blank lines inside `<pre>` are written as `&#10;`.
enum HTMLSerializer {
    static func html(_ element: HTMLElement) -> String {
        var output = ""
        write(element, into: &output, preformatted: false)
        return output
    }

    static func html(children element: HTMLElement) -> String {
        var output = ""
        for child in element.children { write(child, into: &output, preformatted: element.name == "pre") }
        return output
    }

    static func startTag(_ element: HTMLElement) -> String {
        var tag = "<" + element.name
        for attribute in element.attributes {
            tag += " " + attribute.name
            tag += "=\"" + escape(attribute.value, attribute: true) + "\""
        }
        return tag + ">"
    }

    static func endTag(_ element: HTMLElement) -> String { "</\(element.name)>" }

    private static func write(_ node: HTMLNode, into output: inout String, preformatted: Bool) {
        switch node {
        case .text(let text):
            output += preformatted ? keepLines(escape(text, attribute: false)) : foldBlankLines(escape(text, attribute: false))
        case .comment(let text):
            output += "<!--" + foldBlankLines(text) + "-->"
        case .element(let element):
            write(element, into: &output, preformatted: preformatted)
        }
    }

    private static func write(_ element: HTMLElement, into output: inout String, preformatted: Bool) {
        output += startTag(element)
        if HTMLElementNames.void.contains(element.name) { return }
        if element.name == "script" || element.name == "style" {
            // Raw text: no escaping; blank lines dropped (they carry no meaning there).
            output += foldBlankLines(element.children.map { if case .text(let text) = $0 { text } else { "" } }.joined())
        } else {
            let inner = preformatted || element.name == "pre" || element.name == "textarea"
            for child in element.children { write(child, into: &output, preformatted: inner) }
        }
        output += endTag(element)
    }

    /// By Unicode scalar, not by character: a `"` followed by a combining mark is one Swift
    /// character but still ends an attribute value for a browser.
    static func escape(_ text: String, attribute: Bool) -> String {
        var output = ""
        output.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": output += "&amp;"
            case "<": output += "&lt;"
            case ">": output += "&gt;"
            case "\"" where attribute: output += "&quot;"
            case "\n" where attribute: output += "&#10;"
            default: output.unicodeScalars.append(scalar)
            }
        }
        return output
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
