import BlogModel
import CCmark
import Foundation

/// Gives every heading a unique `id` derived from its text and a self-link (`#`).
///
/// cmark-gfm has no attributes on headings, so a marker comment is put in the tree as the
/// heading's first child and turned into the `id` attribute after rendering.
enum HeadingAnchors {
    private static let markerPrefix = "<!--lectern:id="

    /// The HTML without the headings' `#` self-links: feed readers show them as stray `#`s.
    static func removingSelfLinks(_ html: String) -> String {
        HTMLText.removing(html, from: " <a class=\"anchor\" ", through: "</a>")
    }

    static func insertMarkers(_ document: OpaquePointer) {
        let headings = CmarkNodes.all([CMARK_NODE_HEADING.rawValue], in: document)
        var used: [String: Int] = [:]
        for heading in headings {
            var id = Slug.make(CmarkNodes.text(of: heading))
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
    /// Works on the UTF-8 bytes in one pass (Foundation's string search made this 13 % of a build).
    static func applyMarkers(_ html: String) -> String {
        let marker = Array(markerPrefix.utf8)
        var html = html
        return html.withUTF8 { bytes -> String in
            var output: [UInt8] = []
            var copied = 0
            var index = 0
            let count = bytes.count
            while index + marker.count <= count {
                guard bytes[index] == 0x3C, bytes[index + 1] == 0x21,
                      zip(marker, bytes[index..<(index + marker.count)]).allSatisfy({ $0 == $1 }) else { index += 1; continue }
                let idStart = index + marker.count
                var idEnd = idStart
                while idEnd + 2 < count, !(bytes[idEnd] == 0x2D && bytes[idEnd + 1] == 0x2D && bytes[idEnd + 2] == 0x3E) { idEnd += 1 }
                guard idEnd + 2 < count else { break }
                if output.isEmpty { output.reserveCapacity(count) }
                // `<h2><!--lectern:id=intro-->` → `<h2 id="intro">`: drop the `>` before the marker.
                let before = index > copied && bytes[index - 1] == 0x3E ? index - 1 : index
                output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[copied..<before]))
                output.append(contentsOf: Array(" id=\"".utf8))
                output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[idStart..<idEnd]))
                output.append(contentsOf: Array("\">".utf8))
                index = idEnd + 3
                copied = index
            }
            guard copied > 0 else { return String(decoding: bytes, as: UTF8.self) }
            output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[copied...]))
            return String(decoding: output, as: UTF8.self)
        }
    }
}

/// Footnote references make no sense in an excerpt shown without its footnotes.
enum FootnoteStripper {
    static func strip(_ html: String) -> String {
        HTMLText.removing(html, from: "<sup class=\"footnote-ref\">", through: "</sup>")
    }
}
