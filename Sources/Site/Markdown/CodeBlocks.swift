import BlogModel
import CCmark
import SyntaxHighlight

/// Fenced code blocks with a language are highlighted at build time: each such block in the
/// parsed document is replaced by the highlighter's HTML (`<span class="hl-…">` tokens), so
/// pages need no JavaScript. A language the highlighter does not know is left to cmark-gfm,
/// which escapes it as plain text. Hugo's fence options work: ```` ```swift {hl_lines=[2] linenos=true} ````.
enum CodeBlocks {
    static func highlight(_ document: OpaquePointer) {
        let blocks = CmarkNodes.all([CMARK_NODE_CODE_BLOCK.rawValue], in: document).filter { node in
            cmark_node_get_fence_info(node).map { $0.pointee != 0 } ?? false
        }
        for block in blocks {
            let (language, options) = CodeFenceInfo.parse(String(cString: cmark_node_get_fence_info(block)))
            let code = cmark_node_get_literal(block).map { String(cString: $0) } ?? ""
            guard !language.isEmpty, let html = SyntaxHighlighter.highlight(code, language: language, options: options) else { continue }
            let numbered = options.lineNumbers || !options.highlightedLines.isEmpty ? " hl-lines" : ""
            let replacement = cmark_node_new(CMARK_NODE_HTML_BLOCK)
            cmark_node_set_literal(replacement, "<pre class=\"highlight\(numbered)\"><code class=\"language-\(HTMLText.escape(language))\">"
                                   + html + "</code></pre>\n")
            cmark_node_insert_before(block, replacement)
            cmark_node_unlink(block)
            cmark_node_free(block)
        }
    }
}
