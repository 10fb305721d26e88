import CCmark
import Foundation

/// Gives every heading a unique `id` derived from its text and a self-link (`#`).
///
/// cmark-gfm has no attributes on headings, so a marker comment is put in the tree as the
/// heading's first child and turned into the `id` attribute after rendering.
enum HeadingAnchors {
    private static let markerPrefix = "<!--lectern:id="

    static func insertMarkers(_ document: OpaquePointer) {
        var headings: [OpaquePointer] = []
        let iterator = cmark_iter_new(document)
        defer { cmark_iter_free(iterator) }
        while true {
            let event = cmark_iter_next(iterator)
            if event == CMARK_EVENT_DONE { break }
            if event == CMARK_EVENT_ENTER, let node = cmark_iter_get_node(iterator),
               cmark_node_get_type(node) == CMARK_NODE_HEADING {
                headings.append(node)
            }
        }
        var used: [String: Int] = [:]
        for heading in headings {
            var id = Slug.make(plainText(heading))
            if id.isEmpty { id = "section" }
            if let count = used[id] {
                used[id] = count + 1
                id += "-\(count)"
            } else {
                used[id] = 1
            }
            let marker = cmark_node_new(CMARK_NODE_HTML_INLINE)
            cmark_node_set_literal(marker, "\(markerPrefix)\(id)-->")
            cmark_node_prepend_child(heading, marker)
            let link = cmark_node_new(CMARK_NODE_HTML_INLINE)
            cmark_node_set_literal(link, " <a class=\"anchor\" href=\"#\(id)\" aria-hidden=\"true\">#</a>")
            cmark_node_append_child(heading, link)
        }
    }

    /// `<h2><!--lectern:id=intro-->` → `<h2 id="intro">`.
    static func applyMarkers(_ html: String) -> String {
        guard html.contains(markerPrefix) else { return html }
        var output = ""
        output.reserveCapacity(html.utf8.count)
        var rest = Substring(html)
        while let range = rest.range(of: markerPrefix) {
            guard let end = rest[range.upperBound...].range(of: "-->") else { break }
            let id = rest[range.upperBound..<end.lowerBound]
            var before = rest[..<range.lowerBound]
            if before.hasSuffix(">") { before = before.dropLast() }  // `<h2>` → `<h2`
            output += before
            output += " id=\"\(id)\">"
            rest = rest[end.upperBound...]
        }
        output += rest
        return output
    }

    private static func plainText(_ node: OpaquePointer) -> String {
        var text = ""
        let iterator = cmark_iter_new(node)
        defer { cmark_iter_free(iterator) }
        while true {
            let event = cmark_iter_next(iterator)
            if event == CMARK_EVENT_DONE { break }
            guard event == CMARK_EVENT_ENTER, let child = cmark_iter_get_node(iterator) else { continue }
            let type = cmark_node_get_type(child)
            if type == CMARK_NODE_TEXT || type == CMARK_NODE_CODE, let literal = cmark_node_get_literal(child) {
                text += String(cString: literal)
            }
        }
        return text
    }
}

/// Footnote references make no sense in an excerpt shown without its footnotes.
enum FootnoteStripper {
    static func strip(_ html: String) -> String {
        guard html.contains("<sup class=\"footnote-ref\">") else { return html }
        var output = ""
        var rest = Substring(html)
        while let start = rest.range(of: "<sup class=\"footnote-ref\">") {
            output += rest[..<start.lowerBound]
            guard let end = rest[start.upperBound...].range(of: "</sup>") else { rest = rest[start.lowerBound...]; break }
            rest = rest[end.upperBound...]
        }
        output += rest
        return output
    }
}
