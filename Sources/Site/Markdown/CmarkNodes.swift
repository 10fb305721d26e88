import CCmark

/// Walks over a cmark-gfm tree, shared by the passes that read or rewrite a parsed document.
enum CmarkNodes {
    /// Every node below `root` (itself included) of one of `types`, in document order. Collected
    /// first: the callers change the tree, which an open iterator must not see.
    static func all(_ types: Set<UInt32>, in root: OpaquePointer) -> [OpaquePointer] {
        var found: [OpaquePointer] = []
        let iterator = cmark_iter_new(root)
        defer { cmark_iter_free(iterator) }
        while true {
            let event = cmark_iter_next(iterator)
            if event == CMARK_EVENT_DONE { break }
            if event == CMARK_EVENT_ENTER, let node = cmark_iter_get_node(iterator),
               types.contains(cmark_node_get_type(node).rawValue) {
                found.append(node)
            }
        }
        return found
    }

    /// The text inside a node (a heading's words, an image's alt text), without markup.
    static func text(of node: OpaquePointer) -> String {
        all([CMARK_NODE_TEXT.rawValue, CMARK_NODE_CODE.rawValue], in: node)
            .compactMap { cmark_node_get_literal($0).map { String(cString: $0) } }.joined()
    }
}
